/**
 * The certificate page's file query (spec 01 §2.3: fileUrl, fileType 文档/图片/音频/视频, vedioType; decision 028):
 * only our own tokens for this evidence preview, the type comes from the query's Chinese name or the evidence, the
 * video MIME type from vedioType; and the owner's preview link round-trips through it.
 */
import { describe, expect, it } from 'vitest';
import { type EvidenceView, fileTypeFromQuery } from '../../contract/evidence.ts';
import { PREVIEW_INVALID, previewHref, readFilePreview, videoMime } from './file-preview.server.ts';
import { encodeFileToken } from './file-token.server.ts';

const SECRETS = ['new-secret', 'old-secret'];
const view = (over: Partial<EvidenceView> = {}) =>
  ({
    baoquan: 'BQ2026AAA',
    fileName: 'clip.MP4',
    fileType: 4,
    isDownload: 1,
    deletedAt: null,
    kind: 'file',
    ...over,
  }) as EvidenceView;
const own = '/api/file/BQ2026AAA?exp=1795426816&sig=ab12';
const at = (q: Record<string, string>) => new URL(`http://x/attestation/BQ2026AAA?${new URLSearchParams(q)}`);

describe('fileTypeFromQuery', () => {
  it('maps the spec names and the digits 1–5, nothing else', () => {
    expect(fileTypeFromQuery('文档')).toBe(1);
    expect(fileTypeFromQuery('图片')).toBe(2);
    expect(fileTypeFromQuery('音频')).toBe(3);
    expect(fileTypeFromQuery(' 视频 ')).toBe(4);
    expect(fileTypeFromQuery('5')).toBe(5);
    for (const bad of [null, '', '全部', '0', '6', 'video', '图片x'])
      expect(fileTypeFromQuery(bad)).toBeNull();
  });
});

describe('videoMime', () => {
  it('turns vedioType into a video MIME type and ignores anything else', () => {
    expect(videoMime('mp4')).toBe('video/mp4');
    expect(videoMime('video/WebM')).toBe('video/webm');
    expect(videoMime('quicktime')).toBe('video/quicktime');
    for (const bad of [null, '', 'audio/mp3', 'mp4"><script>', 'a b', 'x'.repeat(40)]) {
      expect(videoMime(bad)).toBeNull();
    }
  });
});

describe('readFilePreview', () => {
  it('previews a token we issued, with the query type and video type', () => {
    const fileUrl = encodeFileToken(own, 'old-secret');
    expect(readFilePreview(at({ fileUrl, fileType: '视频', vedioType: 'mp4' }), view(), SECRETS)).toEqual({
      ok: true,
      url: own,
      fileType: 4,
      videoMime: 'video/mp4',
    });
    // without fileType the evidence's own type; vedioType only matters for video
    expect(readFilePreview(at({ fileUrl, vedioType: 'mp4' }), view({ fileType: 2 }), SECRETS)).toMatchObject({
      fileType: 2,
      videoMime: null,
    });
  });

  it('refuses forged, altered, bare and other evidences’ URLs', () => {
    const forged = encodeFileToken(own, 'someone-else');
    const other = encodeFileToken('/api/file/BQ2026BBB?exp=1&sig=2', 'new-secret');
    for (const fileUrl of [
      forged,
      other,
      own,
      'https://evil.example/x.png',
      encodeFileToken(own, 'new-secret') + 'A',
    ]) {
      expect(readFilePreview(at({ fileUrl }), view(), SECRETS)).toEqual({
        ok: false,
        message: PREVIEW_INVALID,
      });
    }
  });

  it('previews nothing without fileUrl, or when the data is deleted or missing', () => {
    const fileUrl = encodeFileToken(own, 'new-secret');
    expect(readFilePreview(at({ fileType: '图片' }), view(), SECRETS)).toBeNull();
    expect(readFilePreview(at({ fileUrl }), view({ deletedAt: '2026-11-01' }), SECRETS)).toBeNull();
    expect(readFilePreview(at({ fileUrl }), view({ isDownload: 0 }), SECRETS)).toBeNull();
  });
});

describe('previewHref', () => {
  it('links an image, audio or video to this page with the spec query, and round-trips', () => {
    const href = previewHref(view(), own, 'new-secret')!;
    const url = new URL(href, 'http://x');
    expect(url.pathname).toBe('/attestation/BQ2026AAA');
    expect(url.searchParams.get('fileType')).toBe('视频');
    expect(url.searchParams.get('vedioType')).toBe('mp4');
    expect(readFilePreview(url, view(), SECRETS)).toMatchObject({
      ok: true,
      url: own,
      videoMime: 'video/mp4',
    });
    expect(
      new URL(previewHref(view({ fileType: 2 }), own, 's')!, 'http://x').searchParams.has('vedioType'),
    ).toBe(false);
  });
  it('offers none for documents, other files or without a download URL', () => {
    expect(previewHref(view({ fileType: 1 }), own, 's')).toBeNull();
    expect(previewHref(view({ fileType: 5 }), own, 's')).toBeNull();
    expect(previewHref(view(), '', 's')).toBeNull();
  });
});
