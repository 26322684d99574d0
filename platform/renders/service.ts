/**
 * Certificate renders as leased jobs (docs/decisions/064-background-worker.md; contract/renders.ts; migration 0029):
 * the evidence events of consumer RENDER_CONSUMER (docs/decisions/059-evidence-events.md) become rows of
 * `render_jobs` in the transaction that moves the consumer's cursor, so an event is never lost between the take and
 * the job; the background worker claims the oldest due job with a lease (a queued one, or an active one whose lease
 * passed: its worker died), then completes it (the row goes) or fails it (retried with a growing delay, failed for
 * good after RENDER_ATTEMPTS tries and kept a week for the operators' jobs page). A claim is one conditional UPDATE
 * (PostgreSQL: `FOR UPDATE SKIP LOCKED`), so two claimers never get the same job; completing or failing needs the
 * claim's worker and state `active` (409 otherwise). The mirror of the capture jobs' lease (capture/worker-jobs.ts).
 * Times are unix seconds.
 */
import { sql, type Kysely } from 'kysely';
import { ApiCode } from '../../contract/envelope.ts';
import { RENDER_ATTEMPTS, RENDER_CONSUMER, type ClaimedRender } from '../../contract/renders.ts';
import { isUniqueViolation } from '../account/users.ts';
import { ApiError } from '../core/errors.ts';
import { sqliteImmediate } from '../core/transactions.ts';
import type { PlatformDb } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { takeEvents } from '../events/events.ts';
import type {} from './schema.ts';

/** Messages of the render calls: the worker reads the first, operators the others (console, /ops/jobs). */
export const RenderMsg = {
  notHeld: '该证书任务已不属于此工作进程',
  leaseExpired: '证书渲染多次超时未完成（工作进程可能已退出）',
} as const;

/** Events one ingestion takes (contract/events.ts MAX_TAKE). */
export const INGEST_BATCH = 100;
/** Longest delay before a failed render is tried again (seconds). */
export const MAX_RETRY_DELAY_SECONDS = 600;
/** First retry delay (seconds); it doubles with each attempt, up to {@link MAX_RETRY_DELAY_SECONDS}. */
export const FIRST_RETRY_DELAY_SECONDS = 10;

/** The answer when a worker no longer holds a job (another claimed it after the lease, or it ended). */
const notHeld = () => new ApiError(ApiCode.BAD_REQUEST, RenderMsg.notHeld, 409);

/**
 * Runs `fn` in a write transaction: SQLite `BEGIN IMMEDIATE` (the write lock up front, as every writer of events
 * takes it: a deferred transaction that read first could fail to upgrade), PostgreSQL an ordinary READ COMMITTED
 * transaction, where the cursor's conditional update waits for another taker's and then finds the cursor moved.
 */
function writeTransaction<T>(pdb: PlatformDb, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return pdb.dialect === 'sqlite' ? sqliteImmediate(pdb, fn) : pdb.db.transaction().execute(fn);
}

/** Whether an event after RENDER_CONSUMER's cursor exists (one read, no lock: a claim's poll finding none). */
async function eventsWaiting(db: Kysely<Database>): Promise<boolean> {
  const row = await db
    .selectFrom('evidence_events')
    .select('id')
    .where(
      'id',
      '>',
      sql<number>`coalesce((select last_id from event_cursors where consumer = ${RENDER_CONSUMER}), 0)`,
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Turns up to {@link INGEST_BATCH} evidence events of consumer RENDER_CONSUMER into render jobs, in one transaction:
 * the events are taken (`takeEvents`, the cursor moved) and a `zh` job queued per evidence — `saved` and
 * `state-changed` both mean "render again" — or nothing when one is queued already (the partial unique index:
 * repeated events coalesce). The cursor moves only if the jobs commit, so no event is lost; two ingestions, in this
 * process or another, never take the same event (the cursor's conditional update). Without new events it reads once
 * and writes nothing.
 * @param now unix seconds: the jobs' `run_at` and `created_at`
 * @returns how many events were taken
 * @throws database errors (nothing taken then)
 */
export async function ingestEvents(pdb: PlatformDb, now: number): Promise<number> {
  if (!(await eventsWaiting(pdb.db))) return 0;
  return writeTransaction(pdb, async (trx) => {
    const events = await takeEvents(trx, RENDER_CONSUMER, INGEST_BATCH, now);
    const baoquans = [...new Set(events.map((e) => e.baoquan))];
    if (baoquans.length === 0) return 0;
    await trx
      .insertInto('render_jobs')
      .values(
        baoquans.map((baoquan) => ({
          baoquan,
          lang: 'zh' as const,
          state: 'queued' as const,
          run_at: now,
          created_at: now,
          updated_at: now,
        })),
      )
      .onConflict((oc) =>
        oc
          .columns(['baoquan', 'lang'])
          .where(sql<boolean>`state = 'queued'`)
          .doNothing(),
      )
      .execute();
    return events.length;
  });
}

/**
 * Ingests new events ({@link ingestEvents}), then claims the oldest due job for `worker` until `now +
 * leaseSeconds`: a `queued` one whose `run_at` has come, or an `active` one whose lease ended before `now` (its
 * worker died, e.g. SIGKILL mid-render). Active jobs whose lease ended after RENDER_ATTEMPTS claims become `failed`
 * (RenderMsg.leaseExpired) instead. One conditional UPDATE claims, so two claimers — two processes, two database
 * handles — never get the same job. The claim counts an attempt.
 * @param leaseSeconds how long the job is the worker's (seconds)
 * @param now unix seconds
 * @returns the job (`attempt` counts from 1, `leaseUntil` unix seconds), or null when none is due
 * @throws database errors
 */
export async function claimRender(
  pdb: PlatformDb,
  worker: string,
  leaseSeconds: number,
  now: number,
): Promise<ClaimedRender | null> {
  await ingestEvents(pdb, now);
  const { db } = pdb;
  await db
    .updateTable('render_jobs')
    .set({
      state: 'failed',
      last_error: RenderMsg.leaseExpired,
      worker: null,
      lease_until: null,
      updated_at: now,
    })
    .where('state', '=', 'active')
    .where('lease_until', '<', now)
    .where('attempts', '>=', RENDER_ATTEMPTS)
    .execute();
  const lock = pdb.dialect === 'postgres' ? sql` for update skip locked` : sql``;
  const next = sql<number>`(select id from render_jobs
    where (state = 'queued' and run_at <= ${now})
      or (state = 'active' and lease_until < ${now} and attempts < ${RENDER_ATTEMPTS})
    order by run_at, id limit 1${lock})`;
  const row = await db
    .updateTable('render_jobs')
    .set((eb) => ({
      state: 'active',
      worker,
      lease_until: now + leaseSeconds,
      attempts: eb('attempts', '+', 1),
      updated_at: now,
    }))
    .where('id', '=', next)
    .where((eb) =>
      eb.or([
        eb.and([eb('state', '=', 'queued'), eb('run_at', '<=', now)]),
        eb.and([eb('state', '=', 'active'), eb('lease_until', '<', now)]),
      ]),
    )
    .returning(['id', 'baoquan', 'lang', 'attempts', 'lease_until'])
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: Number(row.id),
    baoquan: row.baoquan,
    lang: row.lang,
    attempt: Number(row.attempts),
    leaseUntil: Number(row.lease_until),
  };
}

/**
 * Completes job `id` of `worker`: the row is deleted (the certificate is in the cache). Valid while the job is
 * `active` and `worker`'s, even after its lease ended if nobody claimed it since.
 * @throws ApiError 409 (RenderMsg.notHeld) when the worker does not hold the job (another claimed it after the
 *   lease, it failed for good, or it never existed); the job is left as it is
 */
export async function completeRender(db: Kysely<Database>, id: number, worker: string): Promise<void> {
  const done = await db
    .deleteFrom('render_jobs')
    .where('id', '=', id)
    .where('state', '=', 'active')
    .where('worker', '=', worker)
    .executeTakeFirst();
  if (Number(done.numDeletedRows) !== 1) throw notHeld();
}

/** The retry delay after the `attempts`-th try failed: 10 s doubling, at most 600 s. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(MAX_RETRY_DELAY_SECONDS, FIRST_RETRY_DELAY_SECONDS * 2 ** Math.max(0, attempts - 1));
}

/**
 * Fails job `id` of `worker` with `error` (at most 500 characters, shown to operators). A job with fewer than
 * RENDER_ATTEMPTS attempts goes back to `queued`, due at `now + min(600, 10·2^(attempts−1))` seconds ({@link
 * retryDelaySeconds}); when a newer event has queued the same certificate meanwhile, this job is deleted instead
 * (the queued one renders it). Otherwise it becomes `failed` for good, kept a week ({@link pruneRenders}).
 * @param now unix seconds
 * @throws ApiError 409 (RenderMsg.notHeld) as {@link completeRender}
 */
export async function failRender(
  db: Kysely<Database>,
  id: number,
  worker: string,
  error: string,
  now: number,
): Promise<void> {
  const held = () =>
    db
      .updateTable('render_jobs')
      .where('id', '=', id)
      .where('state', '=', 'active')
      .where('worker', '=', worker);
  const job = await db
    .selectFrom('render_jobs')
    .select('attempts')
    .where('id', '=', id)
    .where('state', '=', 'active')
    .where('worker', '=', worker)
    .executeTakeFirst();
  if (!job) throw notHeld();
  const attempts = Number(job.attempts);
  const lastError = error.slice(0, 500);
  let changed: bigint;
  if (attempts >= RENDER_ATTEMPTS) {
    changed = (
      await held()
        .set({ state: 'failed', last_error: lastError, worker: null, lease_until: null, updated_at: now })
        .executeTakeFirst()
    ).numUpdatedRows;
  } else {
    try {
      changed = (
        await held()
          .set({
            state: 'queued',
            run_at: now + retryDelaySeconds(attempts),
            last_error: lastError,
            worker: null,
            lease_until: null,
            updated_at: now,
          })
          .executeTakeFirst()
      ).numUpdatedRows;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // one queued job per certificate: the newer one renders it
      changed = (
        await db
          .deleteFrom('render_jobs')
          .where('id', '=', id)
          .where('state', '=', 'active')
          .where('worker', '=', worker)
          .executeTakeFirst()
      ).numDeletedRows;
    }
  }
  if (Number(changed) !== 1) throw notHeld();
}
