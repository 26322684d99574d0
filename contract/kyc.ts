/**
 * Real-name verification (KYC), the area's contract (spec 02 §3, §4, §5, §7, §9): every KYC message (`KycMsg`), the
 * KYC-only fields, masking, userStatus and the other codes, the paths, the submit payloads, the response shapes
 * and the verification gate. The shared validators it uses (ID number, credit code, bank number, names, birth dates)
 * are in contract/validators.ts, the image rules in contract/kyc-images.ts, the operators' review of submissions in
 * contract/kyc-review.ts. No I/O.
 */
import { z } from 'zod';
import './zod-locale.ts';
import type { UserInfo } from './account.ts';
import { ApiCode } from './envelope.ts';
import { kycImageField, KycImageMsg } from './kyc-images.ts';
import { KycGateMsg } from './kyc-gate.ts';
import { Msg } from './messages.ts';
import {
  bankNo,
  birthDate,
  blankToUndefined,
  creditCode,
  freeText,
  idCard,
  idCardField,
  isValidBirthDate,
  mobile,
  MOBILE_RE,
  parseIdCard,
  personNameField,
  SPECIAL_CHARS_RE,
  ValidatorMsg,
} from './validators.ts';

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
  /** Spec 02 §5 shared: 'contact cannot be empty'. */
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
// KYC-only fields
// ---------------------------------------------------------------------------------------------------------------

/** Personal sex code of spec 02 §3/§9: '0' male, '1' female; required ('sex cannot be empty'). */
export const sexCode = z.preprocess(blankToUndefined, z.enum(['0', '1'], { error: KycMsg.sexRequired }));

/** Enterprise agent's sex as text (spec 02 §3 KycInfo authorSex "male/female text"): 男 or 女. */
export const sexText = z.preprocess(blankToUndefined, z.enum(['男', '女'], { error: KycMsg.sexRequired }));

/** A mobile field with its own "{label}不能为空" message, same pattern and message as `mobile` (spec 02 §5). */
function mobileField(requiredMessage: string) {
  return z.preprocess(
    blankToUndefined,
    z.string({ error: requiredMessage }).trim().regex(MOBILE_RE, Msg.mobileInvalid),
  );
}

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
/** Schema of userStatus: '1'–'4' (spec 02 §4). */
export const userStatusSchema = z.enum(['1', '2', '3', '4']);
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

// ---------------------------------------------------------------------------------------------------------------
// Response shapes (spec 02 §3, §4)
// ---------------------------------------------------------------------------------------------------------------

/**
 * KycInfo: the user and KYC info returned by `/api/user/getAuthInfo` (spec 02 §3), field names as the spec.
 * ID and bank numbers arrive masked ({@link maskIdNumber}, {@link maskBankNumber}) except to the owner's own edit
 * form; image fields are signed, expiring URLs.
 */
export interface KycInfo {
  userStatus: UserStatusValue;
  status: (typeof AccountType)[keyof typeof AccountType];
  authType: (typeof AuthType)[keyof typeof AuthType] | '';
  company: string;
  taxNumber: string;
  address: string;
  legalName: string;
  license: string;
  accountName: string;
  accountBank: string;
  accountNo: string;
  contactName: string;
  contactPhone: string;
  mobileReserve: string;
  contactIdcard: string;
  authorName: string;
  authorSex: string;
  authorBrith: string;
  authorPhone: string;
  authorIdcard: string;
  file: string;
  authorFront: string;
  authorBack: string;
  authorHand: string;
  userName: string;
  appId: string;
  securityKey: string;
  points: number;
  newsNum: number;
  checkRemark: string;
}

/**
 * KYC details added to `getAuthInfo`'s UserInfo (spec 02 §3 KycInfo; field names as the spec). Empty strings when not
 * submitted. `contactIdcard`, `authorIdcard`, `idCard` and `accountNo` are masked ({@link maskIdNumber},
 * {@link maskBankNumber}) unless the owner asks for the edit form (`{edit: '1'}`) while the form is editable (userStatus 1
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

// The verification gate (spec 02 §4): contract/kyc-gate.ts.
export { KYC_REQUIRED_CODE, KycGateMsg } from './kyc-gate.ts';

// ---------------------------------------------------------------------------------------------------------------
// Paths and submit payloads (spec 02 §3, §5, §7)
// ---------------------------------------------------------------------------------------------------------------

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

/**
 * Address on the ID card (spec 02 §5 personal): required with 'enter ID address', at most 200 characters, none of
 * the forbidden special characters of the shared check.
 */
export const idAddress = z.preprocess(
  blankToUndefined,
  z
    .string({ error: KycMsg.addressRequired })
    .trim()
    .max(200, Msg.tooLong('身份证地址', 200))
    .refine((s) => !SPECIAL_CHARS_RE.test(s), Msg.specialChars('身份证地址')),
);

/** Consent checkbox of the personal form (spec 02 §5): any non-blank value ticks it; otherwise 请先同意实名认证. */
export const kycConsent = z.preprocess(blankToUndefined, z.string({ error: KycMsg.consentRequired }));

/**
 * Enterprise submit (`/api/user/companyAuthorize`, spec 02 §3 "Enterprise submit form", §5): every field required
 * with '{field}不能为空'; `code` a GB 32100 credit code; `bankNo` 8–25 digits; `mobileReserve` and `authorPhone`
 * mobiles; `contactIdcard`/`authorIdcard` GB 11643 ID numbers; `authorSex` 男/女; `authorBrith` YYYY-MM-DD and equal
 * to the birth date inside `authorIdcard`; images (`license`, `file` the power of attorney, `authorFront`,
 * `authorBack`) by the enterprise rules. Asynchronous (images): use `parseAsync`.
 */
export const EnterpriseSubmitBody = z
  .object({
    name: freeText('企业名称', 100, true),
    code: creditCode,
    address: freeText('企业地址', 200, true),
    legalName: freeText('法定代表人姓名', 50, true),
    license: kycImageField('enterprise', Msg.required('营业执照')),
    account: freeText('开户名称', 100, true),
    bank: freeText('开户银行', 100, true),
    bankNo,
    mobileReserve: mobileField(KycMsg.mobileReserveRequired),
    contactIdcard: idCardField(KycMsg.contactRequired),
    authorName: personNameField('经办人姓名'),
    authorSex: sexText,
    authorBrith: birthDate,
    authorPhone: mobile,
    authorIdcard: idCardField(Msg.required('经办人身份证号')),
    file: kycImageField('enterprise', Msg.required('授权委托书')),
    authorFront: kycImageField('enterprise', Msg.required('身份证正面照片')),
    authorBack: kycImageField('enterprise', Msg.required('身份证反面照片')),
  })
  .superRefine((v, ctx) => {
    // Only when both fields are valid on their own: zod 4 runs object checks even after field issues.
    const info = typeof v.authorIdcard === 'string' ? parseIdCard(v.authorIdcard) : null;
    if (info && isValidBirthDate(String(v.authorBrith)) && info.birthDate !== v.authorBrith) {
      ctx.addIssue({ code: 'custom', message: KycMsg.birthDateMismatch, path: ['authorBrith'] });
    }
  });
/** The parsed enterprise submit. */
export type EnterpriseSubmit = z.infer<typeof EnterpriseSubmitBody>;

/**
 * Personal photo submit (`/api/peruser/perAuthorize`, spec 02 §3 "Personal photo submit payload", §5): `userName`
 * Chinese ≤ 16, `idCard` 15/18 digits, `sex` '0'/'1', `type` '1' (photo), `address` required ('enter ID
 * address', at most 200 characters, no special characters), three photos by the personal rules (an http value =
 * unchanged). Asynchronous (images): use `parseAsync`.
 */
export const PersonalPhotoSubmitBody = z.object({
  userName: personNameField('姓名'),
  idCard,
  sex: sexCode,
  type: z.preprocess(blankToUndefined, z.literal(AuthType.photo, { error: KycMsg.methodRequired })),
  address: idAddress,
  authorFront: kycImageField('personal', KycMsg.uploadFront),
  authorBack: kycImageField('personal', KycMsg.uploadBack),
  authorHand: kycImageField('personal', KycMsg.uploadHand),
});
/** The parsed personal photo submit. */
export type PersonalPhotoSubmit = z.infer<typeof PersonalPhotoSubmitBody>;

/**
 * Personal face submit (`/api/peruser/aliIdentification`, spec 02 §3 "Personal face submit payload": note the
 * lower-case `username`): Chinese name ≤ 16, ID number, `type` '3' (face), address. Synchronous.
 */
export const PersonalFaceSubmitBody = z.object({
  username: personNameField('姓名'),
  idCard,
  type: z.preprocess(blankToUndefined, z.literal(AuthType.face, { error: KycMsg.methodRequired })),
  address: idAddress,
});
/** The parsed personal face submit. */
export type PersonalFaceSubmit = z.infer<typeof PersonalFaceSubmitBody>;

/** Face result poll body (spec 02 §4, §7): the certify_id returned by the face submit. */
export const AliQueryBody = z.object({
  certify_id: z.preprocess(
    blankToUndefined,
    z.string({ error: Msg.badRequest }).regex(/^[A-Za-z0-9]{8,64}$/),
  ),
});
