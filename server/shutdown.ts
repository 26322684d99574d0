/**
 * Stopping a process on SIGTERM or SIGINT (the gateway's, server/start.ts; the worker's, server/worker/main.ts): its
 * `closeAll()` within a deadline, then exit 0, or 1 when closing fails or takes too long.
 */
import type { Logger } from 'pino';

/** What {@link installShutdown} needs from `process`; a fake in tests. */
export interface ShutdownHost {
  once(signal: NodeJS.Signals, listener: () => void): unknown;
  off(signal: NodeJS.Signals, listener: () => void): unknown;
  exit(code: number): void;
}

/**
 * On SIGTERM or SIGINT: `closeAll()` (Fastify stops accepting, answers 503 to new requests, waits for in-flight
 * ones), then exit 0. Exits 1 if closing fails or takes longer than `timeoutMs` (default 10 s, the grace period
 * of `docker stop`). Returns a function that removes the handlers.
 */
export function installShutdown(
  running: { closeAll(): Promise<void>; logger: Logger },
  host: ShutdownHost = process,
  timeoutMs = 10_000,
): () => void {
  const signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];
  const handlers = signals.map((signal) => {
    const handler = () => {
      running.logger.info({ signal }, 'shutting down');
      const timer = setTimeout(() => {
        running.logger.error({ timeoutMs }, 'shutdown timed out');
        host.exit(1);
      }, timeoutMs);
      timer.unref();
      running.closeAll().then(
        () => {
          clearTimeout(timer);
          running.logger.info('stopped');
          host.exit(0);
        },
        (err: unknown) => {
          clearTimeout(timer);
          running.logger.error({ err }, 'shutdown failed');
          host.exit(1);
        },
      );
    };
    host.once(signal, handler);
    return [signal, handler] as const;
  });
  return () => {
    for (const [signal, handler] of handlers) host.off(signal, handler);
  };
}
