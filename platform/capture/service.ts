/**
 * Capture jobs, the owner's side (decision 037; contract/capture.ts; migration 0019): a web or process capture
 * created by its owner (within the per-user limit of open jobs), the owner's list and one job with the baoquan of its
 * evidence and, for a process capture, its step log. The gateways' side (claim, complete, fail) is in
 * `platform/capture/worker-jobs.ts`. Times are unix seconds.
 */
import type { Kysely } from 'kysely';
import { ApiCode } from '../../contract/envelope.ts';
import {
  CaptureMsg,
  MAX_OPEN_CAPTURES_PER_USER,
  type CaptureJobView,
  type CaptureKind,
  type CreateProcessCaptureBody,
  type CreateWebCaptureBody,
  type ProcessStep,
} from '../../contract/capture.ts';
import { ApiError } from '../core/errors.ts';
import type { Database } from '../db/schema.ts';

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
