/**
 * Recharge orders (spec 02 §2 "Orders", §3 "Recharge and consumption order", §4 "Orders", §7; docs/decisions/
 * 018-billing.md): creating and paying a recharge, paying a pending one again, cancelling it (closed at the provider
 * first), the orders list with its three tabs and filters, an order's detail and state. Amounts are integer fen
 * (`POINT_PRICE_FEN` a point); every query of a user's orders is scoped to the user (another user's order: 404).
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import {
  BillingMsg,
  BillingPages,
  InvoiceStatus,
  MAX_RECHARGE_POINTS,
  MIN_RECHARGE_POINTS,
  ORDERS_PAGE_SIZE,
  OrderTab,
  PAY_STATUS_TEXT,
  POINT_PACKAGES,
  PayStatus,
  PayType,
  REFUNDED_TEXT,
  type InvoiceStatusCode,
  type OrderDetail,
  type OrderListData,
  type OrderListQuery,
  type OrderStatusData,
  type PayBody,
  type PayData,
  type PayPageData,
  type PayStatusCode,
  type PayTypeCode,
  type PointsOrderRow,
  type RechargeOptions,
} from '../../contract/billing.ts';
import { ApiCode } from '../../contract/envelope.ts';
import { ApplyStatus } from '../../contract/invoice-codes.ts';
import { ApiError } from '../core/errors.ts';
import { formatBeijing, nowSeconds } from '../core/time.ts';
import type { Database } from '../db/schema.ts';
import { newOrderNo } from './money.ts';
import { applyTrade, rechargePurpose } from './apply.ts';
import { CLOSED_TRADE, ProviderUnavailable } from './providers.ts';
import { reconcileOrder, RECONCILE_MIN_AGE_SECONDS } from './reconcile.ts';
import type { BillingOrderRow } from './schema.ts';

const notFound = () => new ApiError(ApiCode.NOT_FOUND, BillingMsg.orderNotFound);
const unavailable = () => new ApiError(ApiCode.SERVER_ERROR, BillingMsg.providerUnavailable);

/** What `/buyCredits` offers (contract RechargeOptions). */
export function rechargeOptions(app: FastifyInstance): RechargeOptions {
  return {
    pointPriceFen: app.config.billing.pointPriceFen,
    packages: POINT_PACKAGES,
    min: MIN_RECHARGE_POINTS,
    max: MAX_RECHARGE_POINTS,
    payTypes: [PayType.alipay, PayType.wechat],
    timeoutMinutes: app.config.billing.orderTimeoutMinutes,
  };
}

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

/** The order `orderNo`, if it is `userId`'s (any user when `userId` is null). */
export async function findOrder(
  db: Kysely<Database>,
  orderNo: string,
  userId: number | null,
): Promise<BillingOrderRow | undefined> {
  let q = db.selectFrom('billing_orders').selectAll().where('order_no', '=', orderNo);
  if (userId !== null) q = q.where('user_id', '=', userId);
  return q.executeTakeFirst();
}

async function ownedRecharge(
  db: Kysely<Database>,
  orderNo: string,
  userId: number,
): Promise<BillingOrderRow> {
  const o = await findOrder(db, orderNo, userId);
  if (!o || o.kind !== 'recharge') throw notFound();
  return o;
}

/** A recharge bought to pay for something: the purpose's name and that thing's id (migration 0015). */
export interface PurposeRef {
  name: string;
  id: number;
}

/**
 * The payment call (spec 02 §7 `{integral, type, order_no}`): creates a pending recharge of `integral` points (or
 * takes the caller's pending `order_no`, which must be unexpired, of the same pay type and, if given, the same
 * points) and opens the payment at its provider.
 * @throws ApiError 404 订单不存在, 400 not pending / expired / other pay type / other points, 500 provider down
 */
export async function pay(
  app: FastifyInstance,
  userId: number,
  body: PayBody,
  purpose?: PurposeRef,
): Promise<PayData> {
  const { db } = app.pdb;
  const now = nowSeconds();
  let order: BillingOrderRow;
  if (body.order_no) {
    order = await ownedRecharge(db, body.order_no, userId);
    if (Number(order.status) !== PayStatus.pending)
      throw new ApiError(ApiCode.BAD_REQUEST, BillingMsg.orderNotPending);
    if (now > Number(order.expires_at)) throw new ApiError(ApiCode.BAD_REQUEST, BillingMsg.orderExpired);
    if (Number(order.pay_type) !== body.type)
      throw new ApiError(ApiCode.BAD_REQUEST, BillingMsg.payTypeLocked);
    if (body.integral !== undefined && body.integral !== Number(order.points))
      throw new ApiError(ApiCode.BAD_REQUEST, BillingMsg.integralMismatch);
  } else {
    const points = body.integral!;
    order = await db
      .insertInto('billing_orders')
      .values({
        order_no: newOrderNo('R', now),
        user_id: userId,
        kind: 'recharge',
        points,
        amount_fen: points * app.config.billing.pointPriceFen,
        pay_type: body.type,
        status: PayStatus.pending,
        description: BillingMsg.rechargeDesc(points),
        expires_at: now + app.config.billing.orderTimeoutMinutes * 60,
        check_after: now + RECONCILE_MIN_AGE_SECONDS,
        ...(purpose ? { purpose: purpose.name, purpose_id: purpose.id } : {}),
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }
  const provider = app.billing.provider(body.type);
  const back = order.purpose ? rechargePurpose(order.purpose)?.returnPath(order) : undefined;
  const returnUrl = `${app.config.publicUrl}${back ?? `${BillingPages.result}?order_no=${order.order_no}`}`;
  let started;
  try {
    started = await provider.start({
      orderNo: order.order_no,
      amountFen: Number(order.amount_fen),
      description: order.description,
      expiresAt: Number(order.expires_at),
      returnUrl,
    });
  } catch (err) {
    if (err instanceof ProviderUnavailable) throw unavailable();
    throw err;
  }
  if (provider.payType === PayType.wechat && started.url !== order.pay_url) {
    await db.updateTable('billing_orders').set({ pay_url: started.url }).where('id', '=', order.id).execute();
  }
  return {
    order_no: order.order_no,
    type: body.type,
    url: started.url,
    ...(started.html ? { html: started.html } : {}),
    amountFen: Number(order.amount_fen),
    integral: Number(order.points),
  };
}

/**
 * Cancels the caller's pending recharge (`cancelPay`): closes the trade at the provider, then the order. When the
 * provider says it is paid, it is credited instead and the cancel refused.
 * @throws ApiError 404, 400 该订单不是待支付状态, 500 provider down (nothing changed)
 */
export async function cancelOrder(app: FastifyInstance, userId: number, orderNo: string): Promise<void> {
  const order = await ownedRecharge(app.pdb.db, orderNo, userId);
  if (Number(order.status) !== PayStatus.pending)
    throw new ApiError(ApiCode.BAD_REQUEST, BillingMsg.orderNotPending);
  const provider = app.billing.provider(Number(order.pay_type));
  try {
    const closed = await provider.close(orderNo);
    const trade = closed === 'refused' ? await provider.query(orderNo) : CLOSED_TRADE;
    const outcome = await applyTrade(app.pdb, orderNo, provider, trade);
    if (Number(outcome.order?.status) !== PayStatus.cancelled)
      throw new ApiError(ApiCode.BAD_REQUEST, BillingMsg.orderNotPending);
  } catch (err) {
    if (err instanceof ProviderUnavailable) throw unavailable();
    throw err;
  }
}

/**
 * The order's state for the return page (`doPay`, the caller's order) or the WeChat page (`wxIsPay`, any order by
 * its unguessable number): a pending order is first reconciled with its provider (at most every `minGapSeconds`
 * per order on the public path). A provider that cannot be asked leaves the state as stored.
 */
export async function orderStatus(
  app: FastifyInstance,
  orderNo: string,
  userId: number | null,
): Promise<OrderStatusData> {
  let order = await findOrder(app.pdb.db, orderNo, userId);
  if (!order || order.kind !== 'recharge') throw notFound();
  if (Number(order.status) === PayStatus.pending && shouldQuery(order.order_no, userId === null)) {
    try {
      order = (await reconcileOrder(app, order)).order ?? order;
    } catch (err) {
      if (!(err instanceof ProviderUnavailable)) throw err;
      app.log.warn({ err, orderNo }, 'provider unreachable while confirming an order');
    }
  }
  const status = Number(order.status) as PayStatusCode;
  return {
    order_no: order.order_no,
    status,
    pay_status: PAY_STATUS_TEXT[status],
    pay_type: Number(order.pay_type) as PayTypeCode,
    integral: Number(order.points),
  };
}

/** Last provider query per order on the public poll, ms (one process; enough to keep a page's poll cheap). */
const lastPublicQuery = new Map<string, number>();
/** Seconds between two provider queries of one order from the public poll. */
export const PUBLIC_QUERY_GAP_SECONDS = 5;

function shouldQuery(orderNo: string, isPublic: boolean): boolean {
  if (!isPublic) return true;
  const now = Date.now();
  if (now - (lastPublicQuery.get(orderNo) ?? 0) < PUBLIC_QUERY_GAP_SECONDS * 1000) return false;
  if (lastPublicQuery.size > 10_000) lastPublicQuery.clear();
  lastPublicQuery.set(orderNo, now);
  return true;
}

/**
 * `GET orderDetail`: the caller's order, a consumption marked refunded as in the list (its failed invoice's
 * application is the list's only). @throws ApiError 404
 */
export async function orderDetail(
  db: Kysely<Database>,
  userId: number,
  orderNo: string,
): Promise<OrderDetail> {
  const o = await findOrder(db, orderNo, userId);
  if (!o) throw notFound();
  const refunded = o.kind === 'spend' && (await refundedOrders(db, [Number(o.id)])).size > 0;
  return { ...orderRow(o, nowSeconds(), { refunded }), paidAt: Number(o.paid_at ?? 0) };
}

/** `GET wxOrder`: the WeChat pay page of a recharge, by its number (public). @throws ApiError 404 */
export async function payPage(db: Kysely<Database>, orderNo: string): Promise<PayPageData> {
  const o = await findOrder(db, orderNo, null);
  if (!o || o.kind !== 'recharge' || Number(o.pay_type) !== PayType.wechat) throw notFound();
  const row = orderRow(o);
  return {
    order_no: o.order_no,
    desc: o.description,
    integral: Number(o.points),
    amountFen: Number(o.amount_fen),
    status: row.status,
    pay_status: PAY_STATUS_TEXT[row.status],
    codeUrl: row.canPay ? o.pay_url : '',
    expiresAt: row.expiresAt,
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
async function refundedOrders(db: Kysely<Database>, ids: number[]): Promise<Set<number>> {
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
