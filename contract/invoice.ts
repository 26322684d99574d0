/**
 * The invoice area's contract (spec 02 §2 "Invoices", §3 "Invoice head", "Invoice application", "Invoice detail",
 * "Invoice order row", §4 "Invoice application status", §5 "Invoice heads", "Invoice application", §7 "Orders, payment
 * and invoices", §8, §9): invoice heads, applications from paid recharges, their list and details, the issued files,
 * and the finance queue of the operator console. Every user call is form-encoded (spec 02 §7). Money is integer fen.
 * The zod-free codes and rules are in contract/invoice-codes.ts, the answers' types in contract/invoice-answers.ts
 * (both re-exported here); what the spec leaves open is in docs/decisions/022-invoices.md. No I/O.
 */
import { z } from 'zod';
import './zod-locale.ts';
import { Msg } from './messages.ts';
import { opsPage, type OpsRole } from './ops.ts';
import {
  bankNo,
  blankToUndefined,
  courierNumber,
  freeText,
  isValidCreditCode,
  isValidIdCard,
  multilineText,
  rowId,
} from './validators.ts';
import {
  CHECK_REMARK_MAX_CHARS,
  INVOICE_TYPES,
  MAX_ORDERS_PER_APPLICATION,
  REMARK_MAX_CHARS,
  InvoiceMsg,
  parseOrderIds,
  type ApplyStatusCode,
} from './invoice-codes.ts';

export * from './invoice-codes.ts';
export type * from './invoice-answers.ts';

/** The role that opens the invoice queue (contract/ops.ts `finance`). */
export const INVOICE_OPS_ROLE: OpsRole = 'finance';

/** The users' invoice calls (bearer token; form-encoded bodies, spec 02 §7). */
export const InvoicePaths = {
  /** `GET` → InvoiceHead[] of the caller, oldest first. */
  riseList: '/api/User/riseList',
  /** `POST` {@link InvoiceHeadBody} → InvoiceHead, msg 新增成功; the 6th answers 最多保存 5 个发票抬头信息. */
  addInvoice: '/api/User/addInvoice',
  /** `POST` {@link InvoiceHeadBody} & `{id}` → InvoiceHead, msg 修改成功. */
  editInvoice: '/api/User/editInvoice',
  /** `POST {id}` → msg 已删除该条发票抬头 (applications keep their snapshot). */
  delInvoice: '/api/User/delInvoice',
  /**
   * `POST` {@link InvoicePreviewBody} `{ids, money?}` → {@link InvoicePreview}: the orders, the money recomputed from
   * them and the shipping rule, for `/orders/makeOutInvoice` (ours; the spec's page computes it in the browser).
   */
  invoicePreview: '/api/User/invoicePreview',
  /**
   * `POST` {@link InvoiceAskBody} `{ids, userInvoiceId, userAddressId, remark, money?}` → `{id}`, msg 提交成功; the
   * orders move to invoiceStatus 1 in the same transaction; an order in a live application refuses the ask.
   */
  invoiceAsk: '/api/User/invoiceAsk',
  /** `POST` {@link InvoiceListQuery} `{page, startTime, endTime, status}` → {@link InvoiceListData}, 10 a page. */
  invoiceList: '/api/user/invoiceList',
  /** `POST {id}` → {@link InvoiceDetailData} `{detail, orderList}`. */
  invoiceDetail: '/api/User/invoiceDetail',
  /** `POST {id}` → `{checkRemark}` of a rejected application. */
  checkFail: '/api/user/checkFail',
  /** `POST {id, fileId}` → `{downUrl}`: a signed, expiring URL of an issued file (ours; spec 02 §7 style downUrl). */
  invoiceFile: '/api/User/invoiceFile',
  /** `GET /api/User/invoiceFile/:fileId?exp=&sig=` streams the file (the signed URL above). */
  invoiceFileStream: '/api/User/invoiceFile/',
} as const;

/** The finance queue's calls (operator token and {@link INVOICE_OPS_ROLE}; 403 无权访问 without it). Audited. */
export const InvoiceOpsPaths = {
  /** `GET` {@link InvoiceQueueQuery} → {@link InvoiceQueueData}: waiting (1, 2) oldest first, decided newest first. */
  queue: '/api/ops/invoice/queue',
  /** `GET {id}` → {@link InvoiceOpsDetail}. */
  detail: '/api/ops/invoice/detail',
  /** `POST {id}` → msg 已提交财务: 1 → 2. */
  submit: '/api/ops/invoice/submit',
  /**
   * `POST` multipart `{id, file…}` (electronic: 1–5 PDF/OFD files, checked by their bytes, one per field of
   * {@link INVOICE_FILE_FIELDS}; a field sent twice answers `fileFieldRepeated`) or form `{id, courierNumber}` (paper
   * special invoice) → msg 已开票: 1|2 → 3; the orders move to invoiceStatus 2.
   */
  issue: '/api/ops/invoice/issue',
  /** `POST {id, remark}` → msg 已拒绝该申请: 1|2 → 4; the orders move to invoiceStatus 3 (selectable again). */
  reject: '/api/ops/invoice/reject',
  /** `GET /api/ops/invoice/file/:fileId` streams an issued file to the operator. */
  file: '/api/ops/invoice/file/',
} as const;

/** The multipart fields of the issue call's files, one file each (the shared intake keeps one file per field). */
export const INVOICE_FILE_FIELDS = ['file', 'file1', 'file2', 'file3', 'file4', 'file5'] as const;

/** The user's pages (the platform links the notification to details). */
export const InvoicePages = {
  list: '/invoice?activeName=1',
  heads: '/invoice?activeName=2',
  details: (id: number) => `/invoice/details?id=${id}`,
  makeOutInvoice: '/orders/makeOutInvoice',
} as const;

const LEGACY_TAX_NUM_RE = /^(?:[0-9A-Z]{15}|[0-9A-Z]{17}|[0-9A-Z]{20})$/;

/**
 * True when `value` (upper-cased, trimmed) is a taxpayer number: a unified social credit code (GB 32100 check
 * character) or a legacy number of 15, 17 or 20 characters, or 18 characters that are a national ID number (GB 11643,
 * an individual's legacy number). An 18-character value must pass one of the two check characters.
 */
export function isValidTaxNum(value: string): boolean {
  const s = value.trim().toUpperCase();
  if (s.length === 18) return isValidCreditCode(s) || isValidIdCard(s);
  return LEGACY_TAX_NUM_RE.test(s);
}

const TAX_PHONE_RE = /^[0-9()+\- ]{7,20}$/;

/**
 * Invoice head body (spec 02 §3, §5): head, type and taxNum required; for ENTERPRISE_SPECIAL also bankName,
 * account (8–25 digits), street and phoneNumber (digits, spaces, `+ - ( )`, 7–20). Optional fields of an
 * ENTERPRISE head are kept when given and valid.
 */
export const InvoiceHeadBody = z
  .object({
    head: freeText('发票抬头', 100, true),
    type: z.preprocess(blankToUndefined, z.enum(INVOICE_TYPES, { error: InvoiceMsg.typeRequired })),
    taxNum: z.preprocess(
      blankToUndefined,
      z
        .string({ error: Msg.required('纳税人识别号') })
        .transform((s) => s.trim().toUpperCase())
        .refine(isValidTaxNum, InvoiceMsg.taxNumInvalid),
    ),
    bankName: freeText('开户银行', 50),
    account: z.preprocess(blankToUndefined, bankNo.optional()),
    street: freeText('注册地址', 100),
    phoneNumber: z.preprocess(
      blankToUndefined,
      z.string().trim().regex(TAX_PHONE_RE, InvoiceMsg.phoneInvalid).optional(),
    ),
  })
  .superRefine((v, ctx) => {
    if (v.type !== 'ENTERPRISE_SPECIAL') return;
    const need = [
      ['bankName', '开户银行'],
      ['account', '银行账号'],
      ['street', '注册地址'],
      ['phoneNumber', '注册电话'],
    ] as const;
    for (const [key, label] of need) {
      if (v[key] === undefined) ctx.addIssue({ code: 'custom', message: Msg.required(label), path: [key] });
    }
  });
export type InvoiceHeadBody = z.infer<typeof InvoiceHeadBody>;

/** `ids` field: {@link parseOrderIds}; at least one (请先勾选可供开票的订单记录), at most 5. */
export const orderIds = z.preprocess(
  (v) => parseOrderIds(v) ?? 'invalid',
  z
    .array(z.number(), { error: Msg.invalidId })
    .min(1, InvoiceMsg.ordersRequired)
    .max(MAX_ORDERS_PER_APPLICATION, InvoiceMsg.tooManyOrders),
);

/** Optional `money` (fen, integer ≥ 0) the page showed; when given it must equal the recomputed total. */
const moneyFen = z.preprocess(
  blankToUndefined,
  z.coerce.number({ error: InvoiceMsg.moneyMismatch }).int(InvoiceMsg.moneyMismatch).min(0).optional(),
);

/** `invoicePreview` body (and the page's query `ids`, `money`). */
export const InvoicePreviewBody = z.object({ ids: orderIds, money: moneyFen });
export type InvoicePreviewBody = z.infer<typeof InvoicePreviewBody>;

/**
 * `invoiceAsk` body (spec 02 §7) and the `/orders/makeOutInvoice` form. `remark` (spec 02 §5, §9: at most 150
 * characters) counts a line break as one character, as the page's textarea does, and keeps it as LF
 * (`multilineText`).
 */
export const InvoiceAskBody = z.object({
  ids: orderIds,
  userInvoiceId: rowId(InvoiceMsg.headRequired),
  userAddressId: rowId(InvoiceMsg.addressRequired),
  remark: z.preprocess(
    blankToUndefined,
    multilineText().max(REMARK_MAX_CHARS, InvoiceMsg.remarkTooLong).optional(),
  ),
  money: moneyFen,
});
export type InvoiceAskBody = z.infer<typeof InvoiceAskBody>;

const optionalInt = (min: number, max: number) =>
  z.preprocess(
    blankToUndefined,
    z.coerce.number({ error: Msg.badRequest }).int(Msg.badRequest).min(min).max(max).optional(),
  );

/**
 * `invoiceList` body (spec 02 §7 `{page, startTime, endTime, status}`): unix seconds (endTime already at the end of
 * the chosen day), status 1–4 or blank for all, page from 1.
 */
export const InvoiceListQuery = z.object({
  page: optionalInt(1, 100_000).transform((v) => v ?? 1),
  startTime: optionalInt(0, 4_102_444_800),
  endTime: optionalInt(0, 4_102_444_800),
  status: optionalInt(1, 4).transform((v) => v as ApplyStatusCode | undefined),
});
export type InvoiceListQuery = z.infer<typeof InvoiceListQuery>;

/** `{id, fileId}` of `invoiceFile`. */
export const InvoiceFileBody = z.object({ id: rowId(Msg.invalidId), fileId: rowId(Msg.invalidId) });

/** The queue's query: waiting (1 and 2) by default, or one status; page from 1 (20 a page). */
export const InvoiceQueueQuery = z.object({
  status: z.enum(['waiting', '3', '4']).default('waiting'),
  page: opsPage,
});
/** `{id}` of the ops calls. */
export const InvoiceOpsIdBody = z.object({ id: rowId(Msg.invalidId) });
/** `reject` body: the reason, 1–200 characters, line breaks counted and stored as LF (`multilineText`). */
export const InvoiceRejectBody = InvoiceOpsIdBody.extend({
  remark: multilineText(InvoiceMsg.checkRemarkRequired)
    .min(1, InvoiceMsg.checkRemarkRequired)
    .max(CHECK_REMARK_MAX_CHARS, InvoiceMsg.checkRemarkTooLong),
});
/** `issue` body of a paper special invoice (the files of an electronic one come as multipart parts `file`). */
export const InvoiceCourierBody = InvoiceOpsIdBody.extend({
  courierNumber: courierNumber(InvoiceMsg.courierRequired, InvoiceMsg.courierInvalid),
});
