/**
 * The background worker's work (docs/decisions/064-background-worker.md): the capture worker (web and process
 * captures claimed from the platform, server/capture/worker.ts; decision 037) and, with PDF_RENDER_AHEAD, the render
 * worker (certificate PDFs claimed as render jobs and rendered into the shared cache, ./renders.ts), each with its own
 * Chromium, launched on its first job. Gateways launch Chromium only for what a person waits for (a PDF not yet
 * rendered, a notarisation document). `npm run start:worker` (./main.ts) lowers its priority first; `npm start`
 * supervises it as a child (./supervisor.ts); tests start it in their own process.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Browser } from 'puppeteer-core';
import type { Logger } from 'pino';
import { startCaptureWorker, type CaptureWorker } from '../capture/worker.ts';
import { BrowserPool } from '../pdf/browser-pool.ts';
import {
  certificateCacheDir,
  certificateSigner,
  certificateTemplateVersion,
} from '../pdf/certificate-setup.ts';
import { CertificateRenderer } from '../pdf/renderer.ts';
import type { WorkerConfig } from './config.ts';
import { renderLeaseSeconds, startRenderWorker, type RenderWorker } from './renders.ts';
import { chromiumAtOurPriority } from './priority.ts';
import type { ServerLoad } from './server-load.ts';

/** A started worker. */
export interface RunningWorker {
  /** The name its claims carry: host, process id and a random part. */
  name: string;
  capture: CaptureWorker;
  /** The render loop, or null (PDF_RENDER_AHEAD=0, or no UI build to print from). */
  renders: RenderWorker | null;
  /** Stops claiming, waits for the jobs going now, closes the browsers. Idempotent. */
  stop(): Promise<void>;
}

/** Options of {@link startWorker} besides the configuration. */
export interface StartWorkerOptions {
  logger: Logger;
  /** The React Router build the gateways serve: its hash is the certificates' template version. */
  buildDirectory: string;
  /** Idle poll of both loops, milliseconds (tests shorten it). */
  pollMs?: number;
  /** Launches the capture worker's Chromium (tests observe it); default: CHROMIUM_PATH on the first capture. */
  launchCaptureBrowser?: () => Promise<Browser>;
  /**
   * The supervising gateway's load (./server-load.ts): renders ahead wait while it is busy. Captures do not: a
   * person asked for each and waits for it.
   */
  serverLoad?: ServerLoad;
}

/** Starts the capture and render loops per `config`. @throws nothing of its own; the loops log their failures */
export async function startWorker(config: WorkerConfig, opts: StartWorkerOptions): Promise<RunningWorker> {
  const name = `${os.hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const log = opts.logger;
  // Chromium keeps the worker's priority, even when the worker runs as root (priority.ts)
  const privateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cz-worker-'));
  const chromiumPath = chromiumAtOurPriority(config.pdf.chromiumPath, privateDir);
  const capture = startCaptureWorker({
    upstreamUrl: config.upstreamUrl,
    internalKey: config.internalKey,
    chromiumPath,
    config: config.capture,
    log: log.child({ job: 'capture' }),
    ...(opts.pollMs ? { pollMs: opts.pollMs } : {}),
    ...(opts.launchCaptureBrowser ? { launch: opts.launchCaptureBrowser } : {}),
  });

  let renders: RenderWorker | null = null;
  let pool: BrowserPool | null = null;
  const version = config.pdf.renderAhead
    ? await certificateTemplateVersion(opts.buildDirectory, config.site)
    : null;
  if (config.pdf.renderAhead && version === null) {
    log.warn({ buildDirectory: opts.buildDirectory }, 'no UI build: no certificate is rendered ahead');
  }
  if (version !== null) {
    const target = { upstreamUrl: config.upstreamUrl };
    // one page at a time: the worker yields the machine to the servers (decision 064)
    pool = new BrowserPool({
      ...config.pdf,
      chromiumPath,
      poolSize: 1,
      logger: log.child({ job: 'render' }),
    });
    const renderer = new CertificateRenderer({
      ...target,
      cacheDir: certificateCacheDir(config.pdf.cacheDir, config.dataDir),
      templateVersion: version,
      reuseCache: true,
      cacheMaxBytes: config.pdf.cacheMaxBytes,
      pool,
      gatewayOrigin: () => config.gatewayUrl,
      navigationTimeoutMs: config.pdf.timeoutMs,
      logger: log.child({ job: 'render' }),
      sign: certificateSigner(
        target,
        config.internalKey,
        config.site,
        () => config.site.publicUrl ?? config.gatewayUrl,
      ),
    });
    renders = startRenderWorker({
      target,
      internalKey: config.internalKey,
      worker: name,
      renderer,
      leaseSeconds: renderLeaseSeconds(config.pdf.timeoutMs),
      log: log.child({ job: 'render' }),
      ...(opts.pollMs ? { pollMs: opts.pollMs } : {}),
      ...(opts.serverLoad ? { serverLoad: opts.serverLoad } : {}),
    });
  }
  log.info({ worker: name, renderAhead: renders !== null, gatewayUrl: config.gatewayUrl }, 'worker started');

  let stopping: Promise<void> | null = null;
  return {
    name,
    capture,
    renders,
    stop: () =>
      (stopping ??= (async () => {
        await Promise.all([renders?.stop(), capture.stop()]);
        await pool?.close();
        fs.rmSync(privateDir, { recursive: true, force: true });
      })()),
  };
}
