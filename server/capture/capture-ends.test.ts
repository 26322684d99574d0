/**
 * A capture that fails or times out ends everything it opened, and CAPTURE_CONCURRENCY bounds the captures alive
 * (docs/decisions/063-captures-end.md), tried as a hostile site would: pages that trickle one byte at a time and
 * never finish, and a page that never answers. Three such jobs (one more than the concurrency of 2) run through the
 * real worker, platform and Chromium; sampled every 100 ms, never more than 2 jobs have a request open at the site
 * and never more than 2 browser contexts exist; a few seconds after the last job failed, the site has no connection
 * left, the browser has only its default context and this process listens on no port it did not listen on before
 * (no egress proxy left). Each job failed with its reason in Chinese.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Browser } from 'puppeteer-core';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CapturePaths, type CaptureJobView } from '../../contract/capture.ts';
import { DEMO_MOBILE } from '../../platform/account/users.ts';
import { forEachDialect, get, login, post, registerUser } from '../../tests/support/platform.ts';
import { hasChromium } from '../../tests/support/pdf-whole.ts';
import { chromiumPath } from '../../tests/support/environment.ts';
import { listeningPorts } from '../../tests/support/proc.ts';
import { launchChromium } from '../pdf/chromium.ts';
import { loadCaptureConfig } from './config.ts';
import { startCaptureWorker, type CaptureWorker } from './worker.ts';

/** CAPTURE_TIMEOUT_MS of the test (the schema's least): each page's navigation time-out. */
const TIMEOUT_MS = 5000;
const CONCURRENCY = 2;

/** A hostile site: `/trickle/<job>/<n>` sends a byte every 300 ms for ever, `/hang/<job>/<n>` never answers. */
function hostileSite() {
  const open = new Map<http.ServerResponse, string>();
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const [, kind, job] = (req.url ?? '').split('/');
    open.set(res, job ?? '');
    res.on('close', () => open.delete(res));
    if (kind !== 'trickle') return; // hang: no answer at all
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.write('<!doctype html><title>慢</title><p>');
    const timer = setInterval(() => res.write('.'), 300);
    res.on('close', () => clearInterval(timer));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return {
    server,
    /** Jobs with a request open now. */
    liveJobs: () => new Set(open.values()).size,
    openRequests: () => open.size,
    openSockets: () => sockets.size,
  };
}

forEachDialect('a capture ends what it opened (decision 063)', (h) => {
  const site = hostileSite();
  let browser: Browser;
  let worker: CaptureWorker;
  let port: number;
  let tokens: string[];
  let before: number[];

  beforeAll(async () => {
    if (!hasChromium()) return;
    await new Promise<void>((resolve) => site.server.listen(0, '127.0.0.1', resolve));
    port = (site.server.address() as AddressInfo).port;
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    await registerUser(h.app, h.dataDir, '13900001063', 'pass1063');
    tokens = [await login(h.app, DEMO_MOBILE, 'demo1234'), await login(h.app, '13900001063', 'pass1063')];
    browser = await launchChromium(chromiumPath());
    before = listeningPorts();
    worker = startCaptureWorker({
      upstreamUrl: `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`,
      internalKey: h.app.internalKey,
      chromiumPath: chromiumPath(),
      config: loadCaptureConfig({
        APP_ENV: 'test',
        CAPTURE_TEST_ALLOW: `127.0.0.1:${port}`,
        CAPTURE_TIMEOUT_MS: String(TIMEOUT_MS),
        CAPTURE_CONCURRENCY: String(CONCURRENCY),
      }),
      log: pino({ level: 'silent' }),
      pollMs: 100,
      launch: async () => browser,
      deadlineMarginMs: 20_000,
    });
  });
  afterAll(async () => {
    await worker?.stop(); // closes the browser it was given
    site.server.close();
  });

  it.skipIf(!hasChromium())(
    'trickling and hanging pages: never more than CAPTURE_CONCURRENCY alive, nothing left after they fail',
    async () => {
      const base = `http://127.0.0.1:${port}`;
      // ten trickling pages need 10 × 5 s, far past the job's deadline (5 s + 20 s): aborted; the other jobs end by
      // their pages' own time-outs long before theirs, even on a loaded machine
      const aborted = await post<CaptureJobView>(
        h.app,
        CapturePaths.createWeb,
        { urls: Array.from({ length: 10 }, (_, n) => `${base}/trickle/a/${n + 1}`) },
        tokens[0],
      );
      const hanging = await post<CaptureJobView>(
        h.app,
        CapturePaths.createWeb,
        { urls: [`${base}/hang/b/1`] },
        tokens[0],
      );
      const process = await post<CaptureJobView>(
        h.app,
        CapturePaths.createProcess,
        { steps: [{ action: 'visit', value: `${base}/trickle/c/1` }] },
        tokens[1],
      );
      const ids = [aborted, hanging, process].map((r) => r.data.id);

      let maxJobs = 0;
      let maxContexts = 0;
      const views = new Map<number, CaptureJobView>();
      for (let i = 0; views.size < ids.length; i++) {
        if (i > 900) throw new Error('the captures did not end within 90 s');
        maxJobs = Math.max(maxJobs, site.liveJobs());
        maxContexts = Math.max(maxContexts, browser.browserContexts().length - 1);
        for (const [n, id] of ids.entries()) {
          if (views.has(id)) continue;
          const job = (await get<CaptureJobView>(h.app, CapturePaths.job, { id }, tokens[n === 2 ? 1 : 0]))
            .data;
          if (job.status === 'done' || job.status === 'failed') views.set(id, job);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(maxJobs).toBeGreaterThan(0);
      expect(maxJobs).toBeLessThanOrEqual(CONCURRENCY);
      expect(maxContexts).toBeLessThanOrEqual(CONCURRENCY);

      expect(views.get(ids[0]!)).toMatchObject({ status: 'failed', error: '取证超时，请减少网址数量后重试' });
      expect(views.get(ids[1]!)).toMatchObject({
        status: 'failed',
        error: '无法打开该网址：加载超时（5 秒内未完成）',
      });
      // the process capture ends by its step's time-out, or — on a loaded machine, where its screenshot, recording
      // and remux on a page still loading take long — by the deadline: either way it says why in Chinese
      expect(views.get(ids[2]!)?.status).toBe('failed');
      expect([
        '第 1 步（打开网址）无法完成：无法打开该网址：加载超时（5 秒内未完成）',
        '取证超时，请减少网址数量后重试',
      ]).toContain(views.get(ids[2]!)?.error);

      // what the jobs opened is gone a few seconds after the last one failed
      const left = () => ({
        requests: site.openRequests(),
        sockets: site.openSockets(),
        contexts: browser.browserContexts().length - 1,
        ports: listeningPorts().filter((p) => !before.includes(p)),
      });
      const nothing = { requests: 0, sockets: 0, contexts: 0, ports: [] };
      for (let i = 0; i < 50 && JSON.stringify(left()) !== JSON.stringify(nothing); i++)
        await new Promise((r) => setTimeout(r, 100));
      expect(left()).toEqual(nothing);
    },
    150_000,
  );
});
