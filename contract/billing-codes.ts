/**
 * The billing area's codes and labels without zod (spec 02 §3 "Recharge and consumption order", §4 "Orders", §9):
 * pay types, order tabs, statuses, invoice states, their zh-CN texts, the list and recharge constants, the
 * notification verdicts and the fen formatter — what a page or the shell shows without loading the area's schemas.
 * contract/billing.ts re-exports all of it. No I/O.
 */

/** Rows per page of the orders list (spec 02 §9). */
export const ORDERS_PAGE_SIZE = 10;
/** Preset packages of `/buyCredits`, points (ours). */
export const POINT_PACKAGES: readonly number[] = [10, 50, 100, 200, 500, 1000];
/** Smallest custom recharge, points. */
export const MIN_RECHARGE_POINTS = 1;
/** Largest custom recharge, points (ours: ¥50,000 at the default price). */
export const MAX_RECHARGE_POINTS = 50_000;
/** Seconds to add to a chosen end day's 00:00 to reach its end (spec 02 §9: end day plus 86400-1). */
export const END_OF_DAY_SECONDS = 86400 - 1;

/** pay_type codes (spec 02 §3, §9): 1 balance (consumption), 2 Alipay, 3 WeChat. */
export const PayType = { balance: 1, alipay: 2, wechat: 3 } as const;
/** A pay_type code. */
export type PayTypeCode = (typeof PayType)[keyof typeof PayType];
/** Providers a recharge can be paid with. */
export type ProviderPayType = typeof PayType.alipay | typeof PayType.wechat;

/** Order tabs of `/orders` and `getOrderList.type` (spec 02 §2 "Orders"). */
export const OrderTab = { recharge: 1, consumption: 2, notary: 3 } as const;
/** A tab code 1–3. */
export type OrderTabCode = (typeof OrderTab)[keyof typeof OrderTab];
/** Tab labels, verbatim (spec 02 §2). */
export const ORDER_TAB_LABELS: Readonly<Record<OrderTabCode, string>> = {
  1: '充值记录',
  2: '消费记录',
  3: '公证出证',
};

/** Order status codes (the `isType` filter and the rows' `status`; spec 02 §4 "Orders" names the four states). */
export const PayStatus = { pending: 1, paid: 2, cancelled: 3, failed: 4 } as const;
/** A status code 1–4. */
export type PayStatusCode = (typeof PayStatus)[keyof typeof PayStatus];
/** pay_status texts of recharge and consumption rows, verbatim (spec 02 §3, §4). */
export const PAY_STATUS_TEXT = {
  1: '待支付',
  2: '已支付',
  3: '已取消',
  4: '支付失败',
} as const satisfies Record<PayStatusCode, string>;
/** A pay_status text. */
export type PayStatusText = (typeof PAY_STATUS_TEXT)[PayStatusCode];
/**
 * pay_status text of a consumption whose points were given back (a notary order ended after payment, or terminated
 * by the office). Not one of the spec's four states (spec 02 §3, §4): ours, docs/decisions/019-billing-screens.md
 * "Refunded consumptions". The row's `status` stays 2 (paid), so the 已支付 filter still finds it.
 */
export const REFUNDED_TEXT = '已退款';
/** pay texts of notary rows in tab 3 (spec 02 §3 "Notary order (in the orders tab)"): the notarisation area's. */
export { NOTARY_PAY_TEXT } from './notary-codes.ts';

/** invoiceStatus of a recharge (spec 02 §3, §4): 0 not invoiced, 1 in progress, 2 invoiced, 3 failed. */
export const InvoiceStatus = { none: 0, inProgress: 1, invoiced: 2, failed: 3 } as const;
/** An invoiceStatus 0–3. */
export type InvoiceStatusCode = (typeof InvoiceStatus)[keyof typeof InvoiceStatus];
/** invoiceStatus labels (ours). */
export const INVOICE_STATUS_TEXT: Readonly<Record<InvoiceStatusCode, string>> = {
  0: '未开票',
  1: '开票中',
  2: '已开票',
  3: '开票失败',
};

/** Pay-type labels (ours). */
export const PAY_TYPE_TEXT: Readonly<Record<PayTypeCode, string>> = {
  1: '积分余额',
  2: '支付宝',
  3: '微信支付',
};

/** Formats fen as yuan with two decimals, integer arithmetic only (`5000` → `'50.00'`, `-5` → `'-0.05'`). */
export function formatFen(fen: number): string {
  const sign = fen < 0 ? '-' : '';
  const a = Math.abs(Math.trunc(fen));
  return `${sign}${Math.floor(a / 100)}.${String(a % 100).padStart(2, '0')}`;
}

/** The verdict stored with every notification received. */
export const NOTIFY_VERDICTS = [
  'applied',
  'duplicate',
  'bad-signature',
  'stale-timestamp',
  'bad-ciphertext',
  'malformed',
  'unknown-order',
  'mismatch',
  'after-close',
  'not-paid',
  'error',
] as const;
export type NotifyVerdict = (typeof NOTIFY_VERDICTS)[number];
