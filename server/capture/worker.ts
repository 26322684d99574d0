/**
 * The background worker's capture loop (decisions 037, 064): while the process runs it claims capture jobs from the
 * platform (`POST /api/internal/capture/claim` with the internal key; a lease of the job timeout plus a margin), at
 * most CAPTURE_CONCURRENCY at once, captures each in its own Chromium context through its own egress proxy
 * (web-capture.ts), and completes the job with the WACZ (multipart, the file streamed from disk) or fails it with
 * the reason in Chinese. A job this process dies holding is claimed again by any worker once its lease passes
 * (platform/capture/service.ts). One Chromium for all captures, launched on the first job, separate from the PDF
 * renderer's. A job that outlives CAPTURE_TIMEOUT_MS plus a margin is aborted: its context, egress proxy and every
 * connection are closed before its slot is free again (decision 063). Times in milliseconds unless named seconds.
 */
import { openAsBlob } from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Browser } from 'puppeteer-core';
import { CapturePaths, type ClaimedCaptureJob } from '../../contract/capture.ts';
import { launchChromium } from '../pdf/chromium.ts';
import type { CaptureConfig } from './config.ts';
import type { Resolver } from './egress-proxy.ts';
import { captureProcess } from './process-capture.ts';
import { captureWeb, type CaptureOptions, type CaptureResult } from './web-capture.ts';

/** How often an idle worker asks for a job. */
export const CAPTURE_POLL_MS = 2000;

/** A running worker. */
export interface CaptureWorker {
  /** Stops claiming, waits for the captures in flight (they complete or fail their jobs), closes Chromium. */
  stop(): Promise<void>;
  /** Jobs finished so far (completed or failed). */
  readonly finished: number;
}

/** Settings of {@link startCaptureWorker}. */
export interface CaptureWorkerOptions {
  upstreamUrl: string;
  internalKey: string;
  chromiumPath: string;
  config: CaptureConfig;
  log: FastifyBaseLogger;
  pollMs?: number;
  resolver?: Resolver;
  /** Launches the worker's Chromium (default: {@link launchChromium} of `chromiumPath`, on the first job). */
  launch?: () => Promise<Browser>;
  /**
   * A job is aborted this long after CAPTURE_TIMEOUT_MS when it has not ended by itself (its pages' own time-outs
   * come first), milliseconds; default {@link DEADLINE_MARGIN_MS}.
   */
  deadlineMarginMs?: number;
}

/** Default of {@link CaptureWorkerOptions.deadlineMarginMs}. */
export const DEADLINE_MARGIN_MS = 30_000;

/** Thrown into a capture whose deadline passed. */
class CaptureDeadline extends Error {
  override name = 'CaptureDeadline';
}

/** Calls an internal capture path; @returns the envelope's data. @throws on a transport error or a non-200 code */
async function internalCall<T>(
  opts: CaptureWorkerOptions,
  urlPath: string,
  body: FormData | object,
): Promise<T> {
  const form = body instanceof FormData;
  const res = await fetch(`${opts.upstreamUrl}${urlPath}`, {
    method: 'POST',
    headers: { 'x-internal-key': opts.internalKey, ...(form ? {} : { 'content-type': 'application/json' }) },
    body: form ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(120_000),
  });
  const envelope = (await res.json()) as { code: number; msg: string; data: T };
  if (envelope.code !== 200) throw new Error(`${urlPath} answered ${envelope.code} ${envelope.msg}`);
  return envelope.data;
}

/** Why the whole web capture failed, in Chinese, or null when at least one page was captured. */
function failureOf(result: CaptureResult): string | null {
  if (result.pages.some((p) => p.screenshot !== null && p.error === null)) return null;
  return result.pages.find((p) => p.error)?.error ?? result.blocked[0]?.reason ?? '网页取证失败';
}

/**
 * Captures `job` (web or process) with `opts`.
 * @returns the WACZ, what to record with the evidence, and why the job failed (null when it is to be preserved: a
 * process capture is preserved unless its first step, opening the URL, failed)
 */
async function captureJob(browser: Browser, job: ClaimedCaptureJob, opts: CaptureOptions, maxPages: number) {
  if (job.kind === 'process') {
    const r = await captureProcess(browser, job.steps, opts);
    const failure = r.steps[0]?.ok ? null : (r.steps[0]?.error ?? '过程取证失败');
    return { wacz: r.wacz, bytes: r.bytes, meta: { steps: r.steps, video: r.video }, failure };
  }
  const r = await captureWeb(browser, job.urls.slice(0, maxPages), opts);
  return {
    wacz: r.wacz,
    bytes: r.bytes,
    meta: { pages: r.pages, blocked: r.blocked },
    failure: failureOf(r),
  };
}

/** Starts the worker; it polls until {@link CaptureWorker.stop}. */
export function startCaptureWorker(opts: CaptureWorkerOptions): CaptureWorker {
  const worker = `${os.hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const leaseSeconds = Math.ceil(opts.config.timeoutMs / 1000) + 120;
  let browser: Promise<Browser> | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let finished = 0;
  const running = new Set<Promise<void>>();

  const chromium = () => (browser ??= (opts.launch ?? (() => launchChromium(opts.chromiumPath)))());

  async function run(job: ClaimedCaptureJob): Promise<void> {
    const workDir = await fsp.mkdtemp(path.join(os.tmpdir(), `cz-capture-${job.id}-`));
    const log = opts.log.child({ captureJob: job.id });
    // the deadline aborts the capture, which then closes its context, proxy and connections before it ends: the
    // slot is freed only after that, so CAPTURE_CONCURRENCY bounds the captures alive (decision 063)
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new CaptureDeadline('capture deadline')),
      opts.config.timeoutMs + (opts.deadlineMarginMs ?? DEADLINE_MARGIN_MS),
    );
    try {
      const result = await captureJob(
        await chromium(),
        job,
        {
          workDir,
          title: job.title,
          timeoutMs: opts.config.timeoutMs,
          maxBytes: opts.config.maxBytes,
          resolver: opts.resolver,
          allow: opts.config.testAllow,
          acceptInsecureCerts: opts.config.testAllow.size > 0,
          signal: deadline.signal,
        },
        opts.config.maxPages,
      );
      clearTimeout(timer);
      const failure = result.failure;
      if (failure) {
        await internalCall(opts, CapturePaths.fail, { jobId: job.id, worker, error: failure });
        log.info({ kind: job.kind }, 'capture failed');
      } else {
        const form = new FormData();
        form.set('jobId', String(job.id));
        form.set('worker', worker);
        form.set('meta', JSON.stringify(result.meta));
        form.set('wacz', await openAsBlob(result.wacz), 'capture.wacz');
        await internalCall(opts, CapturePaths.complete, form);
        log.info({ kind: job.kind, bytes: result.bytes }, 'capture preserved');
      }
    } catch (err) {
      log.warn({ err }, 'capture job failed');
      const reason = deadline.signal.aborted ? '取证超时，请减少网址数量后重试' : '网页取证失败，请稍后重试';
      await internalCall(opts, CapturePaths.fail, { jobId: job.id, worker, error: reason }).catch(
        () => undefined,
      );
    } finally {
      clearTimeout(timer);
      finished++;
      await fsp.rm(workDir, { recursive: true, force: true });
    }
  }

  async function poll(): Promise<void> {
    timer = null;
    try {
      while (!stopped && running.size < opts.config.concurrency) {
        const job = await internalCall<ClaimedCaptureJob | null>(opts, CapturePaths.claim, {
          worker,
          leaseSeconds,
        });
        if (!job) break;
        const task = run(job).finally(() => {
          running.delete(task);
          if (!stopped && !timer) timer = setTimeout(() => void poll(), 0);
        });
        running.add(task);
      }
    } catch (err) {
      opts.log.debug({ err }, 'capture claim failed');
    }
    if (!stopped && !timer) timer = setTimeout(() => void poll(), opts.pollMs ?? CAPTURE_POLL_MS);
  }
  timer = setTimeout(() => void poll(), 0);

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await Promise.all(running);
      if (browser) await (await browser).close().catch(() => undefined);
    },
    get finished() {
      return finished;
    },
  };
}
