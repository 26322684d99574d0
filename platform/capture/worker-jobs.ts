/**
 * The gateways' side of capture jobs (decision 037; contract/capture.ts; migration 0019): a worker claims the oldest
 * job with a lease (a queued one, or a running one whose lease passed: its worker died), then completes it with the
 * capture's WACZ — saved as the owner's evidence in the same transaction as the job's change — or fails it with a
 * reason. A claim is one conditional UPDATE (PostgreSQL: `FOR UPDATE SKIP LOCKED`); completing or failing needs the
 * claim's worker and status `running` (409 otherwise). Times are unix seconds.
 */
import { sql, type Kysely } from 'kysely';
import { ApiCode } from '../../contract/envelope.ts';
import {
  CaptureMsg,
  MAX_CAPTURE_ATTEMPTS,
  type CaptureJobView,
  type ClaimedCaptureJob,
  type ProcessStep,
} from '../../contract/capture.ts';
import { ApiError } from '../core/errors.ts';
import type { PlatformDb } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { saveEvidence } from '../evidence/service.ts';
import { detectFileType } from '../evidence/filetype.ts';
import type { FileBucket } from '../files/storage.ts';
import type { IntakeFile } from '../files/intake.ts';
import { captureOf } from './service.ts';

/** The answer when a worker no longer holds a job (another claimed it after the lease, or it ended). */
const notHeld = () => new ApiError(ApiCode.BAD_REQUEST, CaptureMsg.jobMissing, 409);

/**
 * Claims the oldest job that is queued or whose lease passed, for `worker` until `now + leaseSeconds`. Running jobs
 * whose lease passed after MAX_CAPTURE_ATTEMPTS claims are failed (CaptureMsg.interrupted) instead of retried.
 * @returns the job, or null when none waits
 */
export async function claimCapture(
  pdb: PlatformDb,
  worker: string,
  leaseSeconds: number,
  now: number,
): Promise<ClaimedCaptureJob | null> {
  const { db } = pdb;
  await db
    .updateTable('capture_jobs')
    .set({
      status: 'failed',
      error: CaptureMsg.interrupted,
      worker: null,
      lease_until: null,
      updated_at: now,
    })
    .where('status', '=', 'running')
    .where('lease_until', '<', now)
    .where('attempts', '>=', MAX_CAPTURE_ATTEMPTS)
    .execute();
  const lock = pdb.dialect === 'postgres' ? sql` for update skip locked` : sql``;
  const next = sql<number>`(select id from capture_jobs
    where status = 'queued' or (status = 'running' and lease_until < ${now})
    order by id limit 1${lock})`;
  const row = await db
    .updateTable('capture_jobs')
    .set((eb) => ({
      status: 'running',
      worker,
      lease_until: now + leaseSeconds,
      attempts: eb('attempts', '+', 1),
      updated_at: now,
    }))
    .where('id', '=', next)
    .returning(['id', 'kind', 'title', 'urls_json', 'steps_json', 'attempts', 'lease_until'])
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: Number(row.id),
    kind: row.kind,
    title: row.title,
    urls: JSON.parse(row.urls_json) as string[],
    steps: row.steps_json ? (JSON.parse(row.steps_json) as ProcessStep[]) : [],
    attempt: Number(row.attempts),
    leaseUntil: Number(row.lease_until),
  };
}

/** The running job `id` of `worker`. @throws ApiError 409 when the worker does not hold it */
async function heldJob(db: Kysely<Database>, id: number, worker: string) {
  const job = await db
    .selectFrom('capture_jobs')
    .select(['user_id', 'kind', 'title', 'label'])
    .where('id', '=', id)
    .where('status', '=', 'running')
    .where('worker', '=', worker)
    .executeTakeFirst();
  if (!job) throw notHeld();
  return job;
}

/**
 * Completes job `id` of `worker` with the capture `wacz` (a received temp file): saved as the owner's evidence of
 * kind `web` and the job marked done with it, in one transaction with the ledger entry.
 * @throws ApiError 409 when the worker no longer holds the job (its lease passed and another claimed it)
 */
export async function completeCapture(
  pdb: PlatformDb,
  storage: FileBucket,
  id: number,
  worker: string,
  wacz: IntakeFile,
  meta: string | null,
  now: number,
): Promise<CaptureJobView> {
  const job = await heldJob(pdb.db, id, worker);
  await saveEvidence(pdb, storage, {
    userId: Number(job.user_id),
    title: job.title,
    label: job.label,
    fileName: `${job.kind === 'process' ? '过程取证' : '网页取证'}-${id}.wacz`,
    file: wacz,
    type: await detectFileType(wacz.path, false),
    kind: job.kind,
    alsoInTransaction: async (trx, evidenceId) => {
      const done = await trx
        .updateTable('capture_jobs')
        .set({ status: 'done', evidence_id: evidenceId, meta_json: meta, lease_until: null, updated_at: now })
        .where('id', '=', id)
        .where('status', '=', 'running')
        .where('worker', '=', worker)
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) !== 1) throw notHeld();
    },
  });
  return captureOf(pdb.db, Number(job.user_id), id);
}

/** Fails job `id` of `worker` with `error` (Chinese, shown to the owner). @throws ApiError 409 as completeCapture */
export async function failCapture(
  db: Kysely<Database>,
  id: number,
  worker: string,
  error: string,
  now: number,
): Promise<CaptureJobView> {
  const job = await heldJob(db, id, worker);
  const done = await db
    .updateTable('capture_jobs')
    .set({ status: 'failed', error, lease_until: null, updated_at: now })
    .where('id', '=', id)
    .where('worker', '=', worker)
    .where('status', '=', 'running')
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) throw notHeld();
  return captureOf(db, Number(job.user_id), id);
}
