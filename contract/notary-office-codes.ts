/**
 * The notary office's console queue without zod (docs/decisions/034-notary.md): the role, the area,
 * the calls' paths, the queue states and their texts, the messages and the answers' types — what the console pages
 * show without loading the area's schemas. contract/notary-office.ts re-exports all of it with the request schemas.
 * No I/O.
 */
import type { NotaryApplicationData, NotaryDetailEvidence } from './notary.ts';
import type { NotarialCode, NotaryStepCode } from './notary-codes.ts';
import type { OpsRole } from './ops.ts';

/** The role that opens the queue. */
export const NOTARY_OPS_ROLE: OpsRole = 'notary';
/** The audit and queue area. */
export const NOTARY_AREA = 'notary';

/** The console's calls (operator bearer token and the `notary` role; 403 无权访问 without it). */
export const NotaryOpsPaths = {
  /** `GET {state, page}` → {@link NotaryQueueData}. */
  queue: '/api/ops/notary/queue',
  /** `GET {id}` → {@link NotaryOpsDetail} (audited: view). */
  detail: '/api/ops/notary/detail',
  /** `GET <prefix><docId>`: a stored document or the certificate, streamed (audited). */
  file: '/api/ops/notary/file/',
  /** `GET <prefix><orderId>/<evidenceId>`: an authorised evidence's file, streamed (audited). */
  evidence: '/api/ops/notary/evidence/',
  /** `POST {id}`: accept a paid, complete order. */
  accept: '/api/ops/notary/accept',
  /** `POST {id, step, remark}`: send it back to step 1–3 for more material. */
  returnStep: '/api/ops/notary/return',
  /** `POST {id, remark}`: terminate it and give the points back. */
  terminate: '/api/ops/notary/terminate',
  /** `POST {id, courierNumber}`: the paper certificate the user asked for was mailed. */
  ship: '/api/ops/notary/ship',
  /** `POST` multipart `id` + file `certificate` (the signed notarial certificate PDF): issue an accepted order. */
  issue: '/api/ops/notary/issue',
} as const;

/** Queue states: 1 waiting for acceptance, 2 accepted (in progress), 3 decided (issued or terminated). */
export const NotaryQueueState = { waiting: 1, accepted: 2, decided: 3 } as const;
export const NOTARY_QUEUE_STATE_TEXT = { 1: '待受理', 2: '出证中', 3: '已办结' } as const;

export const NotaryOpsMsg = {
  notFound: '订单不存在',
  wrongState: '订单当前状态不能进行此操作',
  notComplete: '用户尚未完成全部步骤',
  remarkRequired: '请填写说明',
  stepInvalid: '请选择退回的步骤',
  certificateRequired: '请上传公证书PDF',
  accepted: '已受理',
  returned: '已退回用户补充材料',
  terminated: '已终止，积分已退回',
  issued: '已出证',
  notAuthorized: '用户尚未授权读取证据',
  courierRequired: '请填写快递单号',
  courierInvalid: '快递单号应为6-30位字母或数字',
  shipped: '已登记寄送',
} as const;

/** One row of the queue. */
export interface NotaryQueueRow {
  id: number;
  orderNo: string;
  /** The user's mobile. */
  mobile: string;
  typeName: string;
  number: number;
  /** Points. */
  money: number;
  /** "YYYY-MM-DD HH:mm:ss". */
  paidAt: string;
  step: NotaryStepCode;
  notarial: NotarialCode | null;
  certificateNo: string | null;
}
export interface NotaryQueueData {
  count: number;
  list: NotaryQueueRow[];
}

/** One order as the office sees it. */
export interface NotaryOpsDetail {
  order: NotaryQueueRow & {
    userId: number;
    addTime: string;
    authorizedAt: string | null;
    acceptedAt: string | null;
    issuedAt: string | null;
    officeRemark: string | null;
    /** When the user asked for the paper certificate, and its waybill number once mailed. */
    paperRequestedAt: string | null;
    courierNumber: string | null;
  };
  applicant: { kind: 'personal' | 'enterprise'; name: string; idNumber: string } | null;
  application: NonNullable<NotaryApplicationData['form']> | null;
  /** The stored documents (1–4) and the certificate (5). */
  documents: { id: number; type: number; size: number; sha256: string }[];
  /** The evidences; `readable` once the user authorised the office (step 3). */
  evidences: (Pick<NotaryDetailEvidence, 'id' | 'baoquan' | 'title' | 'name' | 'saveTime' | 'fileHash'> & {
    size: number;
    kind: string;
  })[];
  readable: boolean;
}
