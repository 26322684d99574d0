/**
 * A job that runs in rounds on a timer (the ledger's witness and time-stamp rounds; decision 035): at most one round
 * at a time (a round asked for while one runs joins it), none after {@link Rounds.stop}, and a round's failure is
 * logged, never thrown.
 */
import type { FastifyBaseLogger } from 'fastify';

export class Rounds {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private readonly work: () => Promise<void>;
  protected readonly log: FastifyBaseLogger;
  private readonly what: string;

  /**
   * @param work one round
   * @param what what a failed round is logged as (warn)
   */
  constructor(work: () => Promise<void>, log: FastifyBaseLogger, what: string) {
    this.work = work;
    this.log = log;
    this.what = what;
  }

  /** A round every `intervalSeconds` until {@link stop} (the timer does not keep the process alive). */
  start(intervalSeconds: number): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.round(), intervalSeconds * 1000);
    this.timer.unref();
  }

  /** Stops the rounds; waits for one in flight. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One round now (joined when one runs). Never rejects. */
  round(): Promise<void> {
    this.running ??= this.work()
      .catch((err: unknown) => this.log.warn({ err }, this.what))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }
}
