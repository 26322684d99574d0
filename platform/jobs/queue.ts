/**
 * The platform's job queue (docs/decisions/045-job-queue.md): recurring tasks — face-verification
 * polling (spec 02 §4: every 3 s), payment reconciliation — run by whichever platform process takes them, with
 * retries and exponential backoff, never twice at once, and resumed by another process when the one that took a
 * run dies (its run expires). Two implementations of one interface: pg-boss on PostgreSQL (pg-queue.ts), a table
 * worked in-process on SQLite (sqlite-queue.ts).
 *
 * A task is a chain of runs: at most one queued and one running per task across every process sharing the
 * database. A finished run queues the next `everySeconds` later; a failed one is retried (`retryLimit` times, the
 * delay doubling from `retryDelaySeconds`) and, when it keeps failing, the chain is queued again by the next
 * process's periodic check (`ensureEverySeconds`), so a task never stops for good.
 */
import type { FastifyBaseLogger } from 'fastify';

/** One recurring task. Times in seconds. */
export interface RecurringTask {
  /** Queue name, e.g. `face.poll`. */
  name: string;
  /** Pause between the end of one run and the start of the next. */
  everySeconds: number;
  /** A run still going after this long is taken for dead (its process gone) and retried elsewhere. */
  expireSeconds: number;
  /** Retries of a failing run before it is marked failed; delays double from `retryDelaySeconds`. */
  retryLimit: number;
  retryDelaySeconds: number;
  /** One run. Throwing fails it (retried as above). */
  run: () => Promise<void>;
}

/** What the operator console and the metrics show of a task. */
export interface TaskStats {
  name: string;
  /** Runs waiting (due or later, including retries). */
  queued: number;
  /** Runs going now (0 or 1). */
  active: number;
  /** Runs that failed for good and are still kept. */
  failed: number;
  /** The newest failure's message, if any is kept. */
  lastError: string | null;
}

/** A queue of recurring tasks shared by every process on one database. */
export interface JobQueue {
  /** Which implementation: `pg-boss` or `sqlite`. */
  readonly kind: 'pg-boss' | 'sqlite';
  /** Starts working `tasks` in this process and makes sure each has a run queued. */
  start(tasks: readonly RecurringTask[]): Promise<void>;
  /** Stops taking runs and waits for those going in this process (bounded by `timeoutMs`). */
  stop(timeoutMs?: number): Promise<void>;
  /** Per task, as stored now. */
  stats(): Promise<TaskStats[]>;
}

/** How often each process re-queues a task whose chain broke (runs that failed for good), seconds. */
export const ENSURE_EVERY_SECONDS = 60;

/** `retryDelaySeconds · 2^(attempt−1)`, capped at one hour: the wait before retry `attempt` (1-based), seconds. */
export function backoffSeconds(task: Pick<RecurringTask, 'retryDelaySeconds'>, attempt: number): number {
  return Math.min(3600, task.retryDelaySeconds * 2 ** Math.max(0, attempt - 1));
}

/** The message of a failure, short and without a stack (it is stored and shown to operators). */
export function failureText(err: unknown): string {
  return (err instanceof Error ? `${err.name}: ${err.message}` : String(err)).slice(0, 500);
}

/** Logs a failed run at warn (the queue retries it). */
export function logFailure(log: FastifyBaseLogger, task: string, err: unknown): void {
  log.warn({ err, task }, 'job run failed; it will be retried');
}
