/**
 * What the billing area's calls answer (spec 02 §3 "Recharge and consumption order", "Notary order (in the orders
 * tab)", §7 "Orders, payment and invoices"; docs/decisions/018-billing.md): the recharge options, a payment's
 * handoff, the orders list rows of its three tabs, an order's state and detail, the WeChat pay page and a
 * reconciliation pass. Types only, no zod: pages import them without loading a schema; contract/billing.ts re-exports
 * them. Money is integer fen, points are integers.
 */
import type {
  InvoiceStatusCode,
  NOTARY_PAY_TEXT,
  OrderTab,
  PayStatusCode,
  PayStatusText,
  PayTypeCode,
  ProviderPayType,
  REFUNDED_TEXT,
} from './billing-codes.ts';

/** `GET options`. */
export interface RechargeOptions {
  /** Price of one point, fen (POINT_PRICE_FEN, default 100). */
  pointPriceFen: number;
  packages: readonly number[];
  min: number;
  max: number;
  /** Providers accepted by `pay` (both, sandbox or real). */
  payTypes: ProviderPayType[];
  /** Minutes a pending order stays payable (ORDER_TIMEOUT_MINUTES, default 30). */
  timeoutMinutes: number;
}

/** `POST pay` answer. */
export interface PayData {
  order_no: string;
  type: ProviderPayType;
  /** Alipay: the cashier URL (GET); WeChat: the Native `code_url` to show as a QR code. */
  url: string;
  /** Alipay only: an HTML form that posts to the cashier by itself (spec 02 §7 "Alipay returns html"). */
  html?: string;
  /** Amount to pay, fen. */
  amountFen: number;
  integral: number;
}

/**
 * A row of tab 1 (recharges) or tab 2 (consumption) (spec 02 §3 "Recharge and consumption order"): `balance` is the
 * row's points (credited or spent), `money` its amount in fen (0 for consumption), `type` its tab.
 */
export interface PointsOrderRow {
  id: number;
  order_no: string;
  /** "YYYY-MM-DD HH:mm:ss" Beijing time. */
  create_time: string;
  desc: string;
  balance: number;
  money: number;
  type: typeof OrderTab.recharge | typeof OrderTab.consumption;
  pay_type: PayTypeCode;
  /** The status's text, or {@link REFUNDED_TEXT} for a consumption whose points were given back. */
  pay_status: PayStatusText | typeof REFUNDED_TEXT;
  status: PayStatusCode;
  /** Consumption only: its points were given back (a reversal in the points journal; exactly once). */
  refunded: boolean;
  invoiceStatus: InvoiceStatusCode;
  /**
   * A recharge with invoiceStatus 3: its latest rejected invoice application, whose reason /invoice/details?id=
   * shows (spec 02 §4 "Orders"); null otherwise.
   */
  failedApplicationId: number | null;
  /** A pending recharge can be paid again or cancelled. */
  canPay: boolean;
  /** Unix seconds when a pending order expires; 0 otherwise. */
  expiresAt: number;
}

/** A row of tab 3 (spec 02 §3 "Notary order (in the orders tab)"); rows arrive with notarisation. */
export interface NotaryOrderRow {
  id: number;
  orderNo: string;
  addTime: string;
  /** Points. */
  money: number;
  pay: (typeof NOTARY_PAY_TEXT)[keyof typeof NOTARY_PAY_TEXT];
  type: number;
}

/** `GET getOrderList` answer: tabs 1–2 → {@link PointsOrderRow}, tab 3 → {@link NotaryOrderRow}. */
export interface OrderListData<Row = PointsOrderRow | NotaryOrderRow> {
  count: number;
  list: Row[];
}

/** `doPay` / `wxIsPay` answer: the order's state after any provider query. */
export interface OrderStatusData {
  order_no: string;
  status: PayStatusCode;
  pay_status: PayStatusText;
  pay_type: PayTypeCode;
  integral: number;
  /** The caller's balance after it, points (doPay only; wxIsPay is public and leaves it out). */
  points?: number;
}

/** `GET orderDetail` answer (the result page). */
export interface OrderDetail extends PointsOrderRow {
  /** Unix seconds when paid, 0 otherwise. */
  paidAt: number;
}

/** `GET wxOrder` answer: the WeChat pay page. */
export interface PayPageData {
  order_no: string;
  desc: string;
  integral: number;
  amountFen: number;
  status: PayStatusCode;
  pay_status: PayStatusText;
  /** The QR content (`code_url`); '' when the order is no longer pending. */
  codeUrl: string;
  expiresAt: number;
}

/** `POST /api/internal/billing/reconcile` answer: what one pass did. */
export interface ReconcileData {
  /** Pending orders queried at their provider. */
  queried: number;
  credited: number;
  /** Expired orders closed (locally and at the provider). */
  closed: number;
  /** Orders whose provider could not be reached (retried later with backoff). */
  failed: number;
}
