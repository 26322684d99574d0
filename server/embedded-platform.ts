/**
 * The embedded platform of `npm start` (UPSTREAM_URL unset), in one of two shapes (docs/decisions/033):
 * - `worker` (default): platform/worker.ts in a worker thread, listening on a loopback port of its own; the
 *   gateway's thread only renders pages and proxies, so on two or more cores uploads (multipart, SHA-256, disk
 *   writes) and platform queries run beside page rendering;
 * - `inline`: buildPlatform in the gateway's own thread (what tests use when they reach into the platform's
 *   database or services, and a choice for single-core hosts).
 * Chosen by EMBEDDED_PLATFORM (`worker` | `inline`, read in server/config/server.ts); both run the configuration the gateway
 * parsed at its start (the worker gets a structured clone). Either way a committed evidence event signals in the
 * gateway's thread (platform/events/signal.ts: inline in this thread; from the worker over its message port), which
 * wakes the background worker child (server/worker/supervisor.ts).
 */
import { Worker } from 'node:worker_threads';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AccessLogMode } from '../lib/access-log.ts';
import type { LogFormat } from '../lib/config-shared.ts';
import type { PlatformConfig } from '../platform/config.ts';
import { untilAborted, type PlatformCall, type PlatformCallAnswer } from '../contract/platform-call.ts';
import type { PlatformWorkerData, PlatformWorkerMessage, PlatformWorkerRequest } from '../platform/worker.ts';
import { ConfigError } from '../lib/config-error.ts';
import { signalEventsCommitted } from '../platform/events/signal.ts';

/*
 * What the rest of the gateway takes from the platform, all through this module (ESLint; decision 061): the
 * platform's configuration groups (parsed with the gateway's own at an embedded start, listed by the docs generator)
 * and the wake-up signal of committed evidence events.
 */
export {
  PLATFORM_GROUPS,
  PLATFORM_PROCESS_GROUPS,
  platformConfigFrom,
  type PlatformSettings,
} from '../platform/config.ts';
export { onEventsCommitted } from '../platform/events/signal.ts';

/** How the embedded platform runs: in a worker thread or in the gateway's thread. */
export type EmbeddedPlatformMode = 'worker' | 'inline';

/** A started embedded platform. */
export interface EmbeddedPlatform {
  mode: EmbeddedPlatformMode;
  /** Its base URL on the loopback interface, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Its internal API key (INTERNAL_API_KEY or the key file under DATA_DIR/keys). */
  internalKey: string;
  /** The Fastify instance in `inline` mode; null in `worker` mode (it lives in another V8 isolate). */
  app: FastifyInstance | null;
  /**
   * A page's envelope call without the loopback HTTP hop (contract/platform-call.ts): over the worker's message
   * port, or `inject` inline. Rejects with a connection error (ECONNREFUSED) once the platform has stopped or ended.
   */
  call: PlatformCall;
  /** Stops it: in-flight requests finish, the database closes. Idempotent. */
  close(): Promise<void>;
}

/** Options of {@link startEmbeddedPlatform}. */
export interface EmbeddedPlatformOptions {
  mode: EmbeddedPlatformMode;
  accessLog: AccessLogMode;
  /** The pino level of the platform's lines (worker mode; inline mode uses `logger`). */
  logLevel: string;
  /** Their format, resolved (worker mode; lib/logger.ts). */
  logFormat: LogFormat;
  /** The platform's logger in inline mode (a child of the gateway's root logger). */
  logger: Logger;
  /**
   * Called when a worker-mode platform ends without being asked to (an uncaught exception in it): the gateway then
   * answers 502 to every /api request, so `npm start` exits and lets its supervisor restart the whole process.
   */
  onCrash?: (err: Error) => void;
}

/**
 * The `--import` / `--require` options of this process for the worker (a tool started with `--import tsx` hands it
 * on; `npm start` has none: Node.js strips the types of platform/worker.ts and what it imports itself, in the worker
 * as in the main thread, and so it does under Vitest) and its `--cpu-prof` / `--heap-prof` options. V8 flags are left
 * out: workers refuse them, and V8 applies them to every isolate of the process anyway.
 */
function workerExecArgv(parent: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < parent.length; i++) {
    const arg = parent[i]!;
    if ((arg === '--import' || arg === '--require' || arg === '-r') && i + 1 < parent.length) {
      out.push(arg, parent[++i]!);
    } else if (arg === '--cpu-prof-dir' && i + 1 < parent.length) {
      out.push(arg, parent[++i]!);
    } else if (/^--(import|require|cpu-prof|heap-prof)/.test(arg)) {
      // module loading, and the profilers (each thread writes its own profile)
      out.push(arg);
    }
  }
  return out;
}

/** The error of a call to a platform that has stopped or ended: a refused connection, as over HTTP. */
function platformGone(): Error {
  return Object.assign(new Error('the embedded platform is not running'), { code: 'ECONNREFUSED' });
}

/** Error the worker reported, as the gateway's types where they matter (a refused configuration). */
function workerError(name: string, message: string): Error {
  if (name === 'ConfigError') return new ConfigError(message);
  const err = new Error(message);
  err.name = name;
  return err;
}

/**
 * Starts the embedded platform for `config` (parsed by the gateway, server/config/server.ts) and waits until it listens.
 * @throws whatever stops it from starting (the worker has ended by then)
 */
export async function startEmbeddedPlatform(
  config: PlatformConfig,
  opts: EmbeddedPlatformOptions,
): Promise<EmbeddedPlatform> {
  if (opts.mode === 'inline') return startInline(config, opts);
  const workerData: PlatformWorkerData = {
    config,
    accessLog: opts.accessLog,
    logLevel: opts.logLevel,
    logFormat: opts.logFormat,
  };
  const worker = new Worker(new URL('../platform/worker.ts', import.meta.url), {
    workerData,
    execArgv: workerExecArgv(process.execArgv),
    // Its stdout/stderr go straight to the process's (pino writes lines there).
    stdout: false,
    stderr: false,
  });
  let closing: Promise<void> | null = null;
  const ready = await new Promise<Extract<PlatformWorkerMessage, { type: 'ready' }>>((resolve, reject) => {
    const onMessage = (m: PlatformWorkerMessage) => {
      if (m.type === 'ready') {
        cleanup();
        resolve(m);
      } else if (m.type === 'failed') {
        cleanup();
        reject(workerError(m.name, m.message));
      }
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const onExit = (code: number) => {
      cleanup();
      reject(new Error(`the platform worker ended with code ${code} before it was ready`));
    };
    const cleanup = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    worker.on('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
  }).catch(async (err: unknown) => {
    await worker.terminate();
    throw err;
  });

  let exited = false;
  let crashReported = false;
  const crashed = (err: Error) => {
    if (closing || crashReported) return;
    crashReported = true;
    opts.logger.fatal({ err }, 'the embedded platform ended unexpectedly');
    opts.onCrash?.(err);
  };
  // An uncaught exception in the worker comes as 'error' and then 'exit': reported once.
  worker.on('error', crashed);
  worker.on('exit', (code) => {
    exited = true;
    crashed(new Error(`the embedded platform ended unexpectedly (code ${code})`));
  });

  // Page calls over the message port: answers matched by id; all pending ones fail when the worker ends.
  const pending = new Map<number, { resolve: (a: PlatformCallAnswer) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  worker.on('message', (m: PlatformWorkerMessage) => {
    // evidence events committed in the worker: this thread's listeners pass it on (server/worker/supervisor.ts)
    if (m.type === 'events') {
      signalEventsCommitted();
      return;
    }
    if (m.type !== 'answer') return;
    const waiting = pending.get(m.id);
    if (!waiting) return;
    pending.delete(m.id);
    if ('answer' in m) waiting.resolve(m.answer);
    else waiting.reject(new Error(m.error));
  });
  worker.on('exit', () => {
    for (const waiting of pending.values()) waiting.reject(platformGone());
    pending.clear();
  });
  const call: PlatformCall = (request, signal) => {
    if (exited || closing) return Promise.reject(platformGone());
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    const id = nextId++;
    const answer = new Promise<PlatformCallAnswer>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ type: 'call', id, request } satisfies PlatformWorkerRequest);
    });
    // an abandoned call leaves nothing behind here; the worker's late answer finds no entry and is dropped
    return untilAborted(answer, signal).catch((err: unknown) => {
      pending.delete(id);
      throw err;
    });
  };

  const close = () => {
    closing ??= exited
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          worker.once('exit', () => resolve());
          worker.postMessage({ type: 'close' } satisfies PlatformWorkerRequest);
        });
    return closing;
  };
  return { mode: 'worker', url: ready.url, internalKey: ready.internalKey, app: null, call, close };
}

/** The inline shape: the platform in this thread. */
async function startInline(config: PlatformConfig, opts: EmbeddedPlatformOptions): Promise<EmbeddedPlatform> {
  // Imported lazily: a gateway in front of another upstream (or a worker-mode one) never loads the platform here.
  const { startLoopbackPlatform } = await import('../platform/loopback.ts');
  const { answerInProcess } = await import('../platform/in-process-call.ts');
  const { app, url } = await startLoopbackPlatform(config, {
    loggerInstance: opts.logger,
    accessLog: opts.accessLog,
  });
  let closing: Promise<void> | null = null;
  const host = new URL(url).host;
  return {
    mode: 'inline',
    url,
    internalKey: app.internalKey,
    app,
    call: (request, signal) =>
      closing ? Promise.reject(platformGone()) : untilAborted(answerInProcess(app, request, host), signal),
    close: () => (closing ??= app.close().then(() => undefined)),
  };
}
