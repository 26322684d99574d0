/**
 * Recharge orders (spec 02 §2 "Orders", §3 "Recharge and consumption order", §4 "Orders", §7; docs/decisions/
 * 018-billing.md): creating and paying a recharge, paying a pending one again, cancelling it (closed at the provider
 * first), an order's detail and state (the orders list is in `platform/billing/order-list.ts`). Amounts are integer fen
 * (`POINT_PRICE_FEN` a point); every query of a user's orders is scoped to the user (another user's order: 404).
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import {
  BillingMsg,
  BillingPages,
  MAX_RECHARGE_POINTS,
  MIN_RECHARGE_POINTS,
  PAY_STATUS_TEXT,
  POINT_PACKAGES,
  PayStatus,
  PayType,
  type OrderDetail,
  type OrderStatusData,
  type PayBody,
  type PayData,
  type PayPageData,
  type PayStatusCode,
  type PayTypeCode,
  type RechargeOptions,
} from '../../contract/billing.ts';
import { ApiCode } from '../../contract/envelope.ts';
import { ApiError } from '../core/errors.ts';
import { nowSeconds } from '../core/time.ts';
import type { Database } from '../db/schema.ts';
import { newOrderNo } from './money.ts';
import { applyTrade, rechargePurpose } from './apply.ts';
import { CLOSED_TRADE, ProviderUnavailable } from './providers.ts';
import { reconcileOrder, RECONCILE_MIN_AGE_SECONDS } from './reconcile.ts';
import type { BillingOrderRow } from './schema.ts';
import { orderRow, refundedOrders } from './order-list.ts';

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
