/**
 * Notarisation orders (spec 02 §3 "Notary order list query", "Notary detail response", §4 "Notary order rows", "End
 * operation", §9; docs/decisions/034-notary.md): a verified user's order over preserved
 * evidences of their own, priced in points from contract NOTARY_TYPES; the user's list (10 a page, newest first) with
 * its filters; one order's detail with a page of its evidences; and ending an unfinished order. Another user's
 * order or evidence reads as not found. Points are integers, times unix seconds.
 */
import type { Kysely } from 'kysely';
import type {
  NotaryOrderRow as OrdersTabRow,
  OrderListData,
  OrderListQuery,
} from '../../contract/billing.ts';
import { ApiCode } from '../../contract/envelope.ts';
import {
  type CreateNotaryOrderBody,
  NOTARY_PAGE_SIZE,
  type NotarialCode,
  type NotaryDetailData,
  NotaryMsg,
  type NotaryOrderCreated,
  type NotaryOrderListData,
  type NotaryOrderListQuery,
  type NotaryOrderRow,
  NOTARY_PAY_TEXT,
  NotaryPay,
  type NotaryPayCode,
  NotaryStep,
  type NotaryStepCode,
  Notarial,
  orderPrice,
} from '../../contract/notary.ts';
import { reverseSpend } from '../billing/journal.ts';
import { datedNumber } from '../core/crypto.ts';
import { ApiError } from '../core/errors.ts';
import { formatBeijing } from '../core/time.ts';
import { withUserTransaction } from '../core/transactions.ts';
import type { PlatformDb } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { NotaryOrderRowDb } from './schema.ts';

/** The contract row of a stored order. */
function toRow(o: NotaryOrderRowDb): NotaryOrderRow {
  return {
    id: Number(o.id),
    type: Number(o.type),
    orderNo: o.order_no,
    addTime: formatBeijing(Number(o.created_at)),
    number: Number(o.records),
    step: Number(o.step) as NotaryStepCode,
    money: Number(o.points),
    pay: Number(o.pay) as NotaryPayCode,
    notarial: o.notarial === null ? null : (Number(o.notarial) as NotarialCode),
  };
}

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
 * The user's orders, newest first, 10 a page, filtered by creation time (inclusive), pay state, issuance state (0:
 * unfinished) and order number (whole or its beginning).
 */
export async function listOrders(
  db: Kysely<Database>,
  userId: number,
  q: NotaryOrderListQuery,
): Promise<NotaryOrderListData> {
  let base = db.selectFrom('notary_orders').where('user_id', '=', userId);
  if (q.startTime !== undefined) base = base.where('created_at', '>=', q.startTime);
  if (q.endTime !== undefined) base = base.where('created_at', '<=', q.endTime);
  if (q.payType !== undefined) base = base.where('pay', '=', q.payType);
  if (q.notarialType === 0) base = base.where('notarial', 'is', null);
  else if (q.notarialType !== undefined) base = base.where('notarial', '=', q.notarialType);
  if (q.orderNo !== undefined) base = base.where('order_no', 'like', `${q.orderNo}%`);
  const [total, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(NOTARY_PAGE_SIZE)
      .offset((q.page - 1) * NOTARY_PAGE_SIZE)
      .execute(),
  ]);
  return { count: Number(total.n), list: rows.map(toRow) };
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

/** The order's info and page `page` (10 rows) of its evidences, oldest saved first. @throws as {@link requireOrder} */
export async function orderDetail(
  db: Kysely<Database>,
  userId: number,
  orderId: number,
  page: number,
): Promise<NotaryDetailData> {
  const order = await requireOrder(db, userId, orderId);
  const evidences = await orderEvidences(db, Number(order.id))
    .select([
      'e.id',
      'e.baoquan',
      'e.title',
      'e.file_name',
      'e.label',
      'e.file_type',
      'e.created_at',
      'e.sha256',
    ])
    .limit(NOTARY_PAGE_SIZE)
    .offset((page - 1) * NOTARY_PAGE_SIZE)
    .execute();
  const row = toRow(order);
  const paper = await db
    .selectFrom('notary_applications')
    .select(['copies', 'province', 'city', 'area', 'address', 'recipient'])
    .where('order_id', '=', order.id)
    .executeTakeFirst();
  return {
    info: {
      orderNo: row.orderNo,
      addTime: row.addTime,
      money: row.money,
      pay: row.pay,
      payType: order.pay_type === null ? null : Number(order.pay_type),
      tranImg: null,
      type: row.type,
      step: row.step,
      notarial: row.notarial,
      certificateNo: order.certificate_no,
      officeRemark: order.office_remark,
      paper: paper
        ? {
            copies: Number(paper.copies),
            address: `${paper.recipient} ${paper.province}${paper.city}${paper.area}${paper.address}`,
            requestedAt:
              order.paper_requested_at === null ? null : formatBeijing(Number(order.paper_requested_at)),
            courierNumber: order.courier_number,
          }
        : null,
    },
    list: evidences.map((e) => ({
      id: Number(e.id),
      baoquan: e.baoquan,
      baoquan_no: e.baoquan,
      title: e.title,
      name: e.file_name,
      label: e.label,
      type: Number(e.file_type),
      saveTime: formatBeijing(Number(e.created_at)),
      fileHash: e.sha256,
      algorithm: 'SHA-256',
    })),
    count: row.number,
  };
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

/**
 * Tab 3 (公证出证) of the user's `/orders` (spec 02 §2 "Orders", §3 "Notary order (in the orders tab)"): the orders
 * newest first, 10 a page, by creation time and pay state (`isType` 1 pending, 2 paid, 3 cancelled), each with its
 * pay text. The billing area's getOrderList asks here (`app.billing.notaryOrders`).
 */
export async function ordersTab(
  db: Kysely<Database>,
  userId: number,
  q: OrderListQuery,
): Promise<OrderListData<OrdersTabRow>> {
  const pay = q.isType !== undefined && q.isType <= 3 ? (q.isType as NotaryPayCode) : undefined;
  if (q.isType === 4) return { count: 0, list: [] }; // payment failed: a notary order has no such state
  const { count, list } = await listOrders(db, userId, {
    page: q.page,
    startTime: q.startTime,
    endTime: q.endTime,
    payType: pay,
    notarialType: undefined,
    orderNo: undefined,
  });
  return {
    count,
    list: list.map((r) => ({
      id: r.id,
      orderNo: r.orderNo,
      addTime: r.addTime,
      money: r.money,
      pay: NOTARY_PAY_TEXT[r.pay],
      type: r.type,
    })),
  };
}
