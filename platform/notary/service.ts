/**
 * Notarisation orders (spec 02 §3 "Notary order list query", "Notary detail response", §4 "Notary order rows", "End
 * operation", §9; docs/decisions/034-notary.md): a verified user's order over preserved
 * evidences of their own, priced in points from contract NOTARY_TYPES; the rules an open order follows; ending an
 * unfinished order, its refund and the paper copy. The list and the detail are in `platform/notary/order-views.ts`.
 * Another user's order or evidence reads as not found. Points are integers, times unix seconds.
 */
import type { Kysely } from 'kysely';
import { ApiCode } from '../../contract/envelope.ts';
import {
  type CreateNotaryOrderBody,
  NotaryMsg,
  type NotaryOrderCreated,
  NotaryPay,
  NotaryStep,
  Notarial,
  orderPrice,
} from '../../contract/notary.ts';
import { reverseSpend } from '../billing/journal.ts';
import { datedNumber } from '../core/crypto.ts';
import { ApiError } from '../core/errors.ts';
import { withUserTransaction } from '../core/transactions.ts';
import type { PlatformDb } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { NotaryOrderRowDb } from './schema.ts';

/**
 * Creates an order of `body.type` over the user's evidences `body.ids`, priced `pointsPerRecord × ids` points, at
 * its first step, unpaid. The user must be verified (the route's guard).
 * @throws ApiError 400 typeRequired for an unknown type; 404 evidenceNotFound when an id is not a stored, undeleted
 *   evidence of the user's
 */
export async function createOrder(
  pdb: PlatformDb,
  userId: number,
  body: CreateNotaryOrderBody,
  now: number,
): Promise<NotaryOrderCreated> {
  const money = orderPrice(body.type, body.ids.length);
  if (money === undefined) throw new ApiError(ApiCode.BAD_REQUEST, NotaryMsg.typeRequired);
  return withUserTransaction(pdb, userId, async (trx) => {
    const owned = await trx
      .selectFrom('evidences')
      .select('id')
      .where('user_id', '=', userId)
      .where('id', 'in', body.ids)
      .where('status', '=', 1)
      .where('deleted_at', 'is', null)
      .execute();
    if (owned.length !== body.ids.length) throw new ApiError(ApiCode.NOT_FOUND, NotaryMsg.evidenceNotFound);
    const orderNo = datedNumber('N', now);
    const { id } = await trx
      .insertInto('notary_orders')
      .values({
        order_no: orderNo,
        user_id: userId,
        type: body.type,
        records: body.ids.length,
        points: money,
        step: NotaryStep.applicationForm,
        pay: NotaryPay.pending,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('notary_order_evidences')
      .values(body.ids.map((evidenceId) => ({ order_id: Number(id), evidence_id: evidenceId })))
      .execute();
    return {
      id: Number(id),
      type: body.type,
      orderNo,
      number: body.ids.length,
      money,
      step: NotaryStep.applicationForm,
    };
  });
}

/**
 * The evidences of order `orderId` joined to their rows, oldest saved first (each caller selects its columns of
 * `e`; one place for the join and the order every list of an order's evidences uses).
 */
export function orderEvidences(db: Kysely<Database>, orderId: number) {
  return db
    .selectFrom('notary_order_evidences as n')
    .innerJoin('evidences as e', 'e.id', 'n.evidence_id')
    .where('n.order_id', '=', orderId)
    .orderBy('e.created_at')
    .orderBy('e.id');
}

/** True when the order is open: not cancelled, and its issuance has no outcome yet. */
export function isOpenOrder(order: Pick<NotaryOrderRowDb, 'pay' | 'notarial'>): boolean {
  return Number(order.pay) !== NotaryPay.cancelled && order.notarial === null;
}

/** The user's order `orderId`. @throws ApiError 404 orderNotFound for none or another user's */
export async function requireOrder(
  db: Kysely<Database>,
  userId: number,
  orderId: number,
): Promise<NotaryOrderRowDb> {
  const order = await db
    .selectFrom('notary_orders')
    .selectAll()
    .where('id', '=', orderId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!order) throw new ApiError(ApiCode.NOT_FOUND, NotaryMsg.orderNotFound);
  return order;
}

/**
 * Ends the user's unfinished order (spec 02 §4 "End operation"): it becomes cancelled (pay 3) and terminated
 * (issuance 3), for good; a paid order the office has not accepted gets its points back first. In one per-user
 * transaction, so a concurrent second call finds it closed and nothing is refunded twice.
 * @returns true when points were given back
 * @throws ApiError 404 orderNotFound; 400 orderClosed when it is cancelled or its issuance has an outcome; 400
 *   orderPaidStop when the office has accepted it (in progress)
 */
export async function stopOrder(
  pdb: PlatformDb,
  userId: number,
  orderId: number,
  now: number,
): Promise<boolean> {
  return withUserTransaction(pdb, userId, async (trx) => {
    const order = await requireOrder(trx, userId, orderId);
    if (Number(order.notarial) === Notarial.inProgress)
      throw new ApiError(ApiCode.BAD_REQUEST, NotaryMsg.orderPaidStop);
    if (!isOpenOrder(order)) throw new ApiError(ApiCode.BAD_REQUEST, NotaryMsg.orderClosed);
    await refundOrder(trx, order, now);
    await trx
      .updateTable('notary_orders')
      .set({ pay: NotaryPay.cancelled, notarial: Notarial.terminated, stopped_at: now, updated_at: now })
      .where('id', '=', order.id)
      .execute();
    return Number(order.pay) === NotaryPay.paid;
  });
}

/**
 * Gives back the points that paid `order` (a reversal entry on its consumption order) and marks it refunded, inside
 * the owner's transaction. An order paid otherwise than with points is only marked (the provider's refund is the
 * payments area's). Idempotent: a refunded order is left as it is.
 */
export async function refundOrder(
  trx: Kysely<Database>,
  order: NotaryOrderRowDb,
  now: number,
): Promise<void> {
  if (order.refunded_at !== null || Number(order.pay) !== NotaryPay.paid) return;
  if (order.spend_order_id !== null) {
    await reverseSpend(trx, Number(order.user_id), Number(order.spend_order_id), now);
  }
  await trx
    .updateTable('notary_orders')
    .set({ refunded_at: now, updated_at: now })
    .where('id', '=', order.id)
    .execute();
}

/**
 * Asks for the issued notarial certificate's paper copies (the application's number of copies) to be mailed to the
 * application's address; once.
 * @throws ApiError 404 orderNotFound; 400 paperNotIssued before issue; 400 paperAlready for a second request
 */
export async function requestPaper(
  pdb: PlatformDb,
  userId: number,
  orderId: number,
  now: number,
): Promise<void> {
  await withUserTransaction(pdb, userId, async (trx) => {
    const order = await requireOrder(trx, userId, orderId);
    if (Number(order.notarial) !== Notarial.succeeded)
      throw new ApiError(ApiCode.BAD_REQUEST, NotaryMsg.paperNotIssued);
    if (order.paper_requested_at !== null) throw new ApiError(ApiCode.BAD_REQUEST, NotaryMsg.paperAlready);
    await trx
      .updateTable('notary_orders')
      .set({ paper_requested_at: now, updated_at: now })
      .where('id', '=', order.id)
      .execute();
  });
}
