/**
 * The points API (docs/decisions/057-points-api.md; platform/points/README.md): the one place a user's points
 * change. {@link credit} and {@link debit} run inside the caller's `withUserTransaction(pdb, userId, …)`
 * (platform/core/transactions.ts), which serializes every change of one user's points in every process; each moves
 * `users.points` and appends one entry to the append-only `points_journal` in that transaction, so the balance
 * always equals the journal's sum and never goes below 0. Every entry names its source (a registered kind and a
 * reference, platform/points/sources.ts); the unique index on (source_kind, source_ref) (migration 0026) makes a
 * second entry of one source impossible, and {@link DuplicatePointsSource} tells the caller so.
 */
import type { Kysely } from 'kysely';
import { ApiCode } from '../../contract/envelope.ts';
import { PointsMsg, type PointsEntry, type PointsHistoryData } from '../../contract/points.ts';
import { isUniqueViolation } from '../account/users.ts';
import { ApiError } from '../core/errors.ts';
import { formatBeijing } from '../core/time.ts';
import type { Database } from '../db/schema.ts';
// The journal's table joins `Database` from there (type-only: nothing is loaded at run time).
import type {} from './schema.ts';
import { pointsSourceKind, requireSource, type PointsDirection, type PointsSource } from './sources.ts';

export {
  registerPointsSource,
  UnknownPointsSource,
  type PointsSource,
  type PointsSourceKind,
} from './sources.ts';

/**
 * The source already has its entry (committed before, or by a concurrent transaction): nothing of this call was
 * written, and the caller's transaction must not commit as if it had been (let it propagate, or use
 * {@link creditOnce} where a repeat is normal).
 */
export class DuplicatePointsSource extends Error {
  override readonly name = 'DuplicatePointsSource';
  readonly source: PointsSource;
  constructor(source: PointsSource, options?: ErrorOptions) {
    super(`points source ${source.kind}:${source.ref} already has its entry`, options);
    this.source = { kind: source.kind, ref: source.ref };
  }
}

/** Billing's link of its own entries to their order (`points_journal.order_id`); other sources pass nothing. */
export interface EntryLink {
  /** `billing_orders.id` of the recharge, or of the consumption debited or reversed. */
  orderId: number;
}

/** Throws unless `points` is a whole number of points ≥ 1 (a programming error of the caller). */
function requirePoints(points: number): void {
  if (!Number.isSafeInteger(points) || points < 1)
    throw new RangeError(`points: an integer ≥ 1, not ${points}`);
}

/** True when `source` already has an entry. */
async function entered(trx: Kysely<Database>, source: PointsSource): Promise<boolean> {
  const row = await trx
    .selectFrom('points_journal')
    .select('id')
    .where('source_kind', '=', source.kind)
    .where('source_ref', '=', source.ref)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Moves the balance by `delta` (conditionally, so a debit never takes it below 0 and nothing is written when it
 * would) and appends the entry. @returns the balance after it, points
 */
async function append(
  trx: Kysely<Database>,
  userId: number,
  delta: number,
  source: PointsSource,
  direction: PointsDirection,
  now: number,
  link: EntryLink | undefined,
): Promise<number> {
  requireSource(source, direction);
  if (await entered(trx, source)) throw new DuplicatePointsSource(source);
  let q = trx
    .updateTable('users')
    .set((eb) => ({ points: eb('points', '+', delta) }))
    .where('id', '=', userId);
  if (delta < 0) q = q.where('points', '>=', -delta);
  const user = await q.returning('points').executeTakeFirst();
  if (!user) {
    if (delta < 0) throw new ApiError(ApiCode.BAD_REQUEST, PointsMsg.insufficient);
    throw new RangeError(`points: no user ${userId}`);
  }
  const after = Number(user.points);
  try {
    await trx
      .insertInto('points_journal')
      .values({
        user_id: userId,
        order_id: link?.orderId ?? null,
        source_kind: source.kind,
        source_ref: source.ref,
        points: delta,
        balance_after: after,
        created_at: now,
      })
      .execute();
  } catch (err) {
    // Another user's transaction entered the same source first (the user lock does not serialize them): the index
    // refuses this one. The balance change above goes with the caller's transaction, which must roll back.
    if (isUniqueViolation(err)) throw new DuplicatePointsSource(source, { cause: err });
    throw err;
  }
  return after;
}

/**
 * Credits `points` to `userId` from `source` (a registered credit kind). Call inside
 * `withUserTransaction(pdb, userId, …)` with its `trx`.
 * @param points ≥ 1
 * @param now unix seconds, the entry's time
 * @param link billing's own entries only: the order the entry belongs to
 * @returns the balance after it, points
 * @throws DuplicatePointsSource when the source already has its entry; UnknownPointsSource for an unregistered (or
 *   debit) kind; RangeError for points that are not an integer ≥ 1
 */
export function credit(
  trx: Kysely<Database>,
  userId: number,
  points: number,
  source: PointsSource,
  now: number,
  link?: EntryLink,
): Promise<number> {
  requirePoints(points);
  return append(trx, userId, points, source, 'credit', now, link);
}

/**
 * Debits `points` from `userId` for `source` (a registered debit kind). Call inside
 * `withUserTransaction(pdb, userId, …)` with its `trx`.
 * @param points ≥ 1 (the entry stores −points)
 * @returns the balance after it, points
 * @throws ApiError 400 积分不足 (`BillingMsg.insufficientPoints`) when the balance is smaller (nothing written);
 *   DuplicatePointsSource, UnknownPointsSource, RangeError as {@link credit}
 */
export function debit(
  trx: Kysely<Database>,
  userId: number,
  points: number,
  source: PointsSource,
  now: number,
  link?: EntryLink,
): Promise<number> {
  requirePoints(points);
  return append(trx, userId, -points, source, 'debit', now, link);
}

/**
 * {@link credit} for callers to whom a repeat is normal (a retried redemption, a replayed event): a source that
 * already has its entry answers `already` (nothing written, the transaction still usable) instead of throwing.
 * @returns `credited` with the balance after the new entry, or `already` with the balance now
 * @throws DuplicatePointsSource only when another user's concurrent transaction enters the same source in between
 *   (the caller's transaction then fails; its retry answers `already`); otherwise as {@link credit}
 */
export async function creditOnce(
  trx: Kysely<Database>,
  userId: number,
  points: number,
  source: PointsSource,
  now: number,
): Promise<{ status: 'credited' | 'already'; balance: number }> {
  requirePoints(points);
  requireSource(source, 'credit');
  if (await entered(trx, source)) return { status: 'already', balance: await balanceOf(trx, userId) };
  return { status: 'credited', balance: await credit(trx, userId, points, source, now) };
}

/** A user's balance, points (`users.points`; 0 for an unknown user). */
export async function balanceOf(db: Kysely<Database>, userId: number): Promise<number> {
  const r = await db.selectFrom('users').select('points').where('id', '=', userId).executeTakeFirst();
  return Number(r?.points ?? 0);
}

/** The sum of a user's journal, points: always equal to {@link balanceOf} (tests and the ops view check it). */
export async function journalSum(db: Kysely<Database>, userId: number): Promise<number> {
  const r = await db
    .selectFrom('points_journal')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('points'), eb.lit(0)).as('s'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(r.s);
}

/**
 * One page of a user's entries, newest first, each with its source's label (the kind itself when no area
 * registered it), signed points and the balance after it; and the balance now.
 * @param page from 1; @param pageSize entries a page (1–100)
 */
export async function history(
  db: Kysely<Database>,
  userId: number,
  page: number,
  pageSize: number,
): Promise<PointsHistoryData> {
  const base = db.selectFrom('points_journal').where('user_id', '=', userId);
  const [rows, total, balance] = await Promise.all([
    base
      .select(['id', 'source_kind', 'points', 'balance_after', 'created_at'])
      .orderBy('id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    balanceOf(db, userId),
  ]);
  const list: PointsEntry[] = rows.map((r) => ({
    id: Number(r.id),
    at: formatBeijing(Number(r.created_at)),
    kind: r.source_kind,
    label: pointsSourceKind(r.source_kind)?.label ?? r.source_kind,
    points: Number(r.points),
    balance: Number(r.balance_after),
  }));
  return { balance, count: Number(total.n), page, pageSize, list };
}
