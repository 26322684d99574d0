/**
 * The notarisation area's contract (spec 02 §1, §2 "Notary list", "Notary detail", §3 "Notary order list query",
 * "Notary detail response", §4, §7 "Notary", §9; docs/decisions/034-notary.md): the calls' paths, request bodies and
 * queries (zod); the answers' shapes are in contract/notary-answers.ts (re-exported here). Field names at the boundary
 * are the spec's.
 */
import { z } from 'zod';
import './zod-locale.ts';
import { Msg } from './messages.ts';
import { blankToUndefined, freeText, optionalInt, rowId } from './validators.ts';
import {
  NOTARIAL_CERTIFICATE_TYPE,
  MAX_COPIES,
  MAX_ORDER_EVIDENCES,
  NotaryMsg,
  type NotarialCode,
  type NotaryPayCode,
} from './notary-codes.ts';

export * from './notary-codes.ts';
export type * from './notary-answers.ts';

/**
 * The calls (spec 02 §7 "Notary"; `createOrder` is ours: the spec does not show how an order is made). Paths keep
 * the spec's spelling, `evidences` and `Evidences` as given.
 */
export const NotaryPaths = {
  /** `POST {type, ids}` → {@link NotaryOrderCreated}: a verified user's new order over their preserved evidences. */
  createOrder: '/api/Evidences/createOrder',
  /** `GET` {@link NotaryOrderListQuery} → {@link NotaryOrderListData}. */
  orderList: '/api/evidences/orderList',
  /** `POST {orderId}`: ends an unfinished order (spec 02 §4 "End operation"). */
  stop: '/api/Evidences/stop',
  /** `GET {orderId, page}` → {@link NotaryDetailData}. */
  detail: '/api/Evidences/detail',
  /** `GET {orderId}` → {@link NotaryApplicationData}: step 1's applicant and saved application (ours). */
  application: '/api/Evidences/application',
  /** `POST` {@link ApplicationFormBody}: saves step 1 and moves the order to step 2 (ours). */
  saveApplication: '/api/Evidences/saveApplication',
  /**
   * `GET {orderId}` → {@link NotaryDocumentData}: what step 2's documents print (the saved application, the
   * evidences, the user's default seal), from step 2 on (ours).
   */
  documentData: '/api/Evidences/documentData',
  /**
   * `POST` multipart `orderId` + files `doc1`…`doc4` (PDF), the user's token and the gateway's internal key: stores
   * the four signed documents the gateway printed and moves the order to step 3, once (ours).
   */
  submitDocuments: '/api/internal/notary/documents',
  /** `GET {orderId, type}` → {@link NotaryDownData}: a signed link to document `type` 1–4, or 5 the notarial certificate. */
  downDoc: '/api/Evidences/downDoc',
  /** Prefix of the signed, expiring file links `downDoc` hands out (`<prefix><id>?exp=&sig=`). */
  file: '/api/notary/file/',
  /** `POST {orderId, code}`: step 3, the user authorises the office to read the evidences with their extraction code (ours). */
  deCode: '/api/Evidences/deCode',
  /** `POST {orderId, payType}`: step 4, pays the order (1 points; 2 Alipay, 3 WeChat Pay answer the provider's start). */
  pay: '/api/Evidences/pay',
  /** `GET {orderId}` → {@link NotaryPayNews}: the order's pay state and the user's balance (spec 02 §7). */
  paysmsnews: '/api/Evidences/paysmsnews',
  /** `POST {orderId}`: asks for the issued certificate's paper copies to be mailed to the application's address. */
  requestPaper: '/api/Evidences/requestPaper',
  /** `GET {number, hash?}` → {@link NotarialCheckData}: public check of a notarial certificate (anyone). */
  notarialCheck: '/api/notarial/check',
} as const;

/** Largest document PDF the platform stores, bytes. */
export const NOTARY_DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;

/**
 * `createOrder` body: `type` a notarisation type of {@link NOTARY_TYPES}; `ids` the evidences' ids, as an array or a
 * comma-separated list (a form's repeated checkbox or the spec's `ids=[..]` style), 1 to {@link MAX_ORDER_EVIDENCES},
 * duplicates dropped.
 */
export const CreateNotaryOrderBody = z.object({
  type: rowId(NotaryMsg.typeRequired),
  ids: z
    .preprocess(
      (v) => {
        const list = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : v === undefined ? [] : [v];
        return [...new Set(list.map((x) => String(x).trim()).filter(Boolean))];
      },
      z
        .array(z.string().regex(/^[1-9]\d{0,14}$/, Msg.invalidId))
        .min(1, NotaryMsg.evidencesRequired)
        .max(MAX_ORDER_EVIDENCES, NotaryMsg.tooManyEvidences),
    )
    .transform((ids) => ids.map(Number)),
});
export type CreateNotaryOrderBody = z.infer<typeof CreateNotaryOrderBody>;

/**
 * `orderList` query (spec 02 §3, §7): `startTime`/`endTime` unix seconds, inclusive, `endTime` already at the end of
 * the chosen day; `page` from 1; `payType` the pay state (1 pending, 2 paid, 3 cancelled), `notarialType` the
 * issuance state (1–4, or 0 for unfinished orders); `orderNo` a whole order number or its beginning.
 */
export const NotaryOrderListQuery = z.object({
  startTime: optionalInt(0, 4_102_444_800),
  endTime: optionalInt(0, 4_102_444_800),
  page: optionalInt(1, 100_000).transform((v) => v ?? 1),
  payType: optionalInt(1, 3).transform((v) => v as NotaryPayCode | undefined),
  notarialType: optionalInt(0, 4).transform((v) => v as NotarialCode | 0 | undefined),
  orderNo: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .max(64, Msg.badRequest)
      .regex(/^[A-Za-z0-9]+$/, Msg.badRequest)
      .optional(),
  ),
});
export type NotaryOrderListQuery = z.infer<typeof NotaryOrderListQuery>;

/** `detail` and `stop` bodies/queries: the order's id; `page` of the detail's evidence table. */
export const NotaryOrderIdBody = z.object({ orderId: rowId(NotaryMsg.orderNotFound) });
export const NotaryDetailQuery = NotaryOrderIdBody.extend({
  page: optionalInt(1, 100_000).transform((v) => v ?? 1),
});

/**
 * Step 1's application (decision 034, applicationForm): what the notarisation is for, where the certificate will
 * be used, how many paper copies (1 to {@link MAX_COPIES}), the delivery address (one of the user's `/address`
 * entries) and a remark. The applicant is not a field: it is the user's verified identity.
 */
export const ApplicationFormBody = NotaryOrderIdBody.extend({
  purpose: freeText('公证用途', 100, true),
  usePlace: freeText('使用地', 50, true),
  copies: z.preprocess(
    (v) => (v === '' || v == null ? undefined : v),
    z.coerce
      .number({ error: NotaryMsg.copiesRange })
      .int(NotaryMsg.copiesRange)
      .min(1, NotaryMsg.copiesRange)
      .max(MAX_COPIES, NotaryMsg.copiesRange),
  ),
  addressId: rowId(NotaryMsg.addressRequired),
  remark: freeText('备注', 150),
});
export type ApplicationFormBody = z.infer<typeof ApplicationFormBody>;

/** `downDoc` query: the order and the document (1–4, or 5 the notarial certificate). */
export const NotaryDownQuery = NotaryOrderIdBody.extend({
  type: z.coerce.number({ error: NotaryMsg.documentNotFound }).int().min(1).max(NOTARIAL_CERTIFICATE_TYPE),
});

/** `deCode` body: the user's extraction code (spec 01 §2.5), which authorises the office to read the evidences. */
export const DeCodeBody = NotaryOrderIdBody.extend({
  code: z
    .string({ error: NotaryMsg.codeRequired })
    .trim()
    .min(1, NotaryMsg.codeRequired)
    .max(30, NotaryMsg.codeWrong),
});

/** `pay` body: 1 points, 2 Alipay, 3 WeChat Pay. */
export const NotaryPayBody = NotaryOrderIdBody.extend({
  payType: z.coerce
    .number({ error: NotaryMsg.payTypeRequired })
    .int()
    .min(1, NotaryMsg.payTypeRequired)
    .max(3, NotaryMsg.payTypeRequired),
});

/** `notarialCheck` query: the certificate number and, optionally, the SHA-256 of the PDF the asker holds. */
export const NotarialCheckQuery = z.object({
  number: z
    .string({ error: NotaryMsg.certificateNoRequired })
    .trim()
    .min(1, NotaryMsg.certificateNoRequired)
    .max(60, NotaryMsg.certificateNotFound),
  hash: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[0-9a-f]{64}$/, NotaryMsg.hashInvalid)
      .optional(),
  ),
});
export type NotarialCheckQuery = z.infer<typeof NotarialCheckQuery>;
