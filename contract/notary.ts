/**
 * The notarisation area's contract (spec 02 §1, §2 "Notary list", "Notary detail", §3 "Notary order list query",
 * "Notary detail response", §4, §7 "Notary", §9; issue 14; docs/decisions/034-notary.md): the calls' paths, request
 * bodies and queries (zod), and the answers' shapes. Field names at the boundary are the spec's.
 */
import { z } from 'zod';
import './zod-locale.ts';
import { Msg } from './messages.ts';
import { blankToUndefined, freeText, optionalInt, rowId } from './validators.ts';
import {
  MAX_COPIES,
  MAX_ORDER_EVIDENCES,
  NotaryMsg,
  type NotarialCode,
  type NotaryPayCode,
  type NotaryStepCode,
} from './notary-codes.ts';

export * from './notary-codes.ts';

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
} as const;

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

/** `createOrder` answer (issue 14 point 1: type, orderNo, number of records, money in points, step). */
export interface NotaryOrderCreated {
  id: number;
  type: number;
  orderNo: string;
  number: number;
  /** Points. */
  money: number;
  step: NotaryStepCode;
}

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

/** A row of the notary list (spec 02 §3 "Notary order list query"). */
export interface NotaryOrderRow {
  id: number;
  type: number;
  orderNo: string;
  /** "YYYY-MM-DD HH:mm:ss", Beijing time. */
  addTime: string;
  /** Evidences the order covers. */
  number: number;
  step: NotaryStepCode;
  /** Points. */
  money: number;
  pay: NotaryPayCode;
  /** null while the order is unfinished (shown as '-----'). */
  notarial: NotarialCode | null;
}

/** `orderList` answer. */
export interface NotaryOrderListData {
  count: number;
  list: NotaryOrderRow[];
}

/** `detail` and `stop` bodies/queries: the order's id; `page` of the detail's evidence table. */
export const NotaryOrderIdBody = z.object({ orderId: rowId(NotaryMsg.orderNotFound) });
export const NotaryDetailQuery = NotaryOrderIdBody.extend({
  page: optionalInt(1, 100_000).transform((v) => v ?? 1),
});

/** An evidence of the detail's table (spec 02 §3 "Notary detail response", the fields this platform has). */
export interface NotaryDetailEvidence {
  id: number;
  baoquan: string;
  baoquan_no: string;
  title: string;
  /** The file's name ('' for a hash-only evidence). */
  name: string;
  label: string;
  type: number;
  /** "YYYY-MM-DD HH:mm:ss", Beijing time. */
  saveTime: string;
  fileHash: string;
  algorithm: 'SHA-256';
}

/** `detail` answer (spec 02 §3): the order's info and one page of its evidences. */
export interface NotaryDetailData {
  info: {
    orderNo: string;
    addTime: string;
    /** Points. */
    money: number;
    pay: NotaryPayCode;
    /** The pay type once paid (1 points, 2 Alipay, 3 WeChat), else null. */
    payType: number | null;
    /** The transfer screenshot's URL; none on this platform yet. */
    tranImg: string | null;
    type: number;
    step: NotaryStepCode;
    notarial: NotarialCode | null;
  };
  list: NotaryDetailEvidence[];
  count: number;
}

/**
 * Step 1's application (issue 14 point 2, applicationForm): what the notarisation is for, where the certificate will
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

/** The applicant of an order: the verified identity of its user (the ID or credit code masked). */
export interface NotaryApplicant {
  kind: 'personal' | 'enterprise';
  /** The person's name or the enterprise's. */
  name: string;
  /** The ID number or unified social credit code, masked. */
  idNumber: string;
}

/** `application` answer. */
export interface NotaryApplicationData {
  applicant: NotaryApplicant;
  /** The saved application (the address as it was when saved), or null before step 1 is done. */
  form: {
    purpose: string;
    usePlace: string;
    copies: number;
    recipient: string;
    phoneNumber: string;
    region: string;
    address: string;
    remark: string;
  } | null;
  /** True while step 1 may be saved: the order is open and at step 1. */
  editable: boolean;
  step: NotaryStepCode;
}
