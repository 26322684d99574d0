/**
 * Certificate PDFs through the whole process (embedded platform + gateway + the production UI build + Chromium):
 * the PDF's text and fonts (poppler's pdftotext/pdffonts/pdfinfo), the disk cache and its headers, single-flight,
 * the English certificate, the 404 page, and recovery after the browser is killed. Skipped only when the build,
 * Chromium or poppler-utils are missing.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SaveEvidenceData } from '../../contract/evidence.ts';
import {
  hasBuild,
  hasChromium,
  hasTool,
  login,
  startWhole,
  stdoutOf,
  uploadEvidence,
  type Whole,
} from '../../tests/support/pdf-whole.ts';

const poppler = (await hasTool('pdftotext')) && (await hasTool('pdffonts')) && (await hasTool('pdfinfo'));
const ready = hasBuild() && hasChromium() && poppler;

describe.skipIf(!ready)('certificate PDF (whole process)', () => {
  let w: Whole;
  let token: string;
  let n = 0;
  const title = '房屋租赁合同扫描件（二〇二五年）';
  const upload = (t = title) =>
    uploadEvidence(w.base, token, {
      title: t,
      fileName: `合同-${++n}.txt`,
      bytes: Buffer.from(`租赁合同 第${n}份 ${Math.random()}`),
    });
  const get = (p: string, headers: Record<string, string> = {}) => fetch(`${w.base}${p}`, { headers });
  /** Saves a PDF response into the data dir and returns the file. */
  const save = async (res: Response, name: string) => {
    const file = path.join(w.dataDir, name);
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    return file;
  };

  beforeAll(async () => {
    w = await startWhole();
    token = await login(w.base);
  });
  afterAll(async () => {
    await w?.stop();
  });

  it('downloads an A4 PDF whose text holds the evidence number, the SHA-256 and the Chinese title', async () => {
    const saved = await upload();
    const res = await get(`/attestation/${saved.baoquan}.pdf`, { 'accept-encoding': 'gzip, br' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('content-disposition')).toBe(
      `inline; filename="${saved.baoquan}.pdf"; filename*=UTF-8''${saved.baoquan}.pdf`,
    );
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    expect(res.headers.get('etag')).toMatch(/^W\/"pdf-[0-9a-f]{16}-[0-9a-f]{16}"$/);
    const file = await save(res, 'first.pdf');
    // pdftotext breaks long hashes over lines: compare without white space.
    const text = (await stdoutOf('pdftotext', ['-enc', 'UTF-8', file, '-'])).replace(/\s+/g, '');
    expect(text).toContain(saved.baoquan);
    expect(text).toContain(saved.filehash);
    expect(text).toContain(title);
    expect(await stdoutOf('pdfinfo', [file])).toMatch(/Page size:\s+59\d(\.\d+)? x 84\d(\.\d+)? pts \(A4\)/);
  });

  it('embeds the CJK font shipped as a package (Noto Sans SC) from the print view', async (ctx) => {
    const saved = await upload();
    const print = await get(`/attestation/${saved.baoquan}/print`);
    await print.body?.cancel();
    ctx.skip(print.status !== 200, 'the UI build has no print view /attestation/<id>/print yet');
    const file = await save(await get(`/attestation/${saved.baoquan}.pdf`), 'fonts.pdf');
    const fonts = (await stdoutOf('pdffonts', [file])).split('\n').slice(2).filter(Boolean);
    const noto = fonts.filter((line) => /NotoSansSC/.test(line));
    expect(noto.length).toBeGreaterThan(0);
    // columns: name type encoding emb sub uni object ID → every Noto Sans SC subset is embedded
    for (const line of noto) expect(line.split(/\s+/).slice(-5, -4)[0]).toBe('yes');
  });

  it('serves a second request from the disk cache: faster, the same bytes, a 304 on revalidation', async () => {
    const saved = await upload();
    const p = `/attestation/${saved.baoquan}.pdf`;
    let t = performance.now();
    const first = await get(p);
    const bytes1 = Buffer.from(await first.arrayBuffer());
    const missMs = performance.now() - t;
    t = performance.now();
    const second = await get(p);
    const bytes2 = Buffer.from(await second.arrayBuffer());
    const hitMs = performance.now() - t;
    expect([first.headers.get('x-pdf-cache'), second.headers.get('x-pdf-cache')]).toEqual(['miss', 'hit']);
    expect(bytes2.equals(bytes1)).toBe(true);
    expect(hitMs).toBeLessThan(missMs);
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    const cached = readdirSync(path.join(w.dataDir, 'cache', 'pdf')).filter((f) =>
      f.startsWith(saved.baoquan),
    );
    expect(cached).toHaveLength(1);
    expect(cached[0]).toMatch(
      // Not `.partial`: the embedded platform proves every saved evidence, and the print view printed the proof.
      new RegExp(`^${saved.baoquan}\\.zh\\.[0-9a-f]{16}\\.[0-9a-f]{16}\\.pdf$`),
    );

    const revalidated = await get(p, { 'if-none-match': first.headers.get('etag')! });
    expect(revalidated.status).toBe(304);
  });

  it('renders once for concurrent requests of one certificate (single-flight)', async () => {
    const saved = await upload();
    const before = w.running.gateway.certificatePdf.pool.stats().completed;
    const answers = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const res = await get(`/attestation/${saved.baoquan}.pdf`);
        return createHash('sha256')
          .update(Buffer.from(await res.arrayBuffer()))
          .digest('hex');
      }),
    );
    expect(new Set(answers).size).toBe(1);
    expect(w.running.gateway.certificatePdf.pool.stats().completed - before).toBe(1);
  });

  it('renders the English certificate at /English/attestation/<id>.pdf', async () => {
    const saved = await upload();
    const res = await get(`/English/attestation/${saved.baoquan}.pdf`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const text = (await stdoutOf('pdftotext', [await save(res, 'english.pdf'), '-'])).replace(/\s+/g, '');
    expect(text).toContain(saved.baoquan);
    expect(text).toContain(saved.filehash);
  });

  it('answers an unknown evidence with the 404 page', async () => {
    for (const p of ['/attestation/BQ20250101ABCDEFGHJKMNPQRSTVWX.pdf', '/English/attestation/nope.pdf']) {
      const res = await get(p);
      expect(res.status, p).toBe(404);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await res.text()).toContain('抱歉，您访问的页面不存在!');
    }
  });

  it('leaves the certificate page itself to the UI', async () => {
    const saved: SaveEvidenceData = await upload();
    const res = await get(`/attestation/${saved.baoquan}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toContain(saved.baoquan);
  });

  it('recovers after the browser process is killed', async () => {
    const pool = w.running.gateway.certificatePdf.pool;
    await get(`/attestation/${(await upload()).baoquan}.pdf`).then((r) => r.arrayBuffer());
    const launches = pool.stats().launches;
    process.kill(pool.browserPid()!, 'SIGKILL');
    await expect.poll(() => pool.browserPid(), { timeout: 5000 }).toBeNull();
    const saved = await upload();
    const res = await get(`/attestation/${saved.baoquan}.pdf`);
    expect(res.status).toBe(200);
    const text = await stdoutOf('pdftotext', [await save(res, 'after-kill.pdf'), '-']);
    expect(text.replace(/\s+/g, '')).toContain(saved.baoquan);
    expect(pool.stats().launches).toBe(launches + 1);
  });
});

describe.skipIf(!ready)('certificate PDF rendered ahead of its first visitor (PDF_RENDER_AHEAD=1)', () => {
  let w: Whole;
  let token: string;
  beforeAll(async () => {
    // rendered ahead by the background worker child, as `npm start` runs it (decision 064)
    w = await startWhole({ PDF_RENDER_AHEAD: '1', BACKGROUND_WORKER: 'child' });
    token = await login(w.base);
  });
  // closing waits for the worker child (SIGTERM, SIGKILL after 10 s) and then the gateway: on a loaded CI machine
  // this took over 60 s once (not yet explained; the other suites that start the child close within seconds)
  afterAll(async () => {
    await w?.stop();
  }, 150_000);

  /**
   * Waits until the cache holds a PDF of `baoquan` (at most 60 s: the worker child starts beside the gateway — about
   * 5 s to load on this machine — and launches its Chromium on its first job).
   */
  const cachedSoon = async (baoquan: string) => {
    const dir = path.join(w.dataDir, 'cache', 'pdf');
    for (let i = 0; i < 600; i++) {
      if (
        existsSync(dir) &&
        readdirSync(dir).some((f) => f.startsWith(`${baoquan}.zh.`) && f.endsWith('.pdf'))
      )
        return true;
      await new Promise((r) => setTimeout(r, 100));
    }
    return false;
  };

  it('renders the PDF of evidence saved through /api, so the first visit is a cache hit', async () => {
    const before = w.running.gateway.certificatePdf.pool.stats().completed;
    const saved = await uploadEvidence(w.base, token, {
      title: '提前渲染的证书',
      fileName: 'ahead.txt',
      bytes: Buffer.from(`ahead ${Math.random()}`),
    });
    expect(await cachedSoon(saved.baoquan)).toBe(true);
    // the worker rendered it, not the gateway
    expect(w.running.gateway.certificatePdf.pool.stats().completed - before).toBe(0);
    const res = await fetch(`${w.base}/attestation/${saved.baoquan}.pdf`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-pdf-cache')).toBe('hit');
    expect(
      Buffer.from(await res.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    // the English certificate is still rendered on demand
    const english = await fetch(`${w.base}/English/attestation/${saved.baoquan}.pdf`);
    expect(english.headers.get('x-pdf-cache')).toBe('miss');
  }, 90_000);

  it('renders nothing ahead for a refused save or another call', async () => {
    const dir = path.join(w.dataDir, 'cache', 'pdf');
    const pdfs = () => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.pdf')).length : 0);
    const before = pdfs();
    const refused = await fetch(`${w.base}/api/data/save`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(refused.status).toBe(200);
    expect(Number(((await refused.json()) as { code: number }).code)).not.toBe(200);
    await fetch(`${w.base}/api/data/getList`, { headers: { authorization: `Bearer ${token}` } }).then((r) =>
      r.text(),
    );
    // longer than the worker's idle poll (1 s) and its wake-up
    await new Promise((r) => setTimeout(r, 2500));
    expect(pdfs() - before).toBe(0);
  });
});
