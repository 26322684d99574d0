/**
 * Screen rules of spec 01 §8 / spec 02 §8 and the spec 02 §2 route guard: a download answer whose data is
 * "certificate being generated" is information, not an error; the previewProgress guard turns the file-url's extra
 * slashes into asterisks, and the guarded token then decodes to the original URL.
 */
import { describe, expect, it } from 'vitest';
import { EvidenceMsg } from '../../contract/evidence.ts';
import { downloadOutcome } from './download-outcome.ts';
import { decodeFileToken, encodeFileToken } from './file-token.server.ts';
import { guardPreviewProgressPath, loader } from './preview-progress-guard.ts';

describe('downloadOutcome', () => {
  const pick = (d: { packageUrl: string }) => d.packageUrl;
  it('shows "certificate being generated" as information whatever the code', () => {
    for (const code of [200, 202, 400, '500']) {
      expect(
        downloadOutcome(
          { code, msg: EvidenceMsg.certificateGenerating, data: EvidenceMsg.certificateGenerating } as never,
          pick,
        ),
      ).toEqual({ kind: 'info', message: EvidenceMsg.certificateGenerating });
    }
    // an empty msg falls back to the spec's text
    expect(
      downloadOutcome({ code: 400, msg: '', data: EvidenceMsg.certificateGenerating } as never, pick),
    ).toEqual({
      kind: 'info',
      message: EvidenceMsg.certificateGenerating,
    });
  });
  it('follows a success and shows any other failure as an error', () => {
    expect(downloadOutcome({ code: '200', msg: 'ok', data: { packageUrl: '/p.zip' } }, pick)).toEqual({
      kind: 'go',
      url: '/p.zip',
    });
    expect(
      downloadOutcome({ code: 400, msg: EvidenceMsg.extractCodeWrong, data: null } as never, pick),
    ).toEqual({
      kind: 'error',
      message: EvidenceMsg.extractCodeWrong,
    });
    // the message text alone (without the data value) is not the exception
    expect(
      downloadOutcome({ code: 400, msg: EvidenceMsg.certificateGenerating, data: null } as never, pick),
    ).toEqual({
      kind: 'error',
      message: EvidenceMsg.certificateGenerating,
    });
    expect(downloadOutcome({ code: 200, msg: '无地址', data: { packageUrl: '' } }, pick)).toEqual({
      kind: 'error',
      message: '无地址',
    });
  });
});

describe('previewProgress guard', () => {
  it('turns every slash inside the file-url into an asterisk', () => {
    expect(guardPreviewProgressPath('/mobile/previewProgress/abc/def//g==')).toBe(
      '/mobile/previewProgress/abc*def**g==',
    );
    expect(guardPreviewProgressPath('/mobile/previewProgress/abc')).toBe('/mobile/previewProgress/abc');
    expect(guardPreviewProgressPath('/mobile/previewProgress///')).toBeNull();
    expect(guardPreviewProgressPath('/mobile/preview/abc/def')).toBeNull();
  });

  it('redirects (302, query kept) to a path whose token decodes to the original URL', async () => {
    const url = '/api/file/BQ1?exp=1&sig=ab/cd+ef??>>';
    const token = encodeFileToken(url, 's1');
    const withSlashes = token.replace(/\*/g, '/');
    expect(withSlashes).toContain('/');
    const res = loader({
      request: new Request(`http://x/mobile/previewProgress/${withSlashes}?fileType=2`),
    } as never) as Response;
    expect(res.status).toBe(302);
    const location = res.headers.get('location')!;
    expect(location).toBe(`/mobile/previewProgress/${token}?fileType=2`);
    const segment = location.slice('/mobile/previewProgress/'.length).split('?')[0]!;
    expect(decodeFileToken(segment, ['s1'])).toBe(url);
  });

  it('answers 404 when nothing but slashes follows', async () => {
    try {
      loader({ request: new Request('http://x/mobile/previewProgress//') } as never);
      expect.unreachable();
    } catch (err) {
      expect((err as { init: { status: number } }).init.status).toBe(404);
    }
  });
});
