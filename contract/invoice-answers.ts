/**
 * What the invoice area's calls answer (spec 02 §3 "Invoice head", "Invoice application", "Invoice detail",
 * "Invoice order row", §7; docs/decisions/022-invoices.md): heads, the preview, the applications list, an
 * application's detail with its orders and issued files, and the finance queue's rows and detail. Types only, no
 * zod: pages import them without loading a schema; contract/invoice.ts re-exports them. Money is integer fen.
 */
import type { ApplyStatusCode, InvoiceType, Shipping } from './invoice-codes.ts';
import type { PayTypeCode } from './billing-codes.ts';

/** An invoice head (spec 02 §3). Empty strings for the fields an ENTERPRISE head left out. */
export interface InvoiceHead {
  id: number;
  head: string;
  taxNum: string;
  type: InvoiceType;
  bankName: string;
  account: string;
  street: string;
  phoneNumber: string;
}

/** An invoice order row (spec 02 §3): one recharge of an application. */
export interface InvoiceOrderRow {
  id: number;
  order_no: string;
  /** "YYYY-MM-DD HH:mm:ss" Beijing time. */
  create_time: string;
  order_desc: string;
  /** Fen. */
  money: number;
  pay_type: PayTypeCode;
}

/** `invoicePreview` answer. */
export interface InvoicePreview {
  orders: InvoiceOrderRow[];
  /** The total of the orders, fen (recomputed; the query's money is never used). */
  money: number;
  /** True when the request carried a `money` different from {@link money}. */
  moneyChanged: boolean;
  content: string;
  /** Shipping per head type for this total (contract/invoice-codes.ts `shippingFor`). */
  shipping: Record<InvoiceType, Shipping>;
}

/** An application row of the list (spec 02 §3 "Invoice application"). */
export interface InvoiceApplicationRow {
  id: number;
  /** The application's number ("F" + digits; ours). */
  order_no: string;
  create_time: string;
  /** Fen. */
  money: number;
  orderCount: number;
  status: ApplyStatusCode;
}
export interface InvoiceListData {
  count: number;
  list: InvoiceApplicationRow[];
}

/** An issued file as the owner sees it (download through `invoiceFile`). */
export interface InvoiceFileInfo {
  id: number;
  /** Display name, e.g. 发票1.pdf. */
  name: string;
  /** 'pdf' | 'ofd'. */
  format: 'pdf' | 'ofd';
  /** Bytes. */
  size: number;
}

/**
 * An application's detail (spec 02 §3 "Invoice detail"): the head and the delivery address as they were when asked
 * (snapshots), the remarks and the courier number, plus ours: number, time, money, content, shipping and files.
 */
export interface InvoiceDetail {
  id: number;
  order_no: string;
  create_time: string;
  money: number;
  status: ApplyStatusCode;
  type: InvoiceType;
  head: string;
  tax_num: string;
  bank_name: string;
  account: string;
  street: string;
  phone_number: string;
  /** The recipient. */
  name: string;
  post_phone_number: string;
  /** Province, city, area and street joined. */
  address: string;
  email: string;
  remark: string;
  check_remark: string;
  courier_number: string;
  content: string;
  shipping: Shipping;
  files: InvoiceFileInfo[];
  /** "YYYY-MM-DD HH:mm:ss" when issued or rejected, else ''. */
  decided_time: string;
}
/** `invoiceDetail` answer (spec 02 §7 "returns orderList and detail"). */
export interface InvoiceDetailData {
  detail: InvoiceDetail;
  orderList: InvoiceOrderRow[];
}

/** A row of the finance queue. */
export interface InvoiceQueueRow extends InvoiceApplicationRow {
  userId: number;
  mobile: string;
  type: InvoiceType;
  head: string;
}
export interface InvoiceQueueData {
  count: number;
  list: InvoiceQueueRow[];
}
/** What the finance operator sees of one application. */
export interface InvoiceOpsDetail extends InvoiceDetailData {
  userId: number;
  mobile: string;
}
