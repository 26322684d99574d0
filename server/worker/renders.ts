/**
 * Certificate PDFs rendered ahead of their first visitor, in the background worker (docs/decisions/064-background-
 * worker.md): it claims render jobs from the platform with a lease (contract/renders.ts; the platform makes them
 * from its evidence events), renders each with the worker's own Chromium into the PDF cache the gateways serve from
 * (server/pdf/renderer.ts), and completes the job; a render that fails fails the job with its reason and the
 * platform retries it later. An evidence the platform no longer knows completes its job: there is nothing to render.
 * A worker killed mid-render leaves its job leased; once the lease passes, any worker claims it again.
 *
 * One render at a time: each is a Chromium page and a PAdES signature, and the worker runs at a lower priority than
 * the servers (decision 064), and none is claimed while the supervising gateway says it is busy serving people (up to
 * 30 s a job; ./server-load.ts). Idle, it asks again every {@link RENDER_POLL_MS}, or at once when woken (the
 * supervising gateway passes on the platform's signal of committed events, ./supervisor.ts); after a job, at once;
 * after a failed call, after 1 s doubling up to 30 s. Times in milliseconds unless named seconds.
 */
import type { FastifyBaseLogger } from 'fastify';
import { callPlatform, type PlatformTarget } from '../../app/lib/platform-call.server.ts';
import type { ApiEnvelope } from '../../contract/envelope.ts';
import { RenderPaths, type ClaimedRender } from '../../contract/renders.ts';
import { EvidenceNotFoundError, type CertificateRenderer } from '../pdf/renderer.ts';
import type { ServerLoad } from './server-load.ts';

/** The supervising gateway's message that wakes the loop: evidence events were committed (decision 059). */
export const WAKE_MESSAGE = 'events';
/** How often an idle worker asks for a render job. */
export const RENDER_POLL_MS = 1000;
/**
 * The lease a claim asks for, seconds: twice a render's bound (PDF_TIMEOUT_MS, 30 s by default) plus 10 s for the
 * signature and the calls, within the contract's 10–600 s. A killed worker's job is claimed again after it.
 */
export function renderLeaseSeconds(timeoutMs: number): number {
  return Math.min(600, Math.max(10, Math.ceil((2 * timeoutMs) / 1000) + 10));
}
/** One internal call's deadline. */
const CALL_TIMEOUT_MS = 10_000;
const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 30_000;

/** Settings of {@link startRenderWorker}. */
export interface RenderWorkerOptions {
  target: PlatformTarget;
  internalKey: string;
  /** The worker's name in its claims (host, process, random part). */
  worker: string;
  renderer: CertificateRenderer;
  /** The lease of each claim ({@link renderLeaseSeconds}), seconds. */
  leaseSeconds: number;
  log: FastifyBaseLogger;
  pollMs?: number;
  /** The supervising gateway's load: no claim while it is busy (./server-load.ts). None: never wait. */
  serverLoad?: ServerLoad;
}

/** A running render loop. */
export interface RenderWorker {
  /** Stops claiming and waits for the render going now (its job completed or failed). */
  stop(): Promise<void>;
  /** Claims at once if idle (evidence events were committed: the supervising gateway's signal). */
  wake(): void;
  /** Jobs completed since start (rendered, or nothing to render). */
  readonly rendered: number;
  /** Jobs failed since start. */
  readonly failed: number;
}

/** Thrown when an internal call is not answered with code 200. */
class CallFailed extends Error {
  override name = 'CallFailed';
}

/** POSTs `body` to the internal `urlPath`. @returns the envelope's data. @throws CallFailed, undici's errors */
async function post<T>(opts: RenderWorkerOptions, urlPath: string, body: object): Promise<T> {
  const answer = await callPlatform(
    opts.target,
    {
      method: 'POST',
      url: urlPath,
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        'x-internal-key': opts.internalKey,
      },
      body: JSON.stringify(body),
    },
    AbortSignal.timeout(CALL_TIMEOUT_MS),
  );
  let env: ApiEnvelope<T> | null = null;
  try {
    env = JSON.parse(answer.body) as ApiEnvelope<T>;
  } catch {
    // not an envelope: refused below
  }
  if (answer.status !== 200 || Number(env?.code) !== 200) {
    throw new CallFailed(`${urlPath} answered ${answer.status} ${env?.code ?? ''} ${env?.msg ?? ''}`);
  }
  return env!.data;
}

/**
 * Why a render failed, for the operators' jobs page (Chinese; the error's class in brackets for support), at most
 * 500 characters (contract/renders.ts FailRenderBody).
 */
export function renderFailure(err: unknown): string {
  const name = err instanceof Error ? err.name : 'Error';
  const words: Record<string, string> = {
    RenderTimeoutError: '证书渲染超时',
    PoolBusyError: '渲染队列已满',
    PoolClosedError: '浏览器已关闭',
    PrintViewError: '证书打印页面无法打开',
    UpstreamError: '无法读取证据信息（平台连接失败）',
    SigningUnavailableError: '平台签名服务不可用',
  };
  return `${words[name] ?? '证书渲染失败'}（${name}）`.slice(0, 500);
}

/** Starts the loop; it runs until {@link RenderWorker.stop}. */
export function startRenderWorker(opts: RenderWorkerOptions): RenderWorker {
  let stopped = false;
  let rendered = 0;
  let failed = 0;
  let wake: (() => void) | null = null;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => done(), ms);
      const done = () => {
        clearTimeout(timer);
        wake = null;
        resolve();
      };
      wake = done;
    });

  /** Renders one claimed job and reports its end. */
  async function work(job: ClaimedRender): Promise<void> {
    const finish = { id: job.id, worker: opts.worker };
    try {
      await opts.renderer.getPdf(job.baoquan, job.lang);
    } catch (err) {
      if (!(err instanceof EvidenceNotFoundError)) {
        failed++;
        opts.log.warn({ err, baoquan: job.baoquan, attempt: job.attempt }, 'render job failed');
        const error = renderFailure(err);
        await post(opts, RenderPaths.fail, { ...finish, error });
        return;
      }
    }
    rendered++;
    await post(opts, RenderPaths.complete, finish);
  }

  const stopping = new AbortController();
  const loop = (async () => {
    let backoff = 0;
    while (!stopped) {
      try {
        // people first: a render asks the gateway for its print view and the platform for a signature
        await opts.serverLoad?.untilQuiet(undefined, stopping.signal);
        if (stopped) break;
        const job = await post<ClaimedRender | null>(opts, RenderPaths.claim, {
          worker: opts.worker,
          leaseSeconds: opts.leaseSeconds,
        });
        backoff = 0;
        if (job) await work(job);
        else await sleep(opts.pollMs ?? RENDER_POLL_MS);
      } catch (err) {
        backoff = Math.min(MAX_BACKOFF_MS, backoff ? backoff * 2 : FIRST_BACKOFF_MS);
        opts.log.debug({ err, retryMs: backoff }, 'render claim failed');
        await sleep(backoff);
      }
    }
  })();

  return {
    async stop() {
      stopped = true;
      stopping.abort();
      wake?.();
      await loop;
    },
    wake() {
      wake?.();
    },
    get rendered() {
      return rendered;
    },
    get failed() {
      return failed;
    },
  };
}
