/** The web capture's certificate rows (certificate-web.ts): read defensively from the job's record, escaped when shown. */
import { describe, expect, it } from 'vitest';
import { parseCaptureMeta, parseProcessMeta } from './certificate-web.ts';
import { renderCertificateHtml } from './certificate.ts';

const FACTS = {
  kind: 'web' as const,
  baoquan: 'BQ1',
  title: '网页',
  fileName: '网页取证-1.wacz',
  fileSize: 2048,
  fileType: 5,
  saveTime: '2026-11-27 16:00:00',
  ownerMobile: '13800138000',
  sha256: 'a'.repeat(64),
  chainhash: 'b'.repeat(64),
};

describe('web capture certificate', () => {
  it('keeps only the known fields of a record and survives a malformed one', () => {
    expect(parseCaptureMeta('not json')).toEqual([]);
    expect(parseCaptureMeta('{"pages": 3}')).toEqual([]);
    const [page] = parseCaptureMeta(
      JSON.stringify({
        pages: [
          {
            requestedUrl: 'http://a.example/<x>',
            finalUrl: 'https://a.example/',
            title: '<script>',
            serverIp: '93.184.216.34',
            capturedAt: '2026-11-27T08:00:00.000Z',
            status: 200,
            tls: {
              subject: 'a.example',
              issuer: 'CA',
              validTo: '2027-01-01T00:00:00.000Z',
              protocol: 'TLS 1.3',
            },
            error: null,
            extra: 'ignored',
          },
        ],
      }),
    );
    expect(page).toMatchObject({ serverIp: '93.184.216.34', status: 200, tls: { protocol: 'TLS 1.3' } });
    expect(page).not.toHaveProperty('extra');
    const html = renderCertificateHtml({ ...FACTS, capture: [page!] });
    expect(html).toContain('http://a.example/&lt;x&gt;');
    expect(html).toContain('跳转后网址</th><td>https://a.example/');
    expect(html).toContain('网页标题</th><td>&lt;script&gt;');
    expect(html).toContain('取证时间</th><td>2026-11-27 16:00:00（北京时间）');
    expect(html).toContain('TLS 证书</th><td>a.example（签发者：CA，有效期至 2027-01-01）');
    expect(html).not.toContain('<script>');
  });

  it("lists a process capture's steps, done or not, and its video", () => {
    const html = renderCertificateHtml({
      ...FACTS,
      kind: 'process',
      steps: parseProcessMeta(
        JSON.stringify({
          steps: [
            { n: 1, action: 'visit', detail: 'https://a.example/', ok: true, at: '2026-11-27T08:00:00.000Z' },
            { n: 2, action: 'click', detail: '#go', ok: false, error: '第 2 步（点击）无法完成：超时' },
          ],
        }),
      ),
    });
    expect(html).toContain('第 1 步</th><td>打开网址：https://a.example/（完成，2026-11-27 16:00:00）');
    expect(html).toContain('第 2 步</th><td>点击：#go（未完成：第 2 步（点击）无法完成：超时）');
    expect(html).toContain('取证录像</th><td>取证包内 capture/process.webm');
    expect(html).toContain('证据类型</th><td>过程取证（录像）');
    expect(parseProcessMeta('{')).toEqual([]);
  });

  it('says why a page could not be captured', () => {
    const html = renderCertificateHtml({
      ...FACTS,
      capture: parseCaptureMeta(
        JSON.stringify({
          pages: [{ requestedUrl: 'http://10.0.0.1/', error: '目标地址 10.0.0.1 属于内网地址' }],
        }),
      ),
    });
    expect(html).toContain('取证结果</th><td>目标地址 10.0.0.1 属于内网地址');
  });
});
