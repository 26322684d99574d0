/**
 * Capture jobs as the operators see them (decision 037; docs/decisions/064-background-worker.md): counts by status
 * for the console's jobs page and the metrics (contract/jobs.ts `WorkerJobView`). Times are unix seconds.
 */
import type { Kysely } from 'kysely';
import type { WorkerJobView } from '../../contract/jobs.ts';
import type { Database } from '../db/schema.ts';

/** The capture jobs' name on the jobs page and in the metrics. */
export const CAPTURE_JOB_NAME = 'capture';
/** Failed captures counted on the jobs page: those of the last week (seconds). */
export const FAILED_CAPTURE_WINDOW_SECONDS = 7 * 24 * 3600;

/**
 * The capture jobs now: `queued`, `active` (status `running`, a lease that ran out included until the next claim),
 * `failed` within the last week (the rows stay: they are their owners' records), the newest failure reason of the
 * week, and how long the oldest queued job has waited since it was created (null when none waits). Done jobs are
 * not counted.
 * @param now unix seconds
 * @returns the view named `capture`
 */
export async function captureStats(db: Kysely<Database>, now: number): Promise<WorkerJobView> {
  const since = now - FAILED_CAPTURE_WINDOW_SECONDS;
  const [counts, waiting, newest] = await Promise.all([
    db
      .selectFrom('capture_jobs')
      .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
      .where((eb) =>
        eb.or([
          eb('status', 'in', ['queued', 'running']),
          eb.and([eb('status', '=', 'failed'), eb('updated_at', '>=', since)]),
        ]),
      )
      .groupBy('status')
      .execute(),
    db
      .selectFrom('capture_jobs')
      .select((eb) => eb.fn.min<number>('created_at').as('oldest'))
      .where('status', '=', 'queued')
      .executeTakeFirst(),
    db
      .selectFrom('capture_jobs')
      .select('error')
      .where('status', '=', 'failed')
      .where('updated_at', '>=', since)
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst(),
  ]);
  const count = (status: string) => Number(counts.find((c) => c.status === status)?.n ?? 0);
  const oldest = waiting?.oldest;
  return {
    name: CAPTURE_JOB_NAME,
    queued: count('queued'),
    active: count('running'),
    failed: count('failed'),
    lastError: newest?.error ?? null,
    oldestWaitSeconds: oldest === null || oldest === undefined ? null : Math.max(0, now - Number(oldest)),
  };
}
