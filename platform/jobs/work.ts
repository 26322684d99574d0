/**
 * The background worker's jobs (docs/decisions/064-background-worker.md), read from the database for the operators'
 * jobs page (`GET /api/ops/jobs`, contract/jobs.ts `JobsView.work`) and the metrics (core/metrics.ts), whether or
 * not this process works the job queue: certificate renders (renders/stats.ts) and captures (capture/stats.ts).
 */
import type { Kysely } from 'kysely';
import type { WorkerJobView } from '../../contract/jobs.ts';
import { captureStats } from '../capture/stats.ts';
import type { Database } from '../db/schema.ts';
import { renderStats } from '../renders/stats.ts';

/**
 * The worker's jobs now, in the page's order: `certificate.render`, then `capture`.
 * @param now unix seconds
 * @throws database errors
 */
export async function workerJobViews(db: Kysely<Database>, now: number): Promise<WorkerJobView[]> {
  return Promise.all([renderStats(db, now), captureStats(db, now)]);
}
