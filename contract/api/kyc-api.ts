/**
 * Real-name verification calls as this platform answers them (issue 5; spec 02 §3 KycInfo, §4, §7 KYC; which call
 * serves which step: docs/decisions/010-kyc-foundations.md and 011-kyc-review.md), the operator console calls
 * (issue 5 build item 5; the spec shows no admin role) and the verification gate.
 * Payload validation lives in contract/kyc.ts; this module holds paths and response shapes.
 */
import { z } from 'zod';
import { ApiCode } from '../envelope.ts';
import type { KycInfo } from '../kyc.ts';
import type { UserInfo } from '../account.ts';

/**
 * KYC details added to `getAuthInfo`'s UserInfo (spec 02 §3 KycInfo; field names as the spec). Empty strings when not
 * submitted. `contactIdcard`, `authorIdcard`, `idCard` and `accountNo` are masked (contract/kyc.ts maskIdNumber,
 * maskBankNumber) unless the owner asks for the edit form (`{edit: '1'}`) while the form is editable (userStatus 1
 * or 4). Image fields are signed same-origin URLs that expire (`/api/kyc/image/<id>?exp=&sig=`), '' when none.
 * `appId` is set for a verified enterprise; `securityKey` is the full key exactly once after it was issued (to the
 * first call with `edit: '1'`), masked afterwards (`securityKeyShown` says which); rotation answers the new key.
 */
export type KycDetails = Omit<
  KycInfo,
  'userStatus' | 'status' | 'authType' | 'userName' | 'points' | 'newsNum' | 'checkRemark'
> & {
  /** Personal: the ID number (masked as above) and sex '0' male / '1' female. */
  idCard: string;
  sex: string;
  /** True when `securityKey` is the full key (shown this once). */
  securityKeyShown: boolean;
  /** Unix seconds of the last submission, 0 when none. */
  submittedAt: number;
};

/** `POST /api/user/getAuthInfo` → user info with the KYC details. */
export type AuthInfo = UserInfo & KycDetails;

/** Paths beyond contract/kyc.ts `KycPaths`. */
export const KycExtraPaths = {
  /** `GET /api/kyc/image/:id?exp=&sig=` streams a KYC image (signed, expiring; owner and operators only). */
  image: '/api/kyc/image/',
  /** `POST` → `{securityKey}` (full, shown once): a verified enterprise rotates its SecurityKey. */
  rotateSecurityKey: '/api/user/resetSecurityKey',
} as const;

/** What `aliIdentification` answers: the certification to show as a QR code and poll (spec 02 §4 face flow). */
export interface FaceStartData {
  certify_id: string;
  /** The URL the QR code carries (the provider's certification page). */
  qrContent: string;
  /** Unix seconds after which the certification is abandoned. */
  expiresAt: number;
}

/**
 * `aliQuery {certify_id}`: envelope code 200 passed (userStatus now '3'), 400 failed or expired (stop polling, msg
 * says why), {@link FACE_PENDING_CODE} still open (keep polling every 3 s).
 */
export const FACE_PENDING_CODE = ApiCode.PENDING;
export interface FaceQueryData {
  state: 'open' | 'passed' | 'failed' | 'expired';
}

/** The verification gate (issue 5 item 6): envelope code and message when an unverified user saves evidence. */
export const KYC_REQUIRED_CODE = ApiCode.KYC_REQUIRED;
export const KycGateMsg = {
  required: '您的账号尚未完成实名认证，请先完成实名认证后再使用数据保全服务',
} as const;

// ---------------------------------------------------------------------------------------------------------------
// Operator console (/ops)
// ---------------------------------------------------------------------------------------------------------------

export const OpsPaths = {
  /** `POST {username, password}` → {@link OpsLoginData}. Separate accounts and tokens from users. */
  login: '/api/ops/login',
  /** `POST` (operator token) → msg. */
  logout: '/api/ops/logout',
  /** `GET {status?: '2'|'3'|'4', page?}` → {@link KycQueueData}; default status '2' (submitted, waiting). */
  queue: '/api/ops/kyc/queue',
  /** `GET {userId}` → {@link KycReviewDetail}. */
  detail: '/api/ops/kyc/detail',
  /** `POST {userId}` → msg; only from userStatus '2'. */
  approve: '/api/ops/kyc/approve',
  /** `POST {userId, remark}` → msg; only from userStatus '2'; the remark is shown to the user as checkRemark. */
  reject: '/api/ops/kyc/reject',
  /** `GET {page?}` → {@link AuditListData}. */
  audit: '/api/ops/audit',
} as const;

export const OPS_PAGE_SIZE = 20;

export const OpsLoginBody = z.object({
  username: z.string({ error: '请输入用户名' }).trim().min(1, '请输入用户名').max(60),
  password: z.string({ error: '请输入密码' }).min(1, '请输入密码').max(100),
});

export interface OpsLoginData {
  token: string;
  expiresIn: number;
  operator: { username: string };
}

export const OpsDecisionBody = z.object({
  userId: z.coerce.number({ error: '参数错误' }).int().positive('参数错误'),
});
export const OpsRejectBody = OpsDecisionBody.extend({
  remark: z
    .string({ error: '请填写驳回原因' })
    .trim()
    .min(1, '请填写驳回原因')
    .max(200, '驳回原因不能超过200个字符'),
});

export interface KycQueueItem {
  userId: number;
  mobile: string;
  /** 1 personal, 2 enterprise. */
  status: 1 | 2;
  /** 1 photo, 3 face, 0 enterprise. */
  authType: 0 | 1 | 3;
  /** Personal name or company name. */
  name: string;
  userStatus: '1' | '2' | '3' | '4';
  /** "YYYY-MM-DD HH:mm:ss" Beijing time. */
  submittedAt: string;
}
export interface KycQueueData {
  list: KycQueueItem[];
  count: number;
}

/** What an operator sees of one submission: the masked details and the images (signed URLs). */
export interface KycReviewDetail extends KycQueueItem {
  details: KycDetails;
  checkRemark: string;
  /** Labelled images, in form order. */
  images: { field: string; label: string; url: string }[];
}

export interface AuditEntry {
  id: number;
  operator: string;
  userId: number;
  mobile: string;
  action: 'approve' | 'reject';
  remark: string;
  at: string;
}
export interface AuditListData {
  list: AuditEntry[];
  count: number;
}

/** Operator console messages (ours; the spec shows no admin role). */
export const OpsMsg = {
  loginFailed: '用户名或密码错误',
  approved: '已通过该实名认证',
  rejected: '已驳回该实名认证',
  notPending: '该认证不在待审核状态',
  notFound: '用户不存在',
  /** Notifications the user receives. */
  approvedNews: '恭喜，您的实名认证已通过审核，现在可以使用数据保全和公证服务。',
  rejectedNews: (remark: string) => `很抱歉，您的实名认证未通过审核：${remark}。请修改资料后重新提交。`,
} as const;
