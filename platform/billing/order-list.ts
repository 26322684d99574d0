/**
 * The orders tabs of a user (spec 02 §3 "Points order", "Notary order (in the orders tab)", §7 `getOrderList`;
 * docs/decisions/018-billing.md): a row of a recharge or consumption order with what the list adds (refunded, the
 * invoice state and a rejected application), and the three tabs, 10 rows a page.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import {
  InvoiceStatus,
  ORDERS_PAGE_SIZE,
  OrderTab,
  PAY_STATUS_TEXT,
  PayStatus,
  REFUNDED_TEXT,
  type InvoiceStatusCode,
  type OrderListData,
  type OrderListQuery,
  type PayStatusCode,
  type PayTypeCode,
  type PointsOrderRow,
} from '../../contract/billing.ts';
import { ApplyStatus } from '../../contract/invoice-codes.ts';
import { formatBeijing, nowSeconds } from '../core/time.ts';
import type { Database } from '../db/schema.ts';
import type { BillingOrderRow } from './schema.ts';

/** What a row of the orders list adds to the order itself (contract PointsOrderRow). */
export interface OrderRowExtras {
  /** The consumption's points were given back (a reversal entry in the journal). */
  refunded?: boolean;
  /** The rejected invoice application of a recharge whose invoiceStatus is 3. */
  failedApplicationId?: number | null;
}

/**
 * A row of tab 1 or 2 (contract PointsOrderRow): `now` unix seconds (for `canPay`); `extras` what only the list
 * looks up (a refund, the rejected invoice application), absent elsewhere (not refunded, none).
 */
export function orderRow(
  o: BillingOrderRow,
  now = nowSeconds(),
  extras: OrderRowExtras = {},
): PointsOrderRow {
  const status = Number(o.status) as PayStatusCode;
  const pending = status === PayStatus.pending;
  const refunded = extras.refunded === true && o.kind === 'spend';
  return {
    id: Number(o.id),
    order_no: o.order_no,
    create_time: formatBeijing(Number(o.created_at)),
    desc: o.description,
    balance: Number(o.points),
    money: Number(o.amount_fen),
    type: o.kind === 'recharge' ? OrderTab.recharge : OrderTab.consumption,
    pay_type: Number(o.pay_type) as PayTypeCode,
    pay_status: refunded ? REFUNDED_TEXT : PAY_STATUS_TEXT[status],
    status,
    refunded,
    invoiceStatus: Number(o.invoice_status) as InvoiceStatusCode,
    failedApplicationId:
      Number(o.invoice_status) === InvoiceStatus.failed ? (extras.failedApplicationId ?? null) : null,
    canPay: pending && o.kind === 'recharge' && now <= Number(o.expires_at),
    expiresAt: pending ? Number(o.expires_at) : 0,
  };
}

/**
 * `GET getOrderList` (spec 02 §7): tab 1 recharges, tab 2 consumptions, tab 3 notary orders (from the notarisation
 * area once it exists); created within [startTime, endTime], status `isType`; 10 a page, newest first.
 */
export async function listOrders(
  app: FastifyInstance,
  userId: number,
  q: OrderListQuery,
): Promise<OrderListData> {
  if (q.type === OrderTab.notary) return app.billing.notaryOrders?.list(userId, q) ?? { count: 0, list: [] };
  let base = app.pdb.db
    .selectFrom('billing_orders')
    .where('user_id', '=', userId)
    .where('kind', '=', q.type === OrderTab.recharge ? 'recharge' : 'spend');
  if (q.startTime !== undefined) base = base.where('created_at', '>=', q.startTime);
  if (q.endTime !== undefined) base = base.where('created_at', '<=', q.endTime);
  if (q.isType !== undefined) base = base.where('status', '=', q.isType);
  const [rows, total] = await Promise.all([
    base
      .selectAll()
      .orderBy('id', 'desc')
      .limit(ORDERS_PAGE_SIZE)
      .offset((q.page - 1) * ORDERS_PAGE_SIZE)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const now = nowSeconds();
  const refunded = await refundedOrders(
    app.pdb.db,
    rows.filter((r) => r.kind === 'spend').map((r) => Number(r.id)),
  );
  const failed = await rejectedApplications(
    app.pdb.db,
    rows.filter((r) => Number(r.invoice_status) === InvoiceStatus.failed).map((r) => Number(r.id)),
  );
  return {
    count: Number(total.n),
    list: rows.map((r) =>
      orderRow(r, now, {
        refunded: refunded.has(Number(r.id)),
        failedApplicationId: failed.get(Number(r.id)) ?? null,
      }),
    ),
  };
}

/**
 * Which of the consumption orders `ids` were given back: those with a reversal entry in the points journal (at most
 * one an order: the journal's unique (source_kind, source_ref) index, the reversal's reference being the
 * consumption's number; docs/decisions/019-billing-screens.md "Refunded consumptions"). No query for an empty list.
 */
export async function refundedOrders(db: Kysely<Database>, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('points_journal')
    .select('order_id')
    .where('order_id', 'in', ids)
    .where('source_kind', '=', 'reversal')
    .execute();
  return new Set(rows.map((r) => Number(r.order_id)));
}

/**
 * The latest rejected invoice application (status 4) of each of the recharges `ids` (invoiceStatus 3), whose
 * reason `/invoice/details?id=` shows (spec 02 §4 "Orders": failed allows viewing the failure reason). No query for
 * an empty list.
 */
async function rejectedApplications(db: Kysely<Database>, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('invoice_application_orders as o')
    .innerJoin('invoice_applications as a', 'a.id', 'o.application_id')
    .select(['o.order_id', (eb) => eb.fn.max('o.application_id').as('application_id')])
    .where('o.order_id', 'in', ids)
    .where('a.status', '=', ApplyStatus.rejected)
    .groupBy('o.order_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.order_id), Number(r.application_id)]));
}
