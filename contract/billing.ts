/**
 * The billing area's contract (spec 02 §1, §2 "Orders" and "Notary order payment", §3 "Recharge and consumption
 * order", §4 "Orders", §7 "Orders, payment and invoices", §9; spec 01 `/weChat/{orderId}`): points, recharge orders,
 * Alipay page pay and WeChat Pay Native, the orders list with its three tabs, the payment callbacks and every billing
 * message (`BillingMsg`); the operators' orders view is contract/billing-ops.ts; the zod-free codes, labels and
 * constants (packages, bounds, page size) live in contract/billing-codes.ts and the answers' types in
 * contract/billing-answers.ts, both re-exported here. Money is integer fen and points are integers everywhere; what
 * the spec leaves open is in docs/decisions/018-billing.md. No I/O.
 */
import { z } from 'zod';
import './zod-locale.ts';
import type { OpsRole } from './ops.ts';
import { blankToUndefined, optionalInt } from './validators.ts';
import {
  MAX_RECHARGE_POINTS,
  MIN_RECHARGE_POINTS,
  type OrderTabCode,
  type PayStatusCode,
  type ProviderPayType,
} from './billing-codes.ts';

export * from './billing-codes.ts';
export type * from './billing-answers.ts';

/** The role that opens the orders view of the operator console (contract/ops.ts `finance`). */
export const BILLING_OPS_ROLE: OpsRole = 'finance';

/** Billing messages, zh-CN. The spec shows none of them in Chinese: all ours (docs/decisions/018-billing.md). */
export const BillingMsg = {
  integralRequired: '请选择或输入充值积分',
  integralRange: `充值积分须为${MIN_RECHARGE_POINTS}-${MAX_RECHARGE_POINTS}的整数`,
  /** A points field given as text with anything but the digits 0-9 (`1e3`, `0x10`, `+5`, `5.0`; decision 057). */
  integralDigits: '充值积分只能填写数字0-9，不能含小数点、正负号、字母或空格',
  payTypeRequired: '请选择支付方式',
  orderNoInvalid: '订单号格式不正确',
  orderNotFound: '订单不存在',
  orderNotPending: '该订单不是待支付状态',
  orderExpired: '订单已超时关闭，请重新下单',
  /** Paying a pending order with the other provider than the one it was started with. */
  payTypeLocked: '该订单已选择其他支付方式，请使用原支付方式支付或重新下单',
  integralMismatch: '充值积分与订单不一致',
  providerUnavailable: '支付服务暂不可用，请稍后再试',
  cancelled: '订单已取消',
  /** `doPay`/`wxIsPay` answers by state. */
  paid: '支付成功',
  pending: '订单待支付',
  failed: '支付失败',
  closed: '订单已关闭',
  insufficientPoints: '积分不足，请先充值',
  pointsInvalid: '积分须为正整数',
  /** Order descriptions (the rows' `desc` and the provider's subject). */
  rechargeDesc: (points: number) => `充值${points}积分`,
  spendDesc: (points: number) => `消费${points}积分`,
  reversalDesc: (points: number) => `退还${points}积分`,
  /** The labels of billing's points sources on the points page (积分明细; decision 057). */
  sourceRecharge: '充值',
  sourceSpend: '公证消费',
  sourceReversal: '退还',
  /** The notification a user receives when a recharge is credited. */
  rechargedNews: (points: number) => `您已成功充值${points}积分。`,
  // the operators' orders view
  searchTooLong: '搜索内容不能超过64个字符',
  reconciled: '已完成对账',
  /** A notification that does not match the order (amount, merchant, …) or arrives after a close: for finance. */
  flagged: '该订单存在异常支付通知，请核对',
} as const;

/**
 * The users' billing calls (bearer token unless marked public). Spec 02 §7 names getOrderList, cancelPay, doPay and
 * wxIsPay; the payment call's path is "not shown" (ours: `pay`); the others are ours.
 */
export const BillingPaths = {
  /** `GET` → {@link RechargeOptions}: price per point, packages, bounds, which providers are on. Public. */
  options: '/api/alipay/options',
  /**
   * `POST` {@link PayBody} `{integral, type, order_no?}` → {@link PayData}: without order_no creates a pending
   * recharge of `integral` points and starts paying it; with order_no pays that pending order again (same
   * provider). Alipay: `url` (GET redirect to the cashier, works without JS) and `html` (auto-submitting form);
   * WeChat: `url` = the Native `code_url` and `order_no` (then open `/weChat/{order_no}`).
   */
  pay: '/api/alipay/pay',
  /** `POST {order_no}` → msg 订单已取消; only a pending order of the caller; closed at the provider too. */
  cancelPay: '/api/alipay/cancelPay',
  /**
   * `POST {order_no}` → {@link OrderStatusData}: the return page's confirmation. Reads the order (never the return
   * URL's query); a pending order is queried at its provider and applied exactly once. Caller's order only.
   */
  doPay: '/api/alipay/doPay',
  /**
   * `POST {order_no}` → {@link OrderStatusData}: the `/weChat/{orderNo}` page's poll. Public (the order number is
   * unguessable and the answer holds no personal data); a pending order is queried at WeChat at most every 5 s.
   */
  wxIsPay: '/api/alipay/wxIsPay',
  /** `GET {order_no}` → {@link PayPageData}: what `/weChat/{orderNo}` shows (amount, QR content, state). Public. */
  wxOrder: '/api/alipay/wxOrder',
  /** `GET {order_no}` → {@link OrderDetail}: the result page; the caller's order only. */
  orderDetail: '/api/processorder/orderDetail',
  /** `GET` {@link OrderListQuery} → {@link OrderListData}, 10 a page, newest first. */
  getOrderList: '/api/processorder/getOrderList',
} as const;

/**
 * The providers' asynchronous notifications: public URLs of the gateway (proxied to the platform unchanged), one
 * `POST /api/notify/{provider}` for every registered provider, which parses and answers its own wire format
 * (decision 058). Alipay posts form-encoded and gets the literal `success`/`fail`; WeChat posts JSON and gets 204 or
 * `{code:'FAIL',message}`.
 */
export const BillingNotifyPaths = {
  alipay: '/api/notify/alipay',
  wechat: '/api/notify/wechat',
  /** The route of every provider (Fastify's pattern). */
  route: '/api/notify/:provider',
  /** The notification URL of the provider registered as `name`. */
  of: (name: string) => `/api/notify/${encodeURIComponent(name)}`,
} as const;

/** Pages of the app the platform builds URLs to (the Alipay return URL; the WeChat pay page, spec 01). */
export const BillingPages = {
  /** The result page; `?order_no=` is appended (Alipay adds its own query, which the page ignores). */
  result: '/buyCredits/result',
  /** The WeChat pay page (spec 02 §2 "Notary order payment": `/weChat/{orderNo}`). */
  weChat: (orderNo: string) => `/weChat/${encodeURIComponent(orderNo)}`,
  buyCredits: '/buyCredits',
  orders: '/orders',
} as const;

/** The gateway job's call (`x-internal-key`): `POST` → {@link ReconcileData}. */
export const BillingInternalPaths = { reconcile: '/api/internal/billing/reconcile' } as const;

/** An order number: 'R' (recharge) or 'C' (consumption) then 20–40 letters and digits. */
export const ORDER_NO_RE = /^[RC][0-9A-Za-z]{20,40}$/;
/** `order_no` field: required, {@link ORDER_NO_RE}. */
export const orderNo = z.preprocess(
  blankToUndefined,
  z.string({ error: BillingMsg.orderNoInvalid }).trim().regex(ORDER_NO_RE, BillingMsg.orderNoInvalid),
);
/** `{order_no}` body/query of cancelPay, doPay, wxIsPay, wxOrder, orderDetail and the ops calls. */
export const OrderNoBody = z.object({ order_no: orderNo });
export type OrderNoBody = z.infer<typeof OrderNoBody>;

/** What a points or money field given as text may hold: decimal digits and nothing else (decision 057). */
export const DECIMAL_DIGITS_RE = /^[0-9]+$/;

/**
 * A whole number of points or fen within [min, max]: a JSON number, or text of decimal digits only
 * ({@link DECIMAL_DIGITS_RE} after trimming the blanks around it), so `1e3`, `0x10`, `+5`, `5.0`, `0b11` or
 * `Infinity` never pass for a number as `Number()` would read them (decision 057).
 * @param msg `required` (blank or missing), `digits` (text with anything but 0-9), `range` (not an integer within
 *   [min, max])
 */
export function decimalCount(
  min: number,
  max: number,
  msg: { required: string; digits: string; range: string },
) {
  return z.preprocess(
    blankToUndefined,
    z
      .unknown()
      .transform((v, ctx) => {
        if (typeof v === 'number') return v;
        if (typeof v === 'string' && DECIMAL_DIGITS_RE.test(v.trim())) return Number(v.trim());
        ctx.addIssue({ code: 'custom', message: typeof v === 'string' ? msg.digits : msg.required });
        return z.NEVER;
      })
      .pipe(z.number().int(msg.range).min(min, msg.range).max(max, msg.range)),
  );
}

/**
 * Points to buy: an integer from {@link MIN_RECHARGE_POINTS} to {@link MAX_RECHARGE_POINTS}, a JSON number or
 * decimal digits ({@link decimalCount}).
 */
export const integral = decimalCount(MIN_RECHARGE_POINTS, MAX_RECHARGE_POINTS, {
  required: BillingMsg.integralRequired,
  digits: BillingMsg.integralDigits,
  range: BillingMsg.integralRange,
});

/** Pay type of the payment call: '2' Alipay or '3' WeChat (spec 02 §9 codes), as text or number. */
export const providerPayType = z.preprocess(
  (v) => (typeof v === 'number' ? String(v) : blankToUndefined(v)),
  z.enum(['2', '3'], { error: BillingMsg.payTypeRequired }).transform((v) => Number(v) as ProviderPayType),
);

/**
 * The payment call's body (spec 02 §7 `{integral, type, order_no}`): a new recharge (`integral` required, `order_no`
 * blank) or a pending order paid again (`order_no`; `integral` optional and then must equal the order's points).
 */
export const PayBody = z
  .object({
    integral: z.preprocess(blankToUndefined, integral.optional()),
    type: providerPayType,
    order_no: z.preprocess(blankToUndefined, orderNo.optional()),
  })
  .superRefine((v, ctx) => {
    if (v.order_no === undefined && v.integral === undefined) {
      ctx.addIssue({ code: 'custom', message: BillingMsg.integralRequired, path: ['integral'] });
    }
  });
export type PayBody = z.infer<typeof PayBody>;

/** The `/buyCredits` form: a preset package or a custom amount (`custom` wins when filled), and the pay type. */
export const BuyCreditsForm = z.object({
  integral: z.preprocess(
    (v) => (Array.isArray(v) ? v.find((x) => blankToUndefined(x) !== undefined) : v),
    integral,
  ),
  type: providerPayType,
});

/**
 * `GET getOrderList` query (spec 02 §7 `{startTime, endTime, page, type, isType}`): `type` the tab 1–3 (default 1);
 * `isType` a status filter ({@link PayStatus} 1–4; tab 3 uses 1 pending / 2 paid / 3 cancelled; blank = all);
 * `startTime`/`endTime` unix seconds, inclusive, `endTime` already at the end of the chosen day
 * (+{@link END_OF_DAY_SECONDS}); `page` from 1.
 */
export const OrderListQuery = z.object({
  startTime: optionalInt(0, 4_102_444_800),
  endTime: optionalInt(0, 4_102_444_800),
  page: optionalInt(1, 100_000).transform((v) => v ?? 1),
  type: optionalInt(1, 3).transform((v) => (v ?? 1) as OrderTabCode),
  isType: optionalInt(1, 4).transform((v) => v as PayStatusCode | undefined),
});
export type OrderListQuery = z.infer<typeof OrderListQuery>;
