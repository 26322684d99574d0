/**
 * The job queue on PostgreSQL (queue.ts; decision 045) with pg-boss: one pg-boss queue per task with the `stately`
 * policy (at most one job created, one in retry and one active per queue, enforced by a unique index, so a task
 * never runs twice at once across processes), the task's `expireSeconds` (pg-boss's supervisor fails or retries an
 * active job its process abandoned), `retryLimit` and `retryDelaySeconds` with exponential backoff. pg-boss keeps
 * its own schema (`pgboss`) and its own small pool.
 */
import type { FastifyBaseLogger } from 'fastify';
import { PgBoss } from 'pg-boss';
import {
  ENSURE_EVERY_SECONDS,
  failureText,
  logFailure,
  type JobQueue,
  type RecurringTask,
  type TaskStats,
} from './queue.ts';

/** pg-boss settings a test may shorten (seconds). */
export interface PgQueueOptions {
  /** How often pg-boss's supervisor looks for expired active jobs (default 30). */
  superviseIntervalSeconds?: number;
  /** How often a worker asks for a due job (default 1). */
  pollingIntervalSeconds?: number;
}

/** {@link JobQueue} over pg-boss. */
export class PgBossJobQueue implements JobQueue {
  readonly kind = 'pg-boss' as const;
  private readonly boss: PgBoss;
  private tasks: readonly RecurringTask[] = [];
  private ensureTimer: NodeJS.Timeout | null = null;
  private readonly log: FastifyBaseLogger;
  private readonly opts: PgQueueOptions;

  constructor(connectionString: string, log: FastifyBaseLogger, opts: PgQueueOptions = {}) {
    this.log = log;
    this.opts = opts;
    this.boss = new PgBoss({
      connectionString,
      max: 3,
      application_name: 'cunzheng-jobs',
      superviseIntervalSeconds: opts.superviseIntervalSeconds ?? 30,
    });
    this.boss.on('error', (err) => this.log.warn({ err }, 'job queue error'));
  }

  async start(tasks: readonly RecurringTask[]): Promise<void> {
    this.tasks = tasks;
    await this.boss.start();
    for (const t of tasks) {
      const options = {
        policy: 'stately' as const,
        expireInSeconds: t.expireSeconds,
        retryLimit: t.retryLimit,
        retryDelay: t.retryDelaySeconds,
        retryBackoff: true,
        retryDelayMax: 3600,
        // a finished run is kept an hour (face polling finishes ~1,200 an hour)
        deleteAfterSeconds: 3600,
      };
      const { policy: _policy, ...changeable } = options; // a queue's policy is fixed at creation
      if (await this.boss.getQueue(t.name)) await this.boss.updateQueue(t.name, changeable);
      else await this.boss.createQueue(t.name, options).catch(() => undefined); // a concurrent start created it
      await this.boss.work(
        t.name,
        { pollingIntervalSeconds: this.opts.pollingIntervalSeconds ?? 1, batchSize: 1 },
        async () => {
          try {
            await t.run();
          } catch (err) {
            logFailure(this.log, t.name, err);
            throw new Error(failureText(err));
          }
          await this.queue(t, t.everySeconds);
        },
      );
      await this.queue(t, 0);
    }
    this.ensureTimer = setInterval(
      () => void Promise.all(this.tasks.map((t) => this.queue(t, 0))).catch(() => undefined),
      ENSURE_EVERY_SECONDS * 1000,
    );
    this.ensureTimer.unref();
  }

  /** Queues a run of `t` in `delaySeconds`; null (nothing queued) when one is queued already (stately). */
  private async queue(t: RecurringTask, delaySeconds: number): Promise<void> {
    try {
      await this.boss.send(t.name, {}, delaySeconds > 0 ? { startAfter: delaySeconds } : {});
    } catch (err) {
      // the stately unique index refused a second queued run: the chain is intact
      if (!/could not be created|duplicate key/i.test(String(err))) throw err;
    }
  }

  async stop(timeoutMs = 10_000): Promise<void> {
    if (this.ensureTimer) clearInterval(this.ensureTimer);
    await this.boss.stop({ graceful: true, timeout: timeoutMs, close: true });
  }

  async stats(): Promise<TaskStats[]> {
    return Promise.all(
      this.tasks.map(async (t) => {
        const q = await this.boss.getQueue(t.name);
        const { rows } = await this.boss
          .getDb()
          .executeSql(
            `select output->>'message' as message from pgboss.job where name = $1 and state in ('failed', 'retry') and output ? 'message' order by coalesce(completed_on, started_on, created_on) desc limit 1`,
            [t.name],
          );
        return {
          name: t.name,
          queued: q?.queuedCount ?? 0,
          active: q?.activeCount ?? 0,
          failed: q?.failedCount ?? 0,
          lastError: (rows[0] as { message?: string } | undefined)?.message ?? null,
        };
      }),
    );
  }
}
