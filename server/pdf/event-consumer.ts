/**
 * A consumer of the platform's evidence events in the gateway (docs/decisions/059-evidence-events.md): it takes the
 * events after its cursor through the internal take call (contract/events.ts) and hands them to its handler — the
 * certificate PDF renderer's `prerender` (server/pdf/plugin.ts). The call goes through the gateway's PlatformCall, so
 * it works alike for the inline platform, the worker-thread platform and a remote UPSTREAM_URL.
 *
 * When it takes:
 * - woken by the platform's in-process signal (platform/events/signal.ts) after a commit, when the platform is
 *   embedded (`wakeUps`); and every `pollMs` while idle all the same (a remote platform: about every second);
 * - at once again after a full batch (more may be waiting);
 * - only as many as the handler has room for (`room()`; none: it looks again in half a second), so events it could
 *   not act on stay in the platform rather than being taken and dropped;
 * - after a failed take (the platform unreachable, a refused key) after 1 s, doubling up to 30 s.
 * Background work never slows a person: one take at a time, at most {@link MAX_BATCH} events, and the renderer
 * renders one at a time only while no visitor waits. `stop()` ends it (an in-flight take is abandoned).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { ApiEnvelope } from '../../contract/envelope.ts';
import { EventPaths, type TakenEvent, type TakenEvents } from '../../contract/events.ts';
import { callPlatform, type PlatformTarget } from '../../app/lib/platform-call.server.ts';
import { onEventsCommitted } from '../embedded-platform.ts';

/** Most events one take asks for. */
export const MAX_BATCH = 32;
/** Idle poll of a remote platform (UPSTREAM_URL), milliseconds. */
export const REMOTE_POLL_MS = 1000;
/** Idle poll of an embedded platform, whose commits wake the consumer anyway (a safety net), milliseconds. */
export const EMBEDDED_POLL_MS = 5000;
/** Wait while the handler has no room, milliseconds. */
const ROOM_WAIT_MS = 500;
/** First wait after a failed take, doubled per failure up to {@link MAX_BACKOFF_MS}, milliseconds. */
const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 30_000;
/** One take's deadline, milliseconds. */
const TAKE_TIMEOUT_MS = 10_000;

/** Settings of an {@link EventConsumer}. */
export interface EventConsumerOptions {
  /** The consumer's name, its cursor in the platform (e.g. `certificate-pdf`). */
  consumer: string;
  /** Where the platform is (its URL, and its call without HTTP when embedded). */
  target: PlatformTarget;
  /** The platform's internal key (`x-internal-key`). */
  internalKey: string;
  /** How many events the handler can act on now; 0: take none yet. */
  room: () => number;
  /** Acts on taken events (synchronously: queue the work). An exception is logged and the events are gone. */
  handle: (events: TakenEvent[]) => void;
  /** Listen to the in-process wake-up (an embedded platform). */
  wakeUps: boolean;
  /** Idle poll interval, milliseconds ({@link REMOTE_POLL_MS}, {@link EMBEDDED_POLL_MS}). */
  pollMs: number;
  logger: FastifyBaseLogger;
}

/** Thrown by a take the platform did not answer with events. */
class TakeFailed extends Error {
  override name = 'TakeFailed';
}

/** Takes a consumer's events in the background (module comment). One per consumer and gateway. */
export class EventConsumer {
  private readonly opts: EventConsumerOptions;
  private running: Promise<void> | null = null;
  private stopped = false;
  private woken = false;
  private wakeSleeper: (() => void) | null = null;
  private unsubscribe: (() => void) | null = null;
  private readonly abort = new AbortController();
  /** Events taken and handed over since start. */
  taken = 0;
  /** Takes that failed since start. */
  failures = 0;

  constructor(opts: EventConsumerOptions) {
    this.opts = opts;
  }

  /** Starts taking (idempotent; nothing after stop). */
  start(): void {
    if (this.running || this.stopped) return;
    if (this.opts.wakeUps) this.unsubscribe = onEventsCommitted(() => this.wake());
    this.running = this.loop();
  }

  /** Stops taking: an in-flight take is abandoned, a wait cut short. Resolves when the loop has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    this.abort.abort();
    this.wakeSleeper?.();
    await this.running;
  }

  /** Takes at once (or right after the take in flight). */
  wake(): void {
    if (this.wakeSleeper) this.wakeSleeper();
    else this.woken = true;
  }

  private async loop(): Promise<void> {
    let failedInRow = 0;
    while (!this.stopped) {
      const room = Math.min(this.opts.room(), MAX_BATCH);
      if (room <= 0) {
        await this.sleep(ROOM_WAIT_MS, false);
        continue;
      }
      this.woken = false; // this take sees every commit signalled so far
      let events: TakenEvent[];
      try {
        events = await this.take(room);
      } catch (err) {
        if (this.stopped) break;
        this.failures++;
        failedInRow++;
        const delay = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (failedInRow - 1));
        const line = { err, consumer: this.opts.consumer, retryMs: delay };
        if (failedInRow === 1) this.opts.logger.warn(line, 'events: take failed');
        else this.opts.logger.debug(line, 'events: take failed again');
        await this.sleep(delay, false);
        continue;
      }
      if (failedInRow > 0) this.opts.logger.info({ consumer: this.opts.consumer }, 'events: taking again');
      failedInRow = 0;
      if (events.length > 0) {
        this.taken += events.length;
        try {
          this.opts.handle(events);
        } catch (err) {
          this.opts.logger.error({ err, consumer: this.opts.consumer }, 'events: handler failed');
        }
      }
      if (events.length < room) await this.sleep(this.opts.pollMs, true);
    }
  }

  /**
   * Waits `ms`, or less when stopped or (`wakeable`) woken; a wake-up that came while not sleeping ends the next
   * wakeable wait at once.
   */
  private sleep(ms: number, wakeable: boolean): Promise<void> {
    if (this.stopped || (wakeable && this.woken)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeSleeper = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      this.wakeSleeper = wakeable
        ? done
        : () => {
            if (this.stopped) done();
            else this.woken = true;
          };
    });
  }

  /** One take of up to `max` events. @throws when the platform cannot be reached or answers no events */
  private async take(max: number): Promise<TakenEvent[]> {
    const answer = await callPlatform(
      this.opts.target,
      {
        method: 'POST',
        url: EventPaths.take,
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          'x-internal-key': this.opts.internalKey,
        },
        body: JSON.stringify({ consumer: this.opts.consumer, max }),
      },
      AbortSignal.any([this.abort.signal, AbortSignal.timeout(TAKE_TIMEOUT_MS)]),
    );
    let env: ApiEnvelope<TakenEvents> | null = null;
    try {
      env = JSON.parse(answer.body) as ApiEnvelope<TakenEvents>;
    } catch {
      // not an envelope: refused below
    }
    const events = env?.data?.events;
    if (answer.status !== 200 || Number(env?.code) !== 200 || !Array.isArray(events)) {
      throw new TakeFailed(`the platform answered ${answer.status} ${env?.code ?? ''} to ${EventPaths.take}`);
    }
    return events;
  }
}
