/**
 * The KYC area's messages, codes, masking and paths without zod (spec 02 §3, §4, §7, §9), for the pages that show
 * them without loading the area's schemas (decision 031: first-load JS). contract/kyc.ts re-exports them. No I/O.
 */
import { KycImageMsg } from './kyc-image-rules.ts';
import { KycGateMsg } from './kyc-gate.ts';
import { ValidatorMsg } from './validator-messages.ts';

/**
 * KYC messages, zh-CN. Texts the spec gives in Chinese are verbatim (the enterprise image messages, including the
 * original's 超多); texts the spec paraphrases in English, and those it does not show, are ours, listed in
 * docs/decisions/010-kyc-foundations.md and 011-kyc-review.md.
 */
/**
 * How long the photo review takes, in working days, as every text says it (spec 02 §9: "photo verification takes
 * 0-2 working days; the review result comes in 1-2 days"): one span, 1-2, for the method label, the under-review
 * hint and the top bar's tip, so the page never promises two different times (docs/decisions/025-secrets-sms.md).
 */
export const KYC_REVIEW_WORKING_DAYS = '1-2';

export const KycMsg = {
  nameChinese: ValidatorMsg.nameChinese,
  shortNameChinese: ValidatorMsg.shortNameChinese,
  idCardInvalid: ValidatorMsg.idCardInvalid,
  idCardRequired: ValidatorMsg.idCardRequired,
  /** Spec 02 §5 personal: 'sex cannot be empty'. */
  sexRequired: '性别不能为空',
  /** Spec 02 §5 personal: 'enter ID address'. */
  addressRequired: '请输入身份证地址',
  /** Spec 02 §5 personal: 'upload front/back/hand-held photo'. */
  uploadFront: '请上传身份证正面照片',
  uploadBack: '请上传身份证反面照片',
  uploadHand: '请上传手持身份证照片',
  /** Spec 02 §5 personal: 'The method field is required'. */
  methodRequired: '请选择认证方式',
  /** Spec 02 §5 personal: 'please agree to real-name verification first'. */
  consentRequired: '请先同意实名认证',
  /** Spec 02 §5 enterprise: 'reserved phone cannot be empty'. */
  mobileReserveRequired: '预留手机号不能为空',
  /**
   * Spec 02 §5 shared: 'contact cannot be empty', for a contact (name) field. The enterprise form shows the contact's
   * name read-only (the account's), so no field of ours asks for it; the contact's ID number has its own
   * 联系人身份证号不能为空 (docs/decisions/012-kyc-screens.md).
   */
  contactRequired: '联系人不能为空',
  ...KycImageMsg,
  // not shown in the spec: ours
  creditCodeInvalid: ValidatorMsg.creditCodeInvalid,
  bankNoInvalid: ValidatorMsg.bankNoInvalid,
  birthDateInvalid: ValidatorMsg.birthDateInvalid,
  birthDateMismatch: '出生日期与身份证号码不一致',
  /** The verification gate (spec 02 §4: storage needs userStatus 3). */
  kycRequired: KycGateMsg.required,
  /** A submission while the form is read-only (userStatus 2 or 3, spec 02 §2). */
  notEditable: '当前认证状态不可修改资料',
  /** A personal photo submission that is not multipart. */
  photosRequired: '请上传身份证照片',
  faceUnavailable: '人脸认证服务暂不可用，请稍后再试',
  faceFailed: '人脸认证未通过，请重新认证',
  faceExpired: '人脸认证已超时，请重新认证',
  facePending: '认证进行中，请在手机上完成刷脸',
  facePassed: '实名认证成功',
  faceNotFound: '认证记录不存在',
  /** The notification of a passed face verification (spec 02 §4 banner text of the face method). */
  facePassedNews: '支付宝人脸认证已通过，您的账号已完成实名认证。',
  rotateKeyDenied: '仅已认证的企业用户可以重置密钥',
  keyRotated: '密钥已重置，请立即保存',
  // the operators' review (contract/kyc-review.ts)
  reviewApproved: '已通过该实名认证',
  reviewRejected: '已驳回该实名认证',
  reviewNotPending: '该认证不在待审核状态',
  reviewUserNotFound: '用户不存在',
  remarkRequired: '请填写驳回原因',
  remarkTooLong: '驳回原因不能超过200个字符',
  /** Notifications the user receives after a decision. */
  approvedNews: '恭喜，您的实名认证已通过审核，现在可以使用数据保全和公证服务。',
  rejectedNews: (remark: string) => `很抱歉，您的实名认证未通过审核：${remark}。请修改资料后重新提交。`,
  /**
   * The result SMS the under-review hint promises (spec 02 §9: the review result comes in 1-2 days, by SMS). The
   * Tencent templates TENCENT_SMS_TEMPLATE_KYC_APPROVED / _REJECTED hold these texts; the sandbox writes them.
   */
  approvedSms: '您的实名认证已通过审核，现在可以使用数据保全和公证服务。',
  rejectedSms: '您的实名认证未通过审核，请登录查看原因，修改资料后重新提交。',
  /** The photo method's label (spec 02 §4 personal screen), with {@link KYC_REVIEW_WORKING_DAYS}. */
  photoMethodLabel: `上传身份证照片认证（${KYC_REVIEW_WORKING_DAYS}个工作日）`,
  /** The under-review hint (spec 02 top-bar tip 2: result by SMS), with {@link KYC_REVIEW_WORKING_DAYS}. */
  reviewHint: `审核结果将在${KYC_REVIEW_WORKING_DAYS}个工作日内以短信通知，请耐心等待。`,
  /** A personal ID number verified or under review on another account (one number, one personal account). */
  idCardTaken: '该身份证号已被其他账号认证',
} as const;

// ---------------------------------------------------------------------------------------------------------------
// Masking
// ---------------------------------------------------------------------------------------------------------------

/**
 * Masks an ID number for display and logs (docs/decisions/011-kyc-review.md "Privacy"): keeps the first 3 and the
 * last 4 characters and replaces every other character with '*', keeping the length ('11010519491231002X' →
 * '110***********002X'). Values of 7 characters or fewer are masked entirely; blanks are removed first; '' stays ''.
 */
export function maskIdNumber(value: string): string {
  const s = value.replace(/\s+/g, '');
  if (s.length <= 7) return '*'.repeat(s.length);
  return `${s.slice(0, 3)}${'*'.repeat(s.length - 7)}${s.slice(-4)}`;
}

/**
 * Masks a bank account number: keeps only the last 4 digits ("尾号") and replaces the others with '*', keeping the
 * length ('6222021234567890123' → '***************0123'). Values of 4 characters or fewer are masked entirely;
 * blanks are removed first; '' stays ''.
 */
export function maskBankNumber(value: string): string {
  const s = value.replace(/\s+/g, '');
  if (s.length <= 4) return '*'.repeat(s.length);
  return `${'*'.repeat(s.length - 4)}${s.slice(-4)}`;
}

// ---------------------------------------------------------------------------------------------------------------
// States and codes (spec 02 §3, §4, §9)
// ---------------------------------------------------------------------------------------------------------------

/** userStatus values (spec 02 §4), strings as on the wire. */
export const UserStatus = {
  /** '1' not verified: form editable. */
  unverified: '1',
  /** '2' under review: read-only. */
  reviewing: '2',
  /** '3' verified: read-only; storage and notarisation allowed. */
  verified: '3',
  /** '4' failed: editable, resubmit. */
  failed: '4',
} as const;
/** A userStatus value '1'–'4'. */
export type UserStatusValue = (typeof UserStatus)[keyof typeof UserStatus];
/** The meaning of each userStatus (spec 02 §4 table), zh-CN. */
export const USER_STATUS_MEANING: Readonly<Record<UserStatusValue, string>> = {
  '1': '未认证',
  '2': '审核中',
  '3': '已认证',
  '4': '认证失败',
};
/** The KYC forms are editable only at userStatus 1 or 4 (spec 02 §2, §4). */
export function isKycEditable(status: string): boolean {
  return status === UserStatus.unverified || status === UserStatus.failed;
}

/** Account type, KycInfo.status (spec 02 §3): '0' none, '1' personal, '2' enterprise. */
export const AccountType = { none: '0', personal: '1', enterprise: '2' } as const;
/** Personal verification method, KycInfo.authType and payload `type` (spec 02 §3, §9): '1' photo, '3' face. */
export const AuthType = { photo: '1', face: '3' } as const;

/** KYC call paths of spec 02 §7 (which serves which step: docs/decisions/010-kyc-foundations.md). */
export const KycPaths = {
  /** `POST` multipart {@link EnterpriseSubmitBody} → msg 提交成功; userStatus becomes '2'. */
  companyAuthorize: '/api/user/companyAuthorize',
  /** `POST` multipart {@link PersonalPhotoSubmitBody} → msg 提交成功; userStatus becomes '2'. */
  perAuthorize: '/api/peruser/perAuthorize',
  /** `POST` {@link PersonalFaceSubmitBody} → the face page's data (certify_id, QR content). */
  aliIdentification: '/api/peruser/aliIdentification',
  /** `POST {certify_id}` → code 200 passed, 400 stop polling (spec 02 §4 face flow). */
  aliQuery: '/api/peruser/aliQuery',
  /** `POST` → {@link KycInfo}. */
  getAuthInfo: '/api/user/getAuthInfo',
  // ours, beyond the spec's paths:
  /** `GET /api/kyc/image/:id?exp=&sig=` streams a KYC image (signed, expiring; owner and operators only). */
  image: '/api/kyc/image/',
  /** `POST` → `{securityKey}` (full, shown once): a verified enterprise rotates its SecurityKey. */
  rotateSecurityKey: '/api/user/resetSecurityKey',
} as const;
