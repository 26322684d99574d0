/**
 * Capture jobs (decision 037; contract/capture.ts; migration 0019): created by their owner, claimed by a gateway's
 * worker with a lease (the oldest queued job, or a running one whose lease passed: its worker died), completed with
 * the capture's WACZ — saved as the owner's evidence of kind `web` in the same way as an upload, ledger entry
 * included, in the same transaction as the job's change — or failed with a reason. A job is held by one worker at a
 * time: a claim is one conditional UPDATE (PostgreSQL: `FOR UPDATE SKIP LOCKED`), and completing or failing needs the
 * claim's worker and status `running` (409 otherwise). Times are unix seconds.
 */
import { sql, type Kysely } from 'kysely';
import { ApiCode } from '../../contract/envelope.ts';
import {
  CaptureMsg,
  MAX_CAPTURE_ATTEMPTS,
  MAX_OPEN_CAPTURES_PER_USER,
  type CaptureJobView,
  type CaptureKind,
  type ClaimedCaptureJob,
  type CreateProcessCaptureBody,
  type CreateWebCaptureBody,
  type ProcessStep,
} from '../../contract/capture.ts';
import { ApiError } from '../core/errors.ts';
import type { PlatformDb } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { saveEvidence } from '../evidence/service.ts';
import { detectFileType } from '../evidence/filetype.ts';
import type { FileBucket } from '../files/storage.ts';
import type { IntakeFile } from '../files/intake.ts';

/** The answer when a worker no longer holds a job (another claimed it after the lease, or it ended). */
const notHeld = () => new ApiError(ApiCode.BAD_REQUEST, CaptureMsg.jobMissing, 409);

/** The step log of a process capture's record (`{steps: StepLog[]}`), or null when it has none. */
function stepLogOf(meta: string | null): CaptureJobView['log'] {
  if (!meta) return null;
  try {
    const steps = (JSON.parse(meta) as { steps?: unknown }).steps;
    if (!Array.isArray(steps)) return null;
    return steps.map((s: Record<string, unknown>) => ({
      n: Number(s.n),
      action: s.action as ProcessStep['action'],
      detail: String(s.detail ?? ''),
      ok: s.ok === true,
      error: typeof s.error === 'string' ? s.error : null,
    }));
  } catch {
    return null;
  }
}

/** The owner's view of a job row (and the baoquan of its evidence). */
function viewOf(r: {
  id: number;
  kind: CaptureKind;
  title: string;
  label: string;
  urls_json: string;
  status: CaptureJobView['status'];
  error: string | null;
  baoquan: string | null;
  meta_json: string | null;
  created_at: number;
  updated_at: number;
}): CaptureJobView {
  return {
    id: Number(r.id),
    kind: r.kind,
    title: r.title,
    label: r.label,
    urls: JSON.parse(r.urls_json) as string[],
    status: r.status,
    error: r.error,
    baoquan: r.baoquan,
    log: r.kind === 'process' ? stepLogOf(r.meta_json) : null,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

function jobsWithEvidence(db: Kysely<Database>) {
  return db
    .selectFrom('capture_jobs as j')
    .leftJoin('evidences as e', 'e.id', 'j.evidence_id')
    .select([
      'j.id',
      'j.kind',
      'j.title',
      'j.label',
      'j.urls_json',
      'j.status',
      'j.error',
      'e.baoquan',
      'j.meta_json',
      'j.created_at',
      'j.updated_at',
    ]);
}

/**
 * Queues a web capture for `userId`; the title defaults to the first URL's host.
 * @throws ApiError 400 CaptureMsg.tooManyOpen when the user already has MAX_OPEN_CAPTURES_PER_USER jobs open
 */
export function createWebCapture(
  db: Kysely<Database>,
  userId: number,
  body: CreateWebCaptureBody,
  now: number,
): Promise<CaptureJobView> {
  return createCapture(db, userId, 'web', body.urls, null, body, now);
}

/**
 * Queues a process capture of `body.steps` for `userId`; the title defaults to the host its first step opens.
 * @throws ApiError 400 CaptureMsg.tooManyOpen as createWebCapture
 */
export function createProcessCapture(
  db: Kysely<Database>,
  userId: number,
  body: CreateProcessCaptureBody,
  now: number,
): Promise<CaptureJobView> {
  const urls = body.steps.flatMap((s) => (s.action === 'visit' ? [s.url] : []));
  return createCapture(db, userId, 'process', urls, body.steps, body, now);
}

async function createCapture(
  db: Kysely<Database>,
  userId: number,
  kind: CaptureKind,
  urls: string[],
  steps: ProcessStep[] | null,
  body: { title?: string | undefined; label?: string | undefined },
  now: number,
): Promise<CaptureJobView> {
  const id = await db.transaction().execute(async (trx) => {
    const open = await trx
      .selectFrom('capture_jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('status', 'in', ['queued', 'running'])
      .executeTakeFirstOrThrow();
    if (Number(open.n) >= MAX_OPEN_CAPTURES_PER_USER)
      throw new ApiError(ApiCode.BAD_REQUEST, CaptureMsg.tooManyOpen);
    const row = await trx
      .insertInto('capture_jobs')
      .values({
        user_id: userId,
        kind,
        title: body.title ?? new URL(urls[0]!).hostname.slice(0, 100),
        label: body.label ?? '',
        urls_json: JSON.stringify(urls),
        steps_json: steps ? JSON.stringify(steps) : null,
        status: 'queued',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  });
  return captureOf(db, userId, id);
}

/** The user's jobs (of `kind`, or all), newest first (at most 50). */
export async function listCaptures(
  db: Kysely<Database>,
  userId: number,
  kind?: CaptureKind,
): Promise<CaptureJobView[]> {
  const rows = await jobsWithEvidence(db)
    .where('j.user_id', '=', userId)
    .$if(kind !== undefined, (q) => q.where('j.kind', '=', kind!))
    .orderBy('j.id', 'desc')
    .limit(50)
    .execute();
  return rows.map(viewOf);
}

/** One of the user's jobs. @throws ApiError 404 CaptureMsg.jobMissing for another's or none */
export async function captureOf(db: Kysely<Database>, userId: number, id: number): Promise<CaptureJobView> {
  const row = await jobsWithEvidence(db)
    .where('j.id', '=', id)
    .where('j.user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new ApiError(ApiCode.NOT_FOUND, CaptureMsg.jobMissing);
  return viewOf(row);
}

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
