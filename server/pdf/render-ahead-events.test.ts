/**
 * Certificate PDFs rendered ahead from the platform's evidence events (docs/decisions/059-evidence-events.md) by the
 * background worker (docs/decisions/064-background-worker.md), with the production UI build and Chromium:
 * - a NEW way of saving evidence, defined in this file alone — a route of a test area on the platform's `/api`, at a
 *   path no list names, saving through `saveEvidence` — called through the gateway's `/api`, gets its certificate
 *   PDF rendered ahead by a worker that reaches the platform over HTTP only (UPSTREAM_URL) and prints from the
 *   gateway (GATEWAY_URL) into the cache the gateway serves: the first visit is a cache hit;
 * - `npm start`'s setup (worker-thread platform, the worker as a supervised child process): a music work saved is
 *   rendered ahead, and its deletion (a `state-changed` event) renders the changed certificate again;
 * - with PDF_RENDER_AHEAD=0 the worker claims no render job.
 * Skipped only when the build or Chromium is missing.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { pino } from 'pino';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import httpProxy from '@fastify/http-proxy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, type ApiEnvelope } from '../../contract/envelope.ts';
import { EvidencePaths, type SaveEvidenceData } from '../../contract/evidence.ts';
import { MusicPaths } from '../../contract/music.ts';
import { buildPlatform } from '../../platform/app.ts';
import { pcmWav } from '../../tests/support/audio.ts';
import { chromiumPath } from '../../tests/support/environment.ts';
import { hasBuild, hasChromium, login, startWhole, type Whole } from '../../tests/support/pdf-whole.ts';
import { saveDemoHashEvidence, testConfig as platformConfig } from '../../tests/support/platform.ts';
import { TEST_RATE_LIMIT, testConfig as gatewayConfig } from '../../tests/support/server.ts';
import { buildServer } from '../app.ts';
import { loadPdfConfig } from './config.ts';
import { loadWorkerConfig } from '../worker/config.ts';
import { startWorker, type RunningWorker } from '../worker/run.ts';

const BUILD_DIR = path.resolve(import.meta.dirname, '../../build');
const ready = hasBuild() && hasChromium();
/** A path no list in app/, server/ or contract/ names: the test area's own save call. */
const STAMPED_SAVE = '/api/test-stamped-works/save';

/**
 * Waits until `dir` holds a Chinese certificate PDF of `baoquan` other than `except` (at most 60 s: a worker child
 * takes seconds to load and launches its Chromium on its first job).
 */
async function cachedSoon(dir: string, baoquan: string, except: string[] = []): Promise<string | null> {
  for (let i = 0; i < 600; i++) {
    const found = existsSync(dir)
      ? readdirSync(dir).find(
          (f) => f.startsWith(`${baoquan}.zh.`) && f.endsWith('.pdf') && !except.includes(f),
        )
      : undefined;
    if (found) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
  return null;
}

describe.skipIf(!ready)('a new way of saving evidence is rendered ahead without any path list', () => {
  const dirs: string[] = [];
  let platform: FastifyInstance;
  let front: FastifyInstance;
  let gateway: FastifyInstance;
  let base: string;
  let cacheDir: string;
  let gatewayDir: string;
  let platformUrl: string;
  const workers: RunningWorker[] = [];
  /** A worker in this process against the platform and the gateway above, rendering ahead per `renderAhead`. */
  const worker = async (renderAhead: '0' | '1') => {
    const config = loadWorkerConfig({
      APP_ENV: 'test',
      DATA_DIR: gatewayDir,
      UPSTREAM_URL: platformUrl,
      GATEWAY_URL: base,
      INTERNAL_API_KEY: platform.internalKey,
      CHROMIUM_PATH: chromiumPath(),
      PDF_RENDER_AHEAD: renderAhead,
    });
    const running = await startWorker(config, {
      logger: pino({ level: 'silent' }),
      buildDirectory: BUILD_DIR,
      pollMs: 100,
    });
    workers.push(running);
    return running;
  };

  beforeAll(async () => {
    const fresh = (name: string) => {
      const dir = mkdtempSync(path.join(os.tmpdir(), `cz-ahead-${name}-`));
      dirs.push(dir);
      return dir;
    };
    platform = await buildPlatform(platformConfig(fresh('platform'), undefined), { logger: false });
    await platform.listen({ host: '127.0.0.1', port: 0 });
    platformUrl = `http://127.0.0.1:${(platform.server.address() as AddressInfo).port}`;
    // The test area: its save call on the platform's /api, storing hash evidence of the demo account.
    front = Fastify({ logger: false });
    front.post(STAMPED_SAVE, async (request) => {
      const { sha256, title } = request.body as { sha256: string; title: string };
      return ok(await saveDemoHashEvidence(platform, title, sha256));
    });
    // everything else of /api is the platform's
    await front.register(httpProxy, { upstream: platformUrl, prefix: '/api', rewritePrefix: '/api' });
    await front.listen({ host: '127.0.0.1', port: 0 });
    gatewayDir = fresh('gateway');
    cacheDir = path.join(gatewayDir, 'cache', 'pdf');
    gateway = await buildServer(gatewayConfig({ dataDir: gatewayDir }), {
      upstreamUrl: `http://127.0.0.1:${(front.server.address() as AddressInfo).port}`,
      mode: 'production',
      buildDirectory: BUILD_DIR,
      internalKey: platform.internalKey,
      pdf: loadPdfConfig({ CHROMIUM_PATH: chromiumPath() }),
      rateLimit: TEST_RATE_LIMIT,
      logger: false,
    });
    await gateway.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    for (const w of workers) await w.stop();
    await gateway?.close();
    await front?.close();
    await platform?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('takes no render job with PDF_RENDER_AHEAD=0', async () => {
    const off = await worker('0');
    try {
      expect(off.renders).toBeNull();
    } finally {
      await off.stop();
    }
  });

  it('takes the save as an event and renders its certificate ahead: the first visit is a cache hit', async () => {
    const running = await worker('1');
    const res = await fetch(`${base}${STAMPED_SAVE}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sha256: 'ab'.repeat(32), title: '新种类的保全' }),
    });
    const env = (await res.json()) as ApiEnvelope<SaveEvidenceData>;
    expect(env.code).toBe(200);
    expect(await cachedSoon(cacheDir, env.data.baoquan)).not.toBeNull();
    await expect.poll(() => running.renders?.rendered).toBe(1);
    const pdf = await fetch(`${base}/attestation/${env.data.baoquan}.pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('x-pdf-cache')).toBe('hit');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  }, 60_000);
});

describe.skipIf(!ready)("npm start's setup: a music work saved is rendered ahead by the worker child", () => {
  let w: Whole;
  let token: string;
  beforeAll(async () => {
    w = await startWhole({ PDF_RENDER_AHEAD: '1', EMBEDDED_PLATFORM: 'worker', BACKGROUND_WORKER: 'child' });
    token = await login(w.base);
  }, 60_000);
  afterAll(async () => {
    await w?.stop();
  });

  it('renders the saved work, then its certificate again once its data is deleted', async () => {
    expect(w.running.embedded).toBe('worker');
    expect(w.running.worker?.pid()).toBeGreaterThan(0);
    const form = new FormData();
    form.set('title', '提前渲染的乐曲');
    form.set('authors[0].role', '作曲');
    form.set('authors[0].name', '张三');
    form.set('file', new Blob([new Uint8Array(pcmWav(1))], { type: 'audio/wav' }), 'tune.wav');
    const res = await fetch(`${w.base}${MusicPaths.save}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const saved = (await res.json()) as ApiEnvelope<SaveEvidenceData>;
    expect(saved.code).toBe(200);
    const dir = path.join(w.dataDir, 'cache', 'pdf');
    const first = await cachedSoon(dir, saved.data.baoquan);
    expect(first).not.toBeNull();

    // deleting the data changes what the certificate shows: the `state-changed` event renders it again
    const deleted = await fetch(`${w.base}${EvidencePaths.delData}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ dataId: saved.data.id }),
    });
    expect(((await deleted.json()) as ApiEnvelope<unknown>).code).toBe(200);
    expect(await cachedSoon(dir, saved.data.baoquan, [first!])).not.toBeNull();
    // the gateway rendered none of them: it serves the worker's file
    expect(w.running.gateway.certificatePdf.pool.stats().completed).toBe(0);
    const pdf = await fetch(`${w.base}/attestation/${saved.data.baoquan}.pdf`);
    expect(pdf.headers.get('x-pdf-cache')).toBe('hit');
    await pdf.arrayBuffer();
  }, 150_000);
});
