/**
 * The operators' orders view of the billing area (spec 02 §3, §9; docs/decisions/015-operator-console-roles.md,
 * 018-billing.md): its calls, its query and its answers — an order with its stored notifications and its points
 * journal entries. Only the console's pages and billing's operator routes read it; the rest of billing's contract is
 * contract/billing.ts. No I/O.
 */
import { z } from 'zod';
import './zod-locale.ts';
import { opsPage } from './ops.ts';
import { blankToUndefined } from './validators.ts';
import {
  BillingMsg,
  type NotifyVerdict,
  type PayStatusCode,
  type PayStatusText,
  type PayTypeCode,
} from './billing.ts';

/** The operators' orders view ({@link BILLING_OPS_ROLE}; 403 无权访问 without it). Every call is audited. */
export const BillingOpsPaths = {
  /** `GET` {@link OpsOrdersQuery} → {@link OpsOrderListData}: by order number or mobile, newest first, 20 a page. */
  orders: '/api/ops/billing/orders',
  /** `GET {order_no}` → {@link OpsOrderDetail}: the order, its notifications (raw) and its journal entries. */
  order: '/api/ops/billing/order',
  /** `POST {order_no}` → {@link OpsOrderDetail}, msg 已完成对账: queries the provider now and applies the result. */
  reconcile: '/api/ops/billing/reconcile',
} as const;

/** `GET` ops orders query: `q` an order number (exact) or a mobile (exact); blank lists every order. */
export const OpsOrdersQuery = z.object({
  q: z.preprocess(blankToUndefined, z.string().trim().max(64, BillingMsg.searchTooLong).optional()),
  page: opsPage,
});
export type OpsOrdersQuery = z.infer<typeof OpsOrdersQuery>;

/** A row of the ops orders list. */
export interface OpsOrderRow {
  order_no: string;
  userId: number;
  mobile: string;
  integral: number;
  amountFen: number;
  pay_type: PayTypeCode;
  status: PayStatusCode;
  pay_status: PayStatusText;
  /** The provider's trade number once known, else ''. */
  tradeNo: string;
  /** A notification disagreed with the order or came after a close (see BillingMsg.flagged). */
  flagged: boolean;
  flagReason: string;
  createdAt: string;
  paidAt: string;
}
export interface OpsOrderListData {
  list: OpsOrderRow[];
  count: number;
}

/** A notification as stored: the raw request and our verdict. */
export interface OpsNotificationRow {
  id: number;
  /** The registered provider's name (`alipay`, `wechat`, or another; decision 058). */
  provider: string;
  verdict: NotifyVerdict;
  detail: string;
  /** The raw body as received (UTF-8) and the signature headers (WeChat). */
  raw: string;
  headers: string;
  receivedAt: string;
}

/** A points journal entry: `points` signed (credit > 0, debit < 0). */
export interface JournalRow {
  id: number;
  kind: 'recharge' | 'spend' | 'reversal';
  points: number;
  order_no: string;
  at: string;
}

/** `GET` ops order answer. */
export interface OpsOrderDetail {
  order: OpsOrderRow;
  notifications: OpsNotificationRow[];
  journal: JournalRow[];
  /** The user's balance now, points. */
  balance: number;
}
