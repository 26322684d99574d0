/**
 * The billing area's tables as Kysely sees them (migrations 0007_billing, 0015_billing_purpose, 0026_points_sources):
 * recharge and consumption orders and every payment notification received. They join the platform's `Database` by
 * interface merging, so the area adds no line to platform/db/schema.ts. The points journal is the points API's
 * table (platform/points/schema.ts). Money is integer fen, points integers, times unix seconds.
 */
import type { ColumnType, Generated, Selectable } from 'kysely';

/** A column with a database default or NULL: optional on insert. */
type Defaulted<T> = ColumnType<T, T | undefined, T>;

/** `recharge`: points bought with a provider; `spend`: points consumed (pay_type 1). */
export type OrderKind = 'recharge' | 'spend';
/**
 * Billing's kinds of points sources (platform/billing/journal.ts registers them): the credit of a paid recharge, the
 * debit of a consumption, the reversal of a debit. Each entry's reference is its order's number.
 */
export type JournalKind = 'recharge' | 'spend' | 'reversal';

export interface BillingOrdersTable {
  id: Generated<number>;
  /** Unique and unguessable ('R'/'C' + Beijing date + 80 random bits); the provider's out_trade_no. */
  order_no: string;
  user_id: number;
  kind: OrderKind;
  /** Points bought or spent (> 0). */
  points: number;
  /** Amount to pay, fen (0 for consumption). */
  amount_fen: number;
  /** 1 balance, 2 Alipay, 3 WeChat (spec 02 §9). */
  pay_type: number;
  /** 1 pending, 2 paid, 3 cancelled, 4 failed (contract PayStatus). */
  status: number;
  description: string;
  /** The provider's trade number once known, else ''. */
  trade_no: Defaulted<string>;
  /** WeChat Native code_url ('' otherwise). */
  pay_url: Defaulted<string>;
  /** 0–3 (spec 02 §3 invoiceStatus). */
  invoice_status: Defaulted<number>;
  /** '' or why finance must look at it ('mismatch', 'after-close', 'closed-after-paid'). */
  flag: Defaulted<string>;
  flag_reason: Defaulted<string>;
  /** A pending order can be paid until then (ORDER_TIMEOUT_MINUTES after creation). */
  expires_at: number;
  paid_at: Defaulted<number | null>;
  closed_at: Defaulted<number | null>;
  /** The reconciler looks at a pending order again from then on (backoff). */
  check_after: Defaulted<number>;
  check_attempts: Defaulted<number>;
  /** What the recharge was bought for: '' plain, 'notary' a notary order (migration 0015). */
  purpose: Defaulted<string>;
  /** The id of what it was bought for (the notary order), else null. */
  purpose_id: Defaulted<number | null>;
  created_at: number;
  updated_at: number;
}

export interface BillingNotificationsTable {
  id: Generated<number>;
  /** The registered provider's name (`alipay`, `wechat`, or another; platform/billing/providers.ts). */
  provider: string;
  /** The order number the notification names ('' when it could not be read). */
  order_no: string;
  verdict: string;
  detail: string;
  /** The provider's notification id (WeChat `id`, Alipay `notify_id`). */
  notify_id: string;
  /** The body exactly as received (UTF-8). */
  raw_body: string;
  /** JSON of the signature headers (WeChat), '{}' for Alipay. */
  headers: string;
  received_at: number;
}

declare module '../db/schema.ts' {
  interface Database {
    billing_orders: BillingOrdersTable;
    billing_notifications: BillingNotificationsTable;
  }
}

export type BillingOrderRow = Selectable<BillingOrdersTable>;
export type BillingNotificationRow = Selectable<BillingNotificationsTable>;
