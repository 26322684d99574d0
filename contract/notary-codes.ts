/**
 * The notarisation area's codes and labels without zod (spec 02 §1, §3 "Notary order list query", §4 "Notary order
 * rows", "Continue, by step", "End operation", §9; docs/decisions/034-notary.md): the notarisation types
 * and their prices in points, the order's steps and the path segment of each, the pay and issuance states with their
 * texts, what a row of `/notary` offers, and the messages. What a page shows without loading the area's schemas.
 * contract/notary.ts re-exports all of it. No I/O.
 */

/** Rows per page of the notary list and the notary detail (spec 02 §9). */
export const NOTARY_PAGE_SIZE = 10;
/** Most evidences one order may cover (ours: a notarial certificate lists them; spec: not shown). */
export const MAX_ORDER_EVIDENCES = 50;
/** Most paper copies of the notarial certificate one application asks for (ours; spec: not shown). */
export const MAX_COPIES = 10;

/** The documents of step 2 (decision 034: 申请表, 告知书, 承诺书, 授权委托书), by their download `type`. */
export const NOTARY_DOCUMENTS = [
  { type: 1, name: '公证申请表' },
  { type: 2, name: '公证告知书' },
  { type: 3, name: '承诺书' },
  { type: 4, name: '授权委托书' },
] as const;
/** The download `type` of the issued notarial certificate (ours, after the four documents). */
export const NOTARIAL_CERTIFICATE_TYPE = 5;
/** A notarisation type a user can order (decision 034: the types and their point prices in one constant). */
export interface NotaryType {
  /** The `type` of the order and of the step URLs. */
  type: number;
  /** Its name as the pages show it. */
  name: string;
  /** Its price per preserved evidence the order covers, points. */
  pointsPerRecord: number;
}

/**
 * The types on offer (ours; the spec names none besides the electronic-data case): 保全证据公证, the notarisation of
 * preserved electronic data. One place: the platform prices orders from here, the pages list and price from here.
 */
export const NOTARY_TYPES: readonly NotaryType[] = [{ type: 1, name: '保全证据公证', pointsPerRecord: 200 }];

/** The type of `type`, or undefined. */
export function notaryType(type: number): NotaryType | undefined {
  return NOTARY_TYPES.find((t) => t.type === type);
}

/** The price of an order of `type` covering `records` evidences, points (undefined for an unknown type). */
export function orderPrice(type: number, records: number): number | undefined {
  const t = notaryType(type);
  return t ? t.pointsPerRecord * records : undefined;
}

/**
 * The steps of an order (spec 02 §4 "Continue, by step"), in their order; `done` once paid. An order's `step` is the
 * first step not yet done: the user may open that step and the ones before it, never a later one.
 */
export const NotaryStep = { applicationForm: 1, signature: 2, deCode: 3, pay: 4, done: 5 } as const;
/** A step code 1–5. */
export type NotaryStepCode = (typeof NotaryStep)[keyof typeof NotaryStep];
/** The step's path segment: `/attestation-list/readingMaterial/{segment}/{orderId}/{type}` (spec 02 §2). */
export const STEP_SEGMENT = {
  1: 'applicationForm',
  2: 'signature',
  3: 'deCode',
  4: 'pay',
} as const satisfies Record<Exclude<NotaryStepCode, 5>, string>;
/** The steps' names (spec 02 §4: application materials reading/filling, online signature, data decryption, payment). */
export const STEP_TEXT = {
  1: '申请材料阅读/填写',
  2: '在线签名',
  3: '数据解密',
  4: '支付',
  5: '已完成',
} as const satisfies Record<NotaryStepCode, string>;

/** Pay states of a notary order (spec 02 §4 "Notary order rows": 1 pending, 2 paid; §3 orders tab: cancelled). */
export const NotaryPay = { pending: 1, paid: 2, cancelled: 3 } as const;
/** A pay state 1–3. */
export type NotaryPayCode = (typeof NotaryPay)[keyof typeof NotaryPay];
/** Pay texts (spec 02 §3 "Notary order (in the orders tab)"); tab 3 of `/orders` shows them too. */
export const NOTARY_PAY_TEXT = {
  1: '待支付',
  2: '已支付',
  3: '已取消订单',
} as const satisfies Record<NotaryPayCode, string>;

/** Issuance states (spec 02 §4: 1 in progress, 2 succeeded, 3 terminated, 4 failed; none while unfinished). */
export const Notarial = { inProgress: 1, succeeded: 2, terminated: 3, failed: 4 } as const;
/** An issuance state 1–4. */
export type NotarialCode = (typeof Notarial)[keyof typeof Notarial];
/** Issuance texts (ours, after the spec's state names). */
export const NOTARIAL_TEXT = {
  1: '出证中',
  2: '出证成功',
  3: '已终止',
  4: '出证失败',
} as const satisfies Record<NotarialCode, string>;
/** What a row shows for an unfinished order's issuance state (spec 02 §4). */
export const UNFINISHED = '-----';

/** What a row of `/notary` offers (spec 02 §4 "Notary order rows"). */
export type NotaryRowActions = 'continue-or-end' | 'details' | 'none';

/**
 * The actions of a row: an unfinished order (no issuance state, not cancelled) continues at its step or ends; a
 * paid order in progress or issued shows its details; a terminated (or cancelled, or failed) one nothing.
 */
export function notaryRowActions(row: { pay: number; notarial: number | null }): NotaryRowActions {
  if (row.notarial === null && row.pay !== NotaryPay.cancelled) return 'continue-or-end';
  if (
    row.pay === NotaryPay.paid &&
    (row.notarial === Notarial.inProgress || row.notarial === Notarial.succeeded)
  ) {
    return 'details';
  }
  return 'none';
}

/** The area's messages (the spec's Chinese where it has one). */
export const NotaryMsg = {
  /** The end-operation confirmation (spec 02 §4 "End operation"). */
  confirmStop: '确认关闭此订单，关闭后订单将作废？',
  stopped: '订单已关闭',
  orderNotFound: '订单不存在',
  typeRequired: '请选择公证类型',
  evidencesRequired: '请选择需要公证的证据',
  tooManyEvidences: `每个订单最多选择${MAX_ORDER_EVIDENCES}条证据`,
  evidenceNotFound: '所选证据不存在或已删除',
  orderClosed: '订单已关闭，无法继续操作',
  orderPaidStop: '订单已支付，请联系公证处处理',
  created: '订单已创建',
  applicationSaved: '申请表已提交',
  applicationLocked: '申请表已提交，不能再修改',
  stepNotReached: '请先完成前面的步骤',
  copiesRange: `公证书份数为1-${MAX_COPIES}份`,
  addressRequired: '请选择收件地址',
  documentNotFound: '文件不存在',
  documentsSigned: '文书已签署',
  documentsInvalid: '文书文件无效',
  codeRequired: '请输入提取码',
  codeWrong: '提取码错误',
  authorized: '已授权公证处读取所选证据',
  payTypeRequired: '请选择支付方式',
  payTypeUnavailable: '该支付方式暂不可用，请使用积分支付',
  paid: '支付成功',
  alreadyPaid: '订单已支付',
  refunded: '订单已关闭，积分已退回',
  certificateNoRequired: '请输入公证书编号',
  certificateNotFound: '未查询到该公证书',
  hashInvalid: '文件哈希应为64位十六进制',
  paperRequested: '已申请寄送纸质公证书',
  paperNotIssued: '公证书出具后方可申请寄送纸质公证书',
  paperAlready: '已申请寄送纸质公证书，请勿重复申请',
  shippedNews: (orderNo: string, courier: string) =>
    `您的公证订单${orderNo}的纸质公证书已寄出，快递单号${courier}`,
  /** Notifications to the user (ours). */
  acceptedNews: (orderNo: string) => `您的公证订单${orderNo}已由公证处受理`,
  returnedNews: (orderNo: string, remark: string) => `您的公证订单${orderNo}需要补充材料：${remark}`,
  terminatedNews: (orderNo: string, remark: string) =>
    `您的公证订单${orderNo}已被公证处终止，积分已退回。原因：${remark}`,
  issuedNews: (orderNo: string, number: string) => `您的公证订单${orderNo}已出证，公证书编号${number}`,
  paidDesc: (orderNo: string) => `公证订单${orderNo}`,
} as const;
