/**
 * The capture worker end to end (decision 037) against a platform listening on loopback: a job a user queued
 * for a local test site (allow-listed as tests do) is claimed, captured in Chromium and completed — the job is done,
 * the owner has web evidence whose ledger record is the WACZ's SHA-256 — and a job for a private address fails with
 * the SSRF reason. The evidence's certificate names the URL, the server's address, the title and the package's hash.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pino } from 'pino';
import { CapturePaths, type CaptureJobView } from '../../contract/capture.ts';
import { LedgerPaths, type ProofBundle } from '../../contract/ledger.ts';
import { EvidencePaths, type EvidenceView } from '../../contract/evidence.ts';
import { DEMO_MOBILE } from '../../platform/account/users.ts';
import { forEachDialect, get, login, post } from '../../tests/support/platform.ts';
import { hasChromium } from '../../tests/support/pdf-whole.ts';
import { loadCaptureConfig } from './config.ts';
import { startCaptureWorker, type CaptureWorker } from './worker.ts';
import { chromiumPath } from '../../tests/support/environment.ts';

forEachDialect('the capture worker', (h) => {
  const site = http.createServer((_req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<title>取证目标</title><p>内容</p>'),
  );
  let worker: CaptureWorker;
  let token: string;
  let sitePort: number;

  beforeAll(async () => {
    if (!hasChromium()) return;
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    sitePort = (site.address() as AddressInfo).port;
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    const upstreamUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
    token = await login(h.app, DEMO_MOBILE, 'demo1234');
    worker = startCaptureWorker({
      upstreamUrl,
      internalKey: h.app.internalKey,
      chromiumPath: chromiumPath(),
      config: loadCaptureConfig({ APP_ENV: 'test', CAPTURE_TEST_ALLOW: `127.0.0.1:${sitePort}` }),
      log: pino({ level: 'silent' }),
      pollMs: 200,
    });
  });
  afterAll(async () => {
    await worker?.stop();
    site.close();
  });

  async function settled(id: number): Promise<CaptureJobView> {
    // up to 60 s: a loaded 2-core machine (Chromium, ffmpeg and the suite at once) takes several times the quiet time
    for (let i = 0; i < 300; i++) {
      const job = (await get<CaptureJobView>(h.app, CapturePaths.job, { id }, token)).data;
      if (job.status === 'done' || job.status === 'failed') return job;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`job ${id} did not settle`);
  }

  it.skipIf(!hasChromium())(
    'captures queued web and process jobs into evidence, and fails one for a private address',
    async () => {
      const ok = await post<CaptureJobView>(
        h.app,
        CapturePaths.createWeb,
        { urls: [`http://127.0.0.1:${sitePort}/`], title: '网页取证测试' },
        token,
      );
      const bad = await post<CaptureJobView>(
        h.app,
        CapturePaths.createWeb,
        { urls: ['http://10.0.0.1/'] },
        token,
      );
      const done = await settled(ok.data.id);
      expect(done).toMatchObject({ status: 'done', error: null, title: '网页取证测试' });
      const proof = await get<ProofBundle>(h.app, LedgerPaths.proof, { baoquan: done.baoquan! });
      expect(proof.data.record).toMatchObject({ kind: 'web' });
      expect(proof.data.fileName).toBe(`网页取证-${done.id}.wacz`);
      // the certificate says what was captured: the URL, the server's address, the title, the package's hash
      const view = await get<EvidenceView>(h.app, EvidencePaths.view, { baoquan: done.baoquan! }, token);
      for (const text of [
        '网页取证',
        `取证网址 1</th><td>http://127.0.0.1:${sitePort}/`,
        '服务器IP地址</th><td>127.0.0.1',
        '网页标题</th><td>取证目标',
        `取证包SHA256</th><td class="cz-hash">${proof.data.record.sha256}`,
      ])
        expect(view.data.html).toContain(text);

      // a process script: recorded and preserved as process evidence
      const script = await post<CaptureJobView>(
        h.app,
        CapturePaths.createProcess,
        {
          steps: [
            { action: 'visit', value: `http://127.0.0.1:${sitePort}/` },
            { action: 'scroll', value: '200' },
          ],
          title: '过程取证测试',
        },
        token,
      );
      const recorded = await settled(script.data.id);
      expect(recorded).toMatchObject({ status: 'done', kind: 'process' });
      const processProof = await get<ProofBundle>(h.app, LedgerPaths.proof, { baoquan: recorded.baoquan! });
      expect(processProof.data.record).toMatchObject({ kind: 'process' });
      const processView = await get<EvidenceView>(
        h.app,
        EvidencePaths.view,
        { baoquan: recorded.baoquan! },
        token,
      );
      expect(processView.data.html).toContain('过程取证（录像）');

      const failed = await settled(bad.data.id);
      expect(failed).toMatchObject({ status: 'failed', baoquan: null });
      expect(failed.error).toContain('目标地址 10.0.0.1 属于内网地址');
    },
    180_000,
  );
});
