/**
 * The render jobs as the operators see them (docs/decisions/064-background-worker.md): counts by state for the
 * console's jobs page and the metrics (contract/jobs.ts `WorkerJobView`), and the weekly end of failed jobs, run by
 * the `events.prune` task (platform/jobs/plugin.ts). Times are unix seconds.
 */
import type { Kysely } from 'kysely';
import type { WorkerJobView } from '../../contract/jobs.ts';
import { RENDER_CONSUMER } from '../../contract/renders.ts';
import type { Database } from '../db/schema.ts';
import type {} from './schema.ts';

/** The render jobs' name on the jobs page and in the metrics. */
export const RENDER_JOB_NAME = 'certificate.render';
/** Failed render jobs are kept this long for the operators (seconds: 7 days), then pruned. */
export const FAILED_RENDER_RETENTION_SECONDS = 7 * 24 * 3600;

/**
 * The render jobs now: `queued` (waiting, retries whose delay runs included), `active` (claimed; a lease that ran
 * out still counts until the next claim), `failed` (for good, within the last week), the newest failure message of
 * the week (of a job retried or failed for good), and how long the oldest due job has waited since it became due
 * (`now - run_at`, null when none is due). Events not yet turned into jobs (no worker has claimed since they were
 * saved: none runs, or all are busy) count as waiting, from their creation: the backlog shows even without a worker.
 * @param now unix seconds
 * @returns the view named `certificate.render`
 */
export async function renderStats(db: Kysely<Database>, now: number): Promise<WorkerJobView> {
  const since = now - FAILED_RENDER_RETENTION_SECONDS;
  const cursor = db.selectFrom('event_cursors').select('last_id').where('consumer', '=', RENDER_CONSUMER);
  const [counts, due, newest, untaken] = await Promise.all([
    db
      .selectFrom('render_jobs')
      .select((eb) => ['state', eb.fn.countAll<number>().as('n')])
      .where((eb) => eb.or([eb('state', '!=', 'failed'), eb('updated_at', '>=', since)]))
      .groupBy('state')
      .execute(),
    db
      .selectFrom('render_jobs')
      .select((eb) => eb.fn.min<number>('run_at').as('oldest'))
      .where('state', '=', 'queued')
      .where('run_at', '<=', now)
      .executeTakeFirst(),
    db
      .selectFrom('render_jobs')
      .select('last_error')
      .where('last_error', 'is not', null)
      .where('updated_at', '>=', since)
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst(),
    db
      .selectFrom('evidence_events')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min<number>('created_at').as('oldest')])
      .where((eb) => eb('id', '>', eb.fn.coalesce(cursor, eb.lit(0))))
      .executeTakeFirst(),
  ]);
  const count = (state: string) => Number(counts.find((c) => c.state === state)?.n ?? 0);
  const starts = [due?.oldest, untaken?.oldest].filter((t) => t !== null && t !== undefined).map(Number);
  const oldest = starts.length ? Math.min(...starts) : null;
  return {
    name: RENDER_JOB_NAME,
    queued: count('queued') + Number(untaken?.n ?? 0),
    active: count('active'),
    failed: count('failed'),
    lastError: newest?.last_error ?? null,
    oldestWaitSeconds: oldest === null ? null : Math.max(0, now - oldest),
  };
}

/**
 * Deletes failed render jobs whose last change is more than {@link FAILED_RENDER_RETENTION_SECONDS} before `now`
 * (waiting and active jobs are never pruned).
 * @param now unix seconds
 * @returns how many were deleted
 */
export async function pruneRenders(
  db: Kysely<Database>,
  now: number = Math.floor(Date.now() / 1000),
): Promise<number> {
  const r = await db
    .deleteFrom('render_jobs')
    .where('state', '=', 'failed')
    .where('updated_at', '<', now - FAILED_RENDER_RETENTION_SECONDS)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}
