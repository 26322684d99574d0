/**
 * Background work yields to people (decision 064): the supervising gateway tells its worker child when its own event
 * loop is busy serving requests, and the worker claims no new render job until the gateway is quiet again. Chromium
 * at a lower CPU priority is not enough on its own: every render also asks the gateway for the print view (a page
 * rendered at the servers' priority) and the platform for a signature: with a render backlog draining, the reads of
 * `npm run bench`'s burst rows (bench/support/burst.ts) ran at 0.36–0.90 of their idle rate. A job waits for a quiet moment at
 * most {@link MAX_DEFERRAL_MS}, so a gateway that is never quiet still gets its backlog rendered, slowly; a
 * certificate asked for before its job ran is rendered on demand as always.
 *
 * The gateway samples its event-loop utilisation (`performance.eventLoopUtilization`, the share of time the loop
 * was not idle) every {@link SAMPLE_MS}; at or above {@link BUSY_UTILISATION} it is busy. Only changes are sent, as
 * the IPC messages {@link BUSY_MESSAGE} and {@link QUIET_MESSAGE}. A worker without a supervising gateway (`npm run
 * start:worker` on its own host) hears nothing and never waits.
 */
import { performance } from 'node:perf_hooks';

/** The gateway's message: its event loop is busy. */
export const BUSY_MESSAGE = 'busy';
/** The gateway's message: its event loop is quiet again. */
export const QUIET_MESSAGE = 'quiet';
/** How often the gateway samples its event loop, milliseconds. */
export const SAMPLE_MS = 250;
/** The event-loop utilisation (0–1) at or above which the gateway counts as busy. */
export const BUSY_UTILISATION = 0.5;
/** The longest a render job waits for a quiet gateway, milliseconds. */
export const MAX_DEFERRAL_MS = 30_000;

/**
 * Samples this process's event loop every {@link SAMPLE_MS} and calls `send` with {@link BUSY_MESSAGE} or
 * {@link QUIET_MESSAGE} when the state changes (and once busy is first seen).
 * @returns `reset()` (a new child: nothing sent to it yet) and `stop()`
 */
export function watchServerLoad(send: (message: string) => void): { reset(): void; stop(): void } {
  let last = performance.eventLoopUtilization();
  let sent: boolean | null = null;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization >= BUSY_UTILISATION;
    last = now;
    if (busy === (sent ?? false)) return;
    sent = busy;
    send(busy ? BUSY_MESSAGE : QUIET_MESSAGE);
  }, SAMPLE_MS);
  timer.unref();
  return {
    reset: () => {
      sent = null;
    },
    stop: () => clearInterval(timer),
  };
}

/** The worker's view of its gateway's load, from the messages above. */
export interface ServerLoad {
  /** Takes a message from the gateway (others are ignored). */
  hear(message: unknown): void;
  /** Whether the gateway said it is busy (and has not said quiet since). */
  readonly busy: boolean;
  /**
   * Resolves once the gateway is quiet, at once when it is; after `maxMs` at most ({@link MAX_DEFERRAL_MS}), or when
   * `signal` aborts. @returns whether it waited for quiet (false: quiet already, or the wait timed out or aborted)
   */
  untilQuiet(maxMs?: number, signal?: AbortSignal): Promise<boolean>;
}

/** A {@link ServerLoad}, quiet until told otherwise. */
export function serverLoad(): ServerLoad {
  let busy = false;
  let waiters: (() => void)[] = [];
  return {
    hear(message) {
      if (message === BUSY_MESSAGE) busy = true;
      if (message === QUIET_MESSAGE) {
        busy = false;
        const woken = waiters;
        waiters = [];
        for (const w of woken) w();
      }
    },
    get busy() {
      return busy;
    },
    untilQuiet(maxMs = MAX_DEFERRAL_MS, signal) {
      if (!busy) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => {
        const end = (quiet: boolean) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', aborted);
          waiters = waiters.filter((w) => w !== onQuiet);
          resolve(quiet);
        };
        const onQuiet = () => end(true);
        const aborted = () => end(false);
        const timer = setTimeout(() => end(false), maxMs);
        waiters.push(onQuiet);
        signal?.addEventListener('abort', aborted, { once: true });
      });
    },
  };
}
