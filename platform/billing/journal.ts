/**
 * Billing's points entries (docs/decisions/018-billing.md, 057-points-api.md), all through the points API
 * (platform/points/journal.ts): the credit of a paid recharge, the consumption debit (a paid 'C' order,
 * notarisation's spend) and its reversal when a notary order is refunded. Billing registers its three kinds of source here, at
 * start; each entry's reference is its order's number (the reversal's, the consumption's), and each names its order
 * (`points_journal.order_id`) for finance's order view. Callers run inside `withUserTransaction` of the user, as the
 * points API requires; the unique index on (source_kind, source_ref) refuses a second credit of one recharge or a
 * second reversal of one consumption.
 */
import type { Kysely } from 'kysely';
import { BillingMsg, PayStatus, PayType } from '../../contract/billing.ts';
import { type JournalRow } from '../../contract/billing-ops.ts';
import { ApiCode } from '../../contract/envelope.ts';
import { ApiError } from '../core/errors.ts';
import { formatBeijing } from '../core/time.ts';
import { withUserTransaction } from '../core/transactions.ts';
import type { PlatformDb } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { credit, debit, registerPointsSource } from '../points/journal.ts';
import { newOrderNo } from './money.ts';
import type { JournalKind } from './schema.ts';

export { balanceOf, journalSum } from '../points/journal.ts';

/** Billing's kinds of points sources (`points_journal.source_kind`). */
export const BILLING_SOURCES = ['recharge', 'spend', 'reversal'] as const satisfies readonly JournalKind[];

registerPointsSource({ kind: 'recharge', label: BillingMsg.sourceRecharge, direction: 'credit' });
registerPointsSource({ kind: 'spend', label: BillingMsg.sourceSpend, direction: 'debit' });
registerPointsSource({ kind: 'reversal', label: BillingMsg.sourceReversal, direction: 'credit' });

/**
 * Credits a paid recharge's points (source `recharge`, its order number), inside the owner's
 * `withUserTransaction`. @returns the balance after it, points
 * @throws DuplicatePointsSource (platform/points) when the recharge was credited before
 */
export function creditRecharge(
  trx: Kysely<Database>,
  order: { id: number; user_id: number; order_no: string; points: number },
  now: number,
): Promise<number> {
  return credit(
    trx,
    Number(order.user_id),
    Number(order.points),
    { kind: 'recharge', ref: order.order_no },
    now,
    { orderId: Number(order.id) },
  );
}

/**
 * Spends `points` of the user's balance: a paid consumption order (pay_type 1, 'C' number) and its debit, in one
 * transaction. The TEST_HOOKS spend call; notarisation spends with {@link spendInTransaction} inside its own.
 * @returns the consumption order's number and the balance after it
 * @throws ApiError 400 积分须为正整数 for points that are not an integer ≥ 1, 400 积分不足 when the balance is
 *   smaller (nothing is written)
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
 * The consumption order and debit of {@link spendPoints} (source `spend`, the order's number), inside the caller's
 * `withUserTransaction(userId)` (so the caller's own change, e.g. a notary order becoming paid, commits with it or
 * not at all). `points` ≥ 1.
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
  const orderId = Number(id);
  const balance = await debit(trx, userId, points, { kind: 'spend', ref: orderNo }, now, { orderId });
  return { orderId, orderNo, balance };
}

/**
 * Gives back the points of consumption order `orderId` (source `reversal`, the consumption's number: +its points),
 * inside the caller's `withUserTransaction(userId)`.
 * @returns the balance after it
 * @throws DuplicatePointsSource (platform/points) when the consumption was reversed before
 */
export async function reverseSpend(
  trx: Kysely<Database>,
  userId: number,
  orderId: number,
  now: number,
): Promise<number> {
  const o = await trx
    .selectFrom('billing_orders')
    .select(['points', 'order_no'])
    .where('id', '=', orderId)
    .where('user_id', '=', userId)
    .where('kind', '=', 'spend')
    .executeTakeFirstOrThrow();
  return credit(trx, userId, Number(o.points), { kind: 'reversal', ref: o.order_no }, now, { orderId });
}

/** The journal entries of one order, oldest first (finance's order view). */
export async function orderJournal(
  db: Kysely<Database>,
  orderId: number,
  orderNo: string,
): Promise<JournalRow[]> {
  const rows = await db
    .selectFrom('points_journal')
    .select(['id', 'source_kind', 'points', 'created_at'])
    .where('order_id', '=', orderId)
    .where('source_kind', 'in', BILLING_SOURCES)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    kind: r.source_kind as JournalKind,
    points: Number(r.points),
    order_no: orderNo,
    at: formatBeijing(Number(r.created_at)),
  }));
}
