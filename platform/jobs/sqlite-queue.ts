/**
 * The job queue on SQLite (queue.ts; decision 045): the `platform_jobs` table (migration 0023) worked by a poll loop
 * in each process that opens the database. A run is claimed by one UPDATE (SQLite serialises writers, and the
 * partial unique index allows one active run per task), so two processes on one file never run a task twice at
 * once; a run whose process died stays `active` until `expire_at`, then the next poll by any process turns it back
 * into a queued retry (or a failure once `retryLimit` is spent).
 */
import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/schema.ts';
import type { PlatformJobRow as JobRow, SqliteJobsDatabase } from './schema.ts';
import {
  backoffSeconds,
  ENSURE_EVERY_SECONDS,
  failureText,
  logFailure,
  type JobQueue,
  type RecurringTask,
  type TaskStats,
} from './queue.ts';

/** Milliseconds between polls for due runs. */
const POLL_MS = 250;
/** How long a run that failed for good stays visible, milliseconds (a week). */
const FAILED_KEPT_MS = 7 * 24 * 3600 * 1000;

// The table is SQLite-only (migration 0023), so it is not part of the shared Database interface (jobs/schema.ts).
type Db = Kysely<SqliteJobsDatabase>;

/** {@link JobQueue} over `platform_jobs`. */
export class SqliteJobQueue implements JobQueue {
  readonly kind = 'sqlite' as const;
  private readonly db: Db;
  private tasks = new Map<string, RecurringTask>();
  private timer: NodeJS.Timeout | null = null;
  private ensureTimer: NodeJS.Timeout | null = null;
  private running = new Set<Promise<void>>();
  private stopped = false;
  private readonly log: FastifyBaseLogger;
  private readonly clock: () => number;

  constructor(db: Kysely<Database>, log: FastifyBaseLogger, clock: () => number = Date.now) {
    this.log = log;
    this.clock = clock;
    this.db = db as unknown as Db;
  }

  async start(tasks: readonly RecurringTask[]): Promise<void> {
    for (const t of tasks) this.tasks.set(t.name, t);
    await this.ensureQueued(0);
    this.timer = setInterval(() => void this.poll(), POLL_MS);
    this.timer.unref();
    this.ensureTimer = setInterval(
      () => void this.ensureQueued(0).catch(() => undefined),
      ENSURE_EVERY_SECONDS * 1000,
    );
    this.ensureTimer.unref();
  }

  async stop(timeoutMs = 10_000): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.ensureTimer) clearInterval(this.ensureTimer);
    const all = Promise.all(this.running);
    await Promise.race([all, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
  }

  /** Queues a run of each task in `delaySeconds` unless one is queued (the unique index makes it a no-op). */
  private async ensureQueued(delaySeconds: number, only?: string): Promise<void> {
    const now = this.clock();
    // runs that failed for good are shown a week, then forgotten
    if (!only)
      await this.db
        .deleteFrom('platform_jobs')
        .where('state', '=', 'failed')
        .where('updated_at', '<', now - FAILED_KEPT_MS)
        .execute();
    for (const name of only ? [only] : this.tasks.keys()) {
      await this.db
        .insertInto('platform_jobs')
        .values({
          name,
          state: 'queued',
          run_at: now + delaySeconds * 1000,
          attempts: 0,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }

  /** Expired runs back to the queue (or failed), then claims and starts each due run this process can work. */
  private async poll(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.expire();
      for (const name of this.tasks.keys()) {
        const claimed = await this.claim(name);
        if (claimed) this.track(this.execute(claimed));
      }
    } catch (err) {
      this.log.warn({ err }, 'job queue poll failed');
    }
  }

  /** Active runs past `expire_at`: their process is taken for dead. */
  private async expire(): Promise<void> {
    const now = this.clock();
    const dead = await this.db
      .selectFrom('platform_jobs')
      .selectAll()
      .where('state', '=', 'active')
      .where('expire_at', '<', now)
      .execute();
    for (const row of dead) await this.settle(row, new Error('the run expired (its process stopped)'));
  }

  /** Takes the due queued run of `name` when none of it is active. @returns the run, or undefined */
  private async claim(name: string): Promise<JobRow | undefined> {
    const task = this.tasks.get(name)!;
    const now = this.clock();
    try {
      return await this.db
        .updateTable('platform_jobs')
        .set({
          state: 'active',
          attempts: sql`attempts + 1`,
          expire_at: now + task.expireSeconds * 1000,
          updated_at: now,
        })
        .where('name', '=', name)
        .where('state', '=', 'queued')
        .where('run_at', '<=', now)
        .returningAll()
        .executeTakeFirst();
    } catch (err) {
      // another process's run of this task is active: the one-active index refused the claim
      if (/UNIQUE constraint failed/.test(String(err))) return undefined;
      throw err;
    }
  }

  private track(p: Promise<void>): void {
    this.running.add(p);
    void p.finally(() => this.running.delete(p));
  }

  /** Runs a claimed run and settles it. */
  private async execute(row: JobRow): Promise<void> {
    const task = this.tasks.get(row.name)!;
    try {
      await task.run();
      await this.db
        .deleteFrom('platform_jobs')
        .where('id', '=', row.id)
        .where('state', '=', 'active')
        .execute();
      await this.ensureQueued(task.everySeconds, task.name);
    } catch (err) {
      logFailure(this.log, task.name, err);
      await this.settle(row, err).catch((e: unknown) => this.log.warn({ err: e }, 'job settle failed'));
    }
  }

  /**
   * A failed (or expired) active run: queued again after its backoff while retries remain — unless a queued run
   * exists already, which then stands for it — else kept as failed.
   */
  private async settle(row: JobRow, err: unknown): Promise<void> {
    const task = this.tasks.get(row.name);
    const now = this.clock();
    const retries = task?.retryLimit ?? 0;
    const text = failureText(err);
    await this.db.transaction().execute(async (trx) => {
      const queued = await trx
        .selectFrom('platform_jobs')
        .select('id')
        .where('name', '=', row.name)
        .where('state', '=', 'queued')
        .executeTakeFirst();
      if (row.attempts <= retries && !queued) {
        const wait = backoffSeconds(task ?? { retryDelaySeconds: 1 }, row.attempts);
        await trx
          .updateTable('platform_jobs')
          .set({
            state: 'queued',
            run_at: now + wait * 1000,
            expire_at: null,
            last_error: text,
            updated_at: now,
          })
          .where('id', '=', row.id)
          .execute();
      } else {
        await trx
          .updateTable('platform_jobs')
          .set({ state: 'failed', expire_at: null, last_error: text, updated_at: now })
          .where('id', '=', row.id)
          .execute();
      }
    });
  }

  async stats(): Promise<TaskStats[]> {
    const rows = await this.db
      .selectFrom('platform_jobs')
      .selectAll()
      .orderBy('updated_at', 'desc')
      .execute();
    return [...this.tasks.keys()].map((name) => {
      const mine = rows.filter((r) => r.name === name);
      return {
        name,
        queued: mine.filter((r) => r.state === 'queued').length,
        active: mine.filter((r) => r.state === 'active').length,
        failed: mine.filter((r) => r.state === 'failed').length,
        lastError: mine.find((r) => r.last_error)?.last_error ?? null,
      };
    });
  }
}
