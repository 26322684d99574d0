/**
 * The embedded platform in a worker thread of the gateway's process (the default of `npm start`; ARCHITECTURE
 * "Three parts", docs/decisions/033-platform-thread.md). The gateway and the platform then have an event loop and
 * a V8 heap each, so on a machine with two or more cores the platform's multipart parsing, SHA-256 hashing, scrypt
 * and database work run beside the gateway's rendering and proxying instead of taking turns with it.
 *
 * Protocol with `server/embedded-platform.ts` over the worker's message port:
 * - workerData: {@link PlatformWorkerData} (the configuration the gateway parsed, the access-log mode and log format);
 * - the worker posts `{type: 'ready', url, internalKey}` once listening on 127.0.0.1 (a free port), or
 *   `{type: 'failed', name, message}` when the configuration is refused or the platform cannot start (then it ends);
 * - the gateway posts `{type: 'call', id, request}` for a page's envelope call without HTTP
 *   (contract/platform-call.ts); the worker answers `{type: 'answer', id, answer}`, or `{type: 'answer', id, error}`
 *   when the platform could not take it;
 * - the worker posts `{type: 'events'}` after a transaction that wrote evidence events committed (at most one per
 *   turn of its event loop), so the gateway's event consumers take them at once (platform/events/signal.ts;
 *   docs/decisions/059-evidence-events.md); the gateway re-signals it in its own thread;
 * - the gateway posts `{type: 'close'}` to stop it: the worker closes Fastify (in-flight requests finish, the
 *   database closes) and its event loop ends (the gateway waits for the worker's exit).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { AccessLogMode } from '../lib/access-log.ts';
import type { PlatformCallAnswer, PlatformCallRequest } from '../contract/platform-call.ts';
import { deepFreeze } from '../lib/config-schema.ts';
import type { LogFormat } from '../lib/config-shared.ts';
import type { PlatformConfig } from './config.ts';
import { createLogger } from '../lib/logger.ts';
import { installProxy } from '../lib/outbound-proxy.ts';
import { startTracing } from '../lib/tracing.ts';
import { answerInProcess } from './in-process-call.ts';
import { onEventsCommitted } from './events/signal.ts';
import { startLoopbackPlatform } from './loopback.ts';

/** What the gateway hands the worker at start. */
export interface PlatformWorkerData {
  /**
   * The platform's configuration as the gateway parsed it (server/config/server.ts, PUBLIC_URL's default filled in): a
   * structured clone, frozen again here.
   */
  config: PlatformConfig;
  /** Which answers get an access line (the embedded platform: failures only; the gateway logs every request). */
  accessLog: AccessLogMode;
  /** The pino level of the platform's lines. */
  logLevel: string;
  /** Their format, resolved by the gateway (a worker's standard output is no terminal). */
  logFormat: LogFormat;
}

/** Messages from the worker to the gateway. */
export type PlatformWorkerMessage =
  | { type: 'ready'; url: string; internalKey: string }
  | { type: 'failed'; name: string; message: string }
  | { type: 'answer'; id: number; answer: PlatformCallAnswer }
  | { type: 'answer'; id: number; error: string }
  | { type: 'events' };

/** Messages from the gateway to the worker. */
export type PlatformWorkerRequest =
  { type: 'call'; id: number; request: PlatformCallRequest } | { type: 'close' };

const port = parentPort;
if (!port)
  throw new Error('platform/worker.ts runs as a worker thread (server/embedded-platform.ts starts it)');
const data = workerData as PlatformWorkerData;
const post = (message: PlatformWorkerMessage) => port.postMessage(message);

try {
  const config = deepFreeze(data.config);
  installProxy(config.outboundProxy);
  const stopTracing = await startTracing(config.tracing, 'cunzheng-platform');
  const { app, url } = await startLoopbackPlatform(config, {
    loggerInstance: createLogger({ level: data.logLevel, format: data.logFormat }).child({
      part: 'platform',
    }),
    accessLog: data.accessLog,
  });
  const host = new URL(url).host;
  // Committed evidence events wake the gateway's consumers: one message for a burst of commits.
  let wakePosted = false;
  const stopWaking = onEventsCommitted(() => {
    if (wakePosted) return;
    wakePosted = true;
    setImmediate(() => {
      wakePosted = false;
      post({ type: 'events' });
    });
  });
  port.on('message', (message: PlatformWorkerRequest) => {
    if (message?.type === 'call') {
      const { id } = message;
      answerInProcess(app, message.request, host).then(
        (answer) => post({ type: 'answer', id, answer }),
        (err: unknown) =>
          post({ type: 'answer', id, error: err instanceof Error ? err.message : String(err) }),
      );
      return;
    }
    if (message?.type !== 'close') return;
    stopWaking();
    app
      .close()
      .catch((err: unknown) => app.log.error({ err }, 'error while closing the platform'))
      .then(() => stopTracing?.())
      .finally(() => port.close());
  });
  post({ type: 'ready', url, internalKey: app.internalKey });
} catch (err) {
  const e = err instanceof Error ? err : new Error(String(err));
  post({ type: 'failed', name: e.name, message: e.message });
  port.close();
}
