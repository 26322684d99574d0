/**
 * The gateway's face-verification poller (spec 02 §4 "Face flow": poll every 3 s;
 * docs/decisions/011-kyc-review.md): while the process runs, every `intervalMs` (default 3000 ms) it asks the
 * platform to poll every open Alipay certification once (`POST /api/internal/face/poll` with header
 * `x-internal-key`). So a result is applied whether or not the user's browser stays on the face page. The
 * platform applies each result exactly once (a conditional state change), so two gateways polling, or a
 * gateway restarting mid-certification, neither lose nor double a result: the open certifications are
 * database rows. Rounds never overlap (the next one is scheduled after the previous finished).
 */
import type { FastifyBaseLogger } from 'fastify';

/** Path the poller calls (platform/kyc/routes.ts INTERNAL_FACE_POLL_PATH). */
export const FACE_POLL_PATH = '/api/internal/face/poll';
/** Spec 02 §9: face poll interval 3 seconds. */
export const FACE_POLL_INTERVAL_MS = 3000;

/** A running poller. */
export interface FacePoller {
  /** Stops scheduling and waits for a round in flight. Idempotent. */
  stop(): Promise<void>;
  /** Rounds completed so far (tests, diagnostics). */
  readonly rounds: number;
}

/**
 * Starts polling `${upstreamUrl}/api/internal/face/poll`. Failures are logged (a warning after three in a row, then
 * quiet until a round succeeds) and retried next round.
 * @param opts.internalKey the platform's internal key (INTERNAL_API_KEY, or the embedded platform's key file)
 */
export function startFacePoller(opts: {
  upstreamUrl: string;
  internalKey: string;
  log: FastifyBaseLogger;
  intervalMs?: number;
}): FacePoller {
  const interval = opts.intervalMs ?? FACE_POLL_INTERVAL_MS;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let inFlight: Promise<void> | null = null;
  let failures = 0;
  let rounds = 0;

  async function round(): Promise<void> {
    try {
      const res = await fetch(`${opts.upstreamUrl}${FACE_POLL_PATH}`, {
        method: 'POST',
        headers: { 'x-internal-key': opts.internalKey },
        signal: AbortSignal.timeout(Math.max(interval * 5, 15_000)),
      });
      const body = (await res.json()) as {
        code: number;
        data?: { polled: number; passed: number; finished: number };
      };
      if (body.code !== 200) throw new Error(`face poll answered code ${body.code}`);
      if (body.data?.finished) opts.log.info(body.data, 'face certifications finished');
      failures = 0;
    } catch (err) {
      failures++;
      if (failures === 3) opts.log.warn({ err }, 'face poll failing; retrying every round');
      else opts.log.debug({ err }, 'face poll failed');
    } finally {
      rounds++;
    }
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      inFlight = round().finally(() => {
        inFlight = null;
        schedule();
      });
    }, interval);
    timer.unref();
  }
  schedule();

  return {
    get rounds() {
      return rounds;
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await inFlight;
    },
  };
}
