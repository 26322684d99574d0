/**
 * Step 4 of a notarisation order, payment (docs/decisions/034-notary.md): with points, one consumption order and its
 * debit in the user's transaction with the order becoming paid, so two concurrent payments charge once; through a
 * provider, a recharge of the order's price whose credit pays the order ({@link notaryCredited}); and the pay state
 * the page polls. Every call is scoped to the owner: another user's order reads as not found (404).
 */
import type { FastifyInstance } from 'fastify';
import { ApiCode } from '../../contract/envelope.ts';
import { ApiError } from '../core/errors.ts';
import type { Kysely } from 'kysely';
import {
  NotaryMsg,
  NotaryPay,
  type NotaryPayNews,
  NotaryStep,
  type NotaryStepCode,
} from '../../contract/notary.ts';
import type { PayData } from '../../contract/billing.ts';
import { balanceOf, spendInTransaction } from '../billing/journal.ts';
import type { BillingOrderRow } from '../billing/schema.ts';
import { pay } from '../billing/service.ts';
import { withUserTransaction } from '../core/transactions.ts';
import type { PlatformDb } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { NotaryOrderRowDb } from './schema.ts';
import { isOpenOrder, requireOrder } from './service.ts';
import { openOrderAt } from './workflow.ts';

const bad = (msg: string) => new ApiError(ApiCode.BAD_REQUEST, msg);

/**
 * Pays `order` from its owner's balance inside their transaction: a consumption order of its price and its debit,
 * and the order paid (pay 2, `payType` — 1 points, or the provider whose recharge brought the points —, step 5).
 * @returns the balance after it, points
 * @throws ApiError 400 积分不足 (the caller's transaction rolls back)
 */
async function payFromBalance(
  trx: Kysely<Database>,
  order: NotaryOrderRowDb,
  payType: number,
  now: number,
): Promise<number> {
  const spent = await spendInTransaction(
    trx,
    Number(order.user_id),
    Number(order.points),
    NotaryMsg.paidDesc(order.order_no),
    now,
  );
  await trx
    .updateTable('notary_orders')
    .set({
      pay: NotaryPay.paid,
      pay_type: payType,
      step: NotaryStep.done,
      spend_order_id: spent.orderId,
      paid_at: now,
      updated_at: now,
    })
    .where('id', '=', order.id)
    .execute();
  return spent.balance;
}

/**
 * Step 4 with points: a consumption order of the order's price and its debit, and the order paid (pay 2, pay type 1,
 * step 5), in one per-user transaction: a concurrent second payment finds it paid (订单已支付) and charges nothing.
 * @returns the balance after it, points
 * @throws ApiError 404 orderNotFound; 400 orderClosed, stepNotReached, alreadyPaid, 积分不足 (nothing written)
 */
export async function payWithPoints(
  pdb: PlatformDb,
  userId: number,
  orderId: number,
  now: number,
): Promise<number> {
  return withUserTransaction(pdb, userId, async (trx) => {
    const order = await openOrderAt(trx, userId, orderId, NotaryStep.pay);
    if (Number(order.pay) === NotaryPay.paid) throw bad(NotaryMsg.alreadyPaid);
    return payFromBalance(trx, order, 1, now);
  });
}

/** The recharge purpose of a notary order paid through a provider (billing_orders.purpose, migration 0015). */
export const NOTARY_PURPOSE = 'notary';

/**
 * Step 4 with Alipay (2) or WeChat Pay (3): a recharge of exactly the order's price in points, bought for the order
 * (purpose `notary`), opened at the provider through the billing area's own payment flow; once the provider's payment
 * is credited, {@link notaryCredited} spends the points on the order in the same transaction. So a provider payment
 * leaves the same trail as a points payment (a recharge, then one consumption row) and every confirmation path of
 * the billing area (notification, return page, WeChat poll, reconciliation) pays the order exactly once.
 * @returns the billing area's payment answer (the cashier URL or WeChat's code URL, and the recharge's number)
 * @throws ApiError 404 orderNotFound; 400 orderClosed, stepNotReached, alreadyPaid; the provider's errors
 */
export async function payWithProvider(
  app: FastifyInstance,
  userId: number,
  orderId: number,
  payType: 2 | 3,
): Promise<PayData> {
  const order = await openOrderAt(app.pdb.db, userId, orderId, NotaryStep.pay);
  if (Number(order.pay) === NotaryPay.paid) throw bad(NotaryMsg.alreadyPaid);
  return pay(
    app,
    userId,
    { type: payType, integral: Number(order.points) },
    { name: NOTARY_PURPOSE, id: Number(order.id) },
  );
}

/**
 * Runs when a recharge bought for a notary order is credited, inside its owner's transaction: the order, if it still
 * waits for payment (open, at step 4, unpaid), is paid with those points (a consumption row) and records the
 * provider's pay type; otherwise the points stay on the balance.
 */
export async function notaryCredited(
  trx: Kysely<Database>,
  recharge: BillingOrderRow,
  now: number,
): Promise<void> {
  if (recharge.purpose_id === null) return;
  const userId = Number(recharge.user_id);
  const order = await trx
    .selectFrom('notary_orders')
    .selectAll()
    .where('id', '=', Number(recharge.purpose_id))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (
    !order ||
    !isOpenOrder(order) ||
    Number(order.pay) === NotaryPay.paid ||
    Number(order.step) !== NotaryStep.pay
  )
    return;
  await payFromBalance(trx, order, Number(recharge.pay_type), now);
}

/** The order's pay state and the user's balance (`GET /api/Evidences/paysmsnews`). @throws 404 orderNotFound */
export async function payNews(db: Kysely<Database>, userId: number, orderId: number): Promise<NotaryPayNews> {
  const order = await requireOrder(db, userId, orderId);
  return {
    orderNo: order.order_no,
    pay: Number(order.pay) as NotaryPayNews['pay'],
    money: Number(order.points),
    balance: await balanceOf(db, userId),
    step: Number(order.step) as NotaryStepCode,
  };
}
