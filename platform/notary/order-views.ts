/**
 * A user's views of their notarisation orders (spec 02 §3 "Notary order list query", "Notary detail response",
 * "Notary order (in the orders tab)"; docs/decisions/034-notary.md): the list (10 a page, newest first) with its
 * filters, tab 3 of `/orders`, and one order's detail with a page of its evidences. Another user's order reads as
 * not found. Points are integers, times unix seconds.
 */
import type { Kysely } from 'kysely';
import type {
  NotaryOrderRow as OrdersTabRow,
  OrderListData,
  OrderListQuery,
} from '../../contract/billing.ts';
import {
  NOTARY_PAGE_SIZE,
  type NotarialCode,
  type NotaryDetailData,
  type NotaryOrderListData,
  type NotaryOrderListQuery,
  type NotaryOrderRow,
  NOTARY_PAY_TEXT,
  type NotaryPayCode,
  type NotaryStepCode,
} from '../../contract/notary.ts';
import { formatBeijing } from '../core/time.ts';
import type { Database } from '../db/schema.ts';
import type { NotaryOrderRowDb } from './schema.ts';
import { orderEvidences, requireOrder } from './service.ts';

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
