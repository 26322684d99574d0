/**
 * Proves (spec 01 §8): a stopped upstream gives the spec's "connection failed" answer with HTTP 502 and never
 * crashes the gateway — for a page whose loader calls the upstream (`/register`), for the `/api/*` proxy
 * (JSON and multipart bodies), and for logged-in pages and the upload action. Two set-ups: a gateway whose
 * UPSTREAM_URL is a closed loopback port, and the embedded default whose platform is closed after login. The
 * process keeps serving `/healthz` (and `/readyz` says 503) afterwards.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Msg } from '../../contract/messages.ts';
import { startServer, type RunningServer } from '../../server/start.ts';
import {
  closedPort,
  freshDataDir,
  multipart,
  postMultipart,
  startWhole,
  testEnv,
  uploadCsrf,
  webLogin,
  BUILD_DIR,
  type CookieJar,
  type Whole,
} from '../support/integration.ts';

const FAILED = Msg.connectionFailed;
const FAILED_ENVELOPE = { code: 502, msg: FAILED, data: null };

/** Asserts a 502 HTML page carrying the connection-failed message. */
async function expectFailedPage(res: Response): Promise<void> {
  expect(res.status).toBe(502);
  expect(res.headers.get('content-type')).toMatch(/text\/html/);
  expect(await res.text()).toContain(FAILED);
}

/** Asserts the process is alive: /healthz 200, /readyz 503 (the upstream is gone). */
async function expectStillServing(base: string): Promise<void> {
  const health = await fetch(`${base}/healthz`);
  expect(health.status).toBe(200);
  expect(await health.json()).toEqual({ status: 'ok' });
  const ready = await fetch(`${base}/readyz`);
  expect(ready.status).toBe(503);
  await ready.body?.cancel();
}

describe.sequential('a stopped upstream', () => {
  /** The embedded default: its platform is closed mid-suite. */
  let whole: Whole;
  /** A gateway in front of a closed loopback port, sharing SESSION_SECRET with `whole`. */
  let orphan: RunningServer;
  let orphanDataDir: string;
  let orphanBase: string;
  /** A live session made on `whole` while its platform still ran. */
  let jar: CookieJar;
  let csrf: string;

  beforeAll(async () => {
    whole = await startWhole();
    jar = await webLogin(whole.base);
    csrf = await uploadCsrf(whole.base, jar);
    const port = await closedPort();
    orphanDataDir = freshDataDir();
    orphan = await startServer(testEnv(orphanDataDir, { UPSTREAM_URL: `http://127.0.0.1:${port}` }), {
      mode: 'production',
      buildDirectory: BUILD_DIR,
    });
    orphanBase = orphan.url.replace('localhost', '127.0.0.1');
  });
  afterAll(async () => {
    await orphan?.closeAll();
    if (orphanDataDir) rmSync(orphanDataDir, { recursive: true, force: true });
    await whole?.stop();
  });

  describe.sequential('UPSTREAM_URL on a closed port', () => {
    it('GET /register (loader calls the upstream) answers the 502 page', async () => {
      expect(orphan.platform).toBeNull();
      await expectFailedPage(await fetch(`${orphanBase}/register`));
    });

    it('POST /api/login answers the 502 envelope', async () => {
      const res = await fetch(`${orphanBase}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ mobile: '13800138000', password: 'demo1234' }),
      });
      expect(res.status).toBe(502);
      expect(await res.json()).toEqual(FAILED_ENVELOPE);
    });

    it('a multipart POST /api/data/save answers the 502 envelope', async () => {
      const answer = await postMultipart(`${orphanBase}/api/data/save`, {
        headers: { authorization: 'Bearer whatever' },
        form: multipart({ title: 'x' }, 'x.bin'),
        file: randomBytes(256 * 1024),
      });
      expect(answer.status).toBe(502);
      expect(JSON.parse(answer.body)).toEqual(FAILED_ENVELOPE);
    });

    it('a logged-in page (session sealed by another gateway with the same secret) answers the 502 page', async () => {
      await expectFailedPage(
        await fetch(`${orphanBase}/attestation-list/file`, { headers: { cookie: jar.header() } }),
      );
    });

    it('keeps serving', async () => {
      await expectStillServing(orphanBase);
    });
  });

  describe.sequential('embedded platform closed after login', () => {
    beforeAll(async () => {
      // The page works while the platform runs…
      const before = await fetch(`${whole.base}/attestation-list/file`, {
        headers: { cookie: jar.header() },
      });
      expect(before.status).toBe(200);
      await before.body?.cancel();
      // …then the upstream goes away.
      await whole.running.platform!.close();
    });

    it('logged-in pages answer the 502 page, not a crash nor a login redirect', async () => {
      for (const p of ['/attestation-list/file', '/newAccessCard', '/']) {
        const res = await fetch(`${whole.base}${p}`, {
          headers: { cookie: jar.header() },
          redirect: 'manual',
        });
        await expectFailedPage(res);
      }
    });

    it('the upload action answers the 502 page', async () => {
      const answer = await postMultipart(`${whole.base}/newAccessCard?csrf=${encodeURIComponent(csrf)}`, {
        headers: { cookie: jar.header() },
        form: multipart({ title: 'x' }, 'x.bin'),
        // Larger than the socket buffers, so the browser is still sending when the gateway answers.
        file: randomBytes(4 * 1024 * 1024),
      });
      expect(answer.status).toBe(502);
      expect(answer.headers['content-type']).toMatch(/text\/html/);
      expect(answer.body).toContain(FAILED);
    });

    it('POST /api/login answers the 502 envelope', async () => {
      const res = await fetch(`${whole.base}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ mobile: '13800138000', password: 'demo1234' }),
      });
      expect(res.status).toBe(502);
      expect(await res.json()).toEqual(FAILED_ENVELOPE);
    });

    it('keeps serving', async () => {
      await expectStillServing(whole.base);
    });
  });
});
