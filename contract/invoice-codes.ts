/**
 * The invoice area's codes, labels, limits and pure rules without zod (spec 02 §3 "Invoice head", "Invoice
 * application", §4 "Orders", "Invoice application status", §5 "Invoice heads", "Invoice application", §9): what a
 * page (the `/orders` tab that ticks recharges, the invoice pages) shows or checks without loading the area's
 * schemas. contract/invoice.ts re-exports all of it. The platform applies the same rules in its transaction; these
 * copies only explain to the user why a row cannot be ticked. No I/O. Docs: docs/decisions/022-invoices.md.
 */
import {
  InvoiceStatus,
  PayStatus,
  PayType,
  type InvoiceStatusCode,
  type PayStatusCode,
  type PayTypeCode,
} from './billing-codes.ts';

/** Invoice head types (spec 02 §3): the VAT electronic ordinary invoice and the VAT paper special invoice. */
export const INVOICE_TYPES = ['ENTERPRISE', 'ENTERPRISE_SPECIAL'] as const;
/** An invoice head type. */
export type InvoiceType = (typeof INVOICE_TYPES)[number];
/** Type labels, zh-CN. */
export const INVOICE_TYPE_TEXT: Readonly<Record<InvoiceType, string>> = {
  ENTERPRISE: '增值税电子普通发票',
  ENTERPRISE_SPECIAL: '增值税专用发票',
};

/** At most 5 invoice heads per user (spec 02 §5, §9). */
export const MAX_INVOICE_HEADS = 5;
/** At most 5 invoices per application (spec 02 §5, §9): an application holds at most 5 orders (decision 022). */
export const MAX_ORDERS_PER_APPLICATION = 5;
/** At most 5 invoice files issued for one application (decision 022: one per order at most). */
export const MAX_INVOICE_FILES = 5;
/** One issued invoice file, bytes (ours: 10 MB; a tax-system PDF/OFD is well under 1 MB). */
export const INVOICE_FILE_MAX_BYTES = 10 * 1024 * 1024;
/** The user's remark, characters (spec 02 §5, §9). */
export const REMARK_MAX_CHARS = 150;
/** The operator's rejection reason, characters (ours). */
export const CHECK_REMARK_MAX_CHARS = 200;
/** Rows per page of the application list (spec 02 §9). */
export const INVOICE_PAGE_SIZE = 10;
/** The only invoice content (spec 02 §9). */
export const INVOICE_CONTENT = '技术服务费';
/** Shipping is free from this total of one application, fen (spec 02 §9: 200 yuan); below it, cash on delivery. */
export const FREE_SHIPPING_FEN = 20_000;

/** Invoice application status (spec 02 §4 "Invoice application status"). */
export const ApplyStatus = { waiting: 1, submitted: 2, issued: 3, rejected: 4 } as const;
/** An application status 1–4. */
export type ApplyStatusCode = (typeof ApplyStatus)[keyof typeof ApplyStatus];
/**
 * Per status code, verbatim: its status text (spec 02 §4) and the list's filter label (spec 02 §4 "Filter labels"),
 * which differ for 2 (提交财务 / 开票中) and 4 (审核不通过 / 已拒绝).
 */
const APPLY_LABELS: Readonly<Record<ApplyStatusCode, readonly [status: string, filter: string]>> = {
  1: ['待开票', '待开票'],
  2: ['提交财务', '开票中'],
  3: ['已开票', '已开票'],
  4: ['审核不通过', '已拒绝'],
};
const applyLabel = (which: 0 | 1) =>
  Object.fromEntries(Object.entries(APPLY_LABELS).map(([code, labels]) => [code, labels[which]])) as Readonly<
    Record<ApplyStatusCode, string>
  >;
/** Status texts by code (spec 02 §4). */
export const APPLY_STATUS_TEXT = applyLabel(0);
/** The list's filter labels by code (spec 02 §4 "Filter labels"). */
export const APPLY_FILTER_TEXT = applyLabel(1);

/** `/invoice?activeName=` tabs (spec 02 §2 "Invoices"). */
export const InvoiceTab = { applications: '1', heads: '2' } as const;
export const INVOICE_TAB_TEXT = { '1': '开票申请', '2': '发票抬头管理' } as const;

/** How an application's invoices travel (spec 02 §9; decision 022): paper ones by courier, free or cash on delivery. */
export type Shipping = 'electronic' | 'free' | 'cod';
export const SHIPPING_TEXT: Readonly<Record<Shipping, string>> = {
  electronic: '电子发票，开具后可在详情页下载',
  free: '包邮（单次申请满200元）',
  cod: '快递到付（单次申请未满200元）',
};

/**
 * How an application of `type` totalling `moneyFen` travels (spec 02 §9: free shipping when one application reaches
 * 200 yuan, otherwise cash on delivery; electronic invoices are not shipped).
 */
export function shippingFor(type: InvoiceType, moneyFen: number): Shipping {
  if (type === 'ENTERPRISE') return 'electronic';
  return moneyFen >= FREE_SHIPPING_FEN ? 'free' : 'cod';
}

/** Why a recharge cannot be ticked for an invoice (zh-CN, ours; decision 022). */
export const InvoiceBlockMsg = {
  notPaid: '未支付的订单不能开票',
  balance: '积分余额支付的订单不能开票',
  inProgress: '该订单正在开票中',
  invoiced: '该订单已开票',
  otherYear: '仅可开具本年度订单的发票',
} as const;

/** The fields of a recharge row the rule reads (contract/billing.ts `PointsOrderRow`). */
export interface InvoiceableRow {
  status: PayStatusCode;
  pay_type: PayTypeCode;
  invoiceStatus: InvoiceStatusCode;
  /** "YYYY-MM-DD HH:mm:ss" Beijing time. */
  create_time: string;
}

/** The Beijing (UTC+8) calendar year of `nowMs` (milliseconds since the epoch). */
export function beijingYear(nowMs: number): number {
  return new Date(nowMs + 8 * 3600_000).getUTCFullYear();
}

/**
 * Why `row` cannot be invoiced now, or null when it can (spec 02 §4 "Orders": only paid recharges that are not
 * balance-paid with invoiceStatus 0 or 3; §9: only in the year of the order, Beijing time).
 * @param nowMs milliseconds since the epoch
 */
export function invoiceBlockReason(row: InvoiceableRow, nowMs: number): string | null {
  if (row.status !== PayStatus.paid) return InvoiceBlockMsg.notPaid;
  if (row.pay_type === PayType.balance) return InvoiceBlockMsg.balance;
  if (row.invoiceStatus === InvoiceStatus.inProgress) return InvoiceBlockMsg.inProgress;
  if (row.invoiceStatus === InvoiceStatus.invoiced) return InvoiceBlockMsg.invoiced;
  if (Number(row.create_time.slice(0, 4)) !== beijingYear(nowMs)) return InvoiceBlockMsg.otherYear;
  return null;
}

/**
 * Parses the ids of `/orders/makeOutInvoice?ids=` and `invoiceAsk`: a JSON-ish list `[1,2]` (spec 02 §2), `1,2`, or
 * repeated fields (a form without JavaScript). Returns positive integers, deduplicated, in order; null when any
 * element is not one. An empty input gives [].
 */
export function parseOrderIds(value: unknown): number[] | null {
  const parts: unknown[] = Array.isArray(value)
    ? value
    : value === undefined || value === null
      ? []
      : [value];
  const out: number[] = [];
  for (const part of parts) {
    const text = typeof part === 'number' ? String(part) : typeof part === 'string' ? part : null;
    if (text === null) return null;
    const inner = text.trim().replace(/^\[/, '').replace(/\]$/, '');
    for (const piece of inner.split(',')) {
      const s = piece.trim();
      if (s === '') continue;
      if (!/^[1-9]\d{0,14}$/.test(s)) return null;
      const n = Number(s);
      if (!out.includes(n)) out.push(n);
    }
  }
  return out;
}

/** Invoice messages, zh-CN: the spec's verbatim where it gives one (§5, §8), the rest ours (decision 022). */
export const InvoiceMsg = {
  // spec 02 §5, §8 verbatim
  headRequired: '请选择发票信息',
  addressRequired: '请选择要送达的地址',
  ordersRequired: '请先勾选可供开票的订单记录',
  tooManyHeads: `最多保存 ${MAX_INVOICE_HEADS} 个发票抬头信息`,
  headAdded: '新增成功',
  headEdited: '修改成功',
  headDeleted: '已删除该条发票抬头',
  asked: '提交成功',
  // ours
  taxNumInvalid: '请输入正确的纳税人识别号（统一社会信用代码或15、17、18、20位税号）',
  typeRequired: '请选择发票类型',
  phoneInvalid: '请输入正确的注册电话',
  remarkTooLong: `备注不能超过${REMARK_MAX_CHARS}个字符`,
  tooManyOrders: `每次申请最多选择${MAX_ORDERS_PER_APPLICATION}条订单`,
  /** An id of the ask that is not a tickable recharge of the caller (with the row's reason when it is theirs). */
  orderNotInvoiceable: (orderNo: string, reason: string) => `订单${orderNo}不可开票：${reason}`,
  orderNotFound: '订单不存在',
  moneyMismatch: '开票金额与所选订单不一致，请刷新后重试',
  headNotFound: '发票抬头不存在',
  addressNotFound: '地址不存在',
  applicationNotFound: '开票申请不存在',
  fileNotFound: '发票文件不存在',
  notRejected: '该申请未被拒绝',
  // the finance queue
  wrongState: '该申请当前状态不能进行此操作',
  checkRemarkRequired: '请填写拒绝原因',
  checkRemarkTooLong: `拒绝原因不能超过${CHECK_REMARK_MAX_CHARS}个字符`,
  courierRequired: '请填写快递单号',
  courierInvalid: '请输入正确的快递单号（6-30位字母或数字）',
  filesRequired: '请上传发票文件（PDF或OFD）',
  fileType: '发票文件须为PDF或OFD格式',
  tooManyFiles: '每个申请最多上传5个发票文件',
  /** A file field of the issue form sent twice (e.g. one input with `multiple`): each field carries one file. */
  fileFieldRepeated: '每个文件选择框只能选择一个发票文件',
  submittedToFinance: '已提交财务',
  issued: '已开票',
  rejected: '已拒绝该申请',
  // notifications to the user
  issuedNews: (applyNo: string) => `您的开票申请${applyNo}已开票。`,
  rejectedNews: (applyNo: string, reason: string) => `您的开票申请${applyNo}审核不通过：${reason}`,
} as const;
