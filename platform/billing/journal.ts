/**
 * The points journal (docs/decisions/018-billing.md): the append-only record of every change of a user's points —
 * recharge credits, consumption debits, reversals — each tied to an order. The balance (`users.points`, shown by
 * getAuthInfo and the top bar) moves only here, in the same transaction as the entry, so it always equals the
 * journal's sum and never goes below 0: callers run inside `withUserTransaction`, which serializes every change of
 * one user's points (PostgreSQL `FOR UPDATE` on the user row, SQLite `BEGIN IMMEDIATE`). The unique index on
 * (order, kind) is the database's own guard against a second credit of one order.
 */
import type { Kysely } from 'kysely';
import { BillingMsg, PayStatus, PayType, type JournalRow } from '../../contract/billing.ts';
import { ApiCode } from '../../contract/envelope.ts';
import { ApiError } from '../core/errors.ts';
import { formatBeijing } from '../core/time.ts';
import { withUserTransaction } from '../core/transactions.ts';
import type { PlatformDb } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { newOrderNo } from './money.ts';
import type { JournalKind } from './schema.ts';

/** One entry to append. `points` is signed: credits > 0, debits < 0. */
export interface JournalEntry {
  userId: number;
  orderId: number;
  kind: JournalKind;
  points: number;
  now: number;
}

/**
 * Appends an entry and moves the user's balance. Call inside `withUserTransaction(userId)`.
 * @returns the balance after it, points
 * @throws ApiError 400 积分不足 when a debit would take the balance below 0 (the caller's transaction rolls back)
 */
export async function appendJournal(trx: Kysely<Database>, e: JournalEntry): Promise<number> {
  const user = await trx
    .updateTable('users')
    .set((eb) => ({ points: eb('points', '+', e.points) }))
    .where('id', '=', e.userId)
    .returning('points')
    .executeTakeFirstOrThrow();
  const after = Number(user.points);
  // Thrown inside the caller's transaction, so the balance change above is rolled back with it.
  if (after < 0) throw new ApiError(ApiCode.BAD_REQUEST, BillingMsg.insufficientPoints);
  await trx
    .insertInto('points_journal')
    .values({
      user_id: e.userId,
      order_id: e.orderId,
      kind: e.kind,
      points: e.points,
      balance_after: after,
      created_at: e.now,
    })
    .execute();
  return after;
}

/** The sum of a user's journal, points (equals `users.points`; tests and the ops view check it). */
export async function journalSum(db: Kysely<Database>, userId: number): Promise<number> {
  const r = await db
    .selectFrom('points_journal')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('points'), eb.lit(0)).as('s'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(r.s);
}

/** A user's balance, points. */
export async function balanceOf(db: Kysely<Database>, userId: number): Promise<number> {
  const r = await db.selectFrom('users').select('points').where('id', '=', userId).executeTakeFirst();
  return Number(r?.points ?? 0);
}

/**
 * Spends `points` of the user's balance: a paid consumption order (pay_type 1, 'C' number) and its debit, in one
 * transaction. The TEST_HOOKS spend call; notarisation spends with {@link spendInTransaction} inside its own.
 * @returns the consumption order's number and the balance after it
 * @throws ApiError 400 积分不足 when the balance is smaller (nothing is written)
 */
export async function spendPoints(
  pdb: PlatformDb,
  userId: number,
  points: number,
  description: string,
  now: number,
): Promise<{ orderNo: string; balance: number }> {
  if (!Number.isSafeInteger(points) || points < 1)
    throw new ApiError(ApiCode.BAD_REQUEST, BillingMsg.pointsInvalid);
  return withUserTransaction(pdb, userId, async (trx) => {
    const { orderNo, balance } = await spendInTransaction(trx, userId, points, description, now);
    return { orderNo, balance };
  });
}

/**
 * The consumption order and debit of {@link spendPoints}, inside the caller's `withUserTransaction(userId)` (so the
 * caller's own change, e.g. a notary order becoming paid, commits with it or not at all). `points` ≥ 1.
 * @returns the consumption order's row id and number, and the balance after it
 * @throws ApiError 400 积分不足 when the balance is smaller
 */
export async function spendInTransaction(
  trx: Kysely<Database>,
  userId: number,
  points: number,
  description: string,
  now: number,
): Promise<{ orderId: number; orderNo: string; balance: number }> {
  const orderNo = newOrderNo('C', now);
  const { id } = await trx
    .insertInto('billing_orders')
    .values({
      order_no: orderNo,
      user_id: userId,
      kind: 'spend',
      points,
      amount_fen: 0,
      pay_type: PayType.balance,
      status: PayStatus.paid,
      description,
      expires_at: now,
      paid_at: now,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const balance = await appendJournal(trx, {
    userId,
    orderId: Number(id),
    kind: 'spend',
    points: -points,
    now,
  });
  return { orderId: Number(id), orderNo, balance };
}

/**
 * Gives back the points of consumption order `orderId` (a reversal entry of +its points), inside the caller's
 * `withUserTransaction(userId)`. The journal's unique (order, kind) index makes a second reversal of one order fail.
 * @returns the balance after it
 */
export async function reverseSpend(
  trx: Kysely<Database>,
  userId: number,
  orderId: number,
  now: number,
): Promise<number> {
  const o = await trx
    .selectFrom('billing_orders')
    .select(['points'])
    .where('id', '=', orderId)
    .where('user_id', '=', userId)
    .where('kind', '=', 'spend')
    .executeTakeFirstOrThrow();
  return appendJournal(trx, { userId, orderId, kind: 'reversal', points: Number(o.points), now });
}

/** The journal entries of one order, oldest first (the ops view). */
export async function orderJournal(
  db: Kysely<Database>,
  orderId: number,
  orderNo: string,
): Promise<JournalRow[]> {
  const rows = await db
    .selectFrom('points_journal')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    kind: r.kind,
    points: Number(r.points),
    order_no: orderNo,
    at: formatBeijing(Number(r.created_at)),
  }));
}
