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
import { kycImageField } from './kyc-images.ts';
import { Msg } from './messages.ts';
import { type AccountType, AuthType, KycMsg, type UserStatusValue } from './kyc-codes.ts';
import {
  bankNo,
  birthDate,
  blankToUndefined,
  creditCode,
  freeText,
  idCard,
  idCardField,
  isValidBirthDate,
  MOBILE_RE,
  parseIdCard,
  personNameField,
  SPECIAL_CHARS_RE,
} from './validators.ts';

// The messages, codes, masking and paths live without zod in contract/kyc-codes.ts (pages import them from there).
export {
  AccountType,
  AuthType,
  isKycEditable,
  KYC_REVIEW_WORKING_DAYS,
  KycMsg,
  KycPaths,
  maskBankNumber,
  maskIdNumber,
  USER_STATUS_MEANING,
  UserStatus,
  type UserStatusValue,
} from './kyc-codes.ts';

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
 * with '{field}不能为空' naming the field as the form labels it (联系人身份证号不能为空, 经办人手机号不能为空; the
 * spec's own texts 预留手机号不能为空 and 性别不能为空); `code` a GB 32100 credit code; `bankNo` 8–25 digits;
 * `mobileReserve` and `authorPhone` mobiles; `contactIdcard`/`authorIdcard` GB 11643 ID numbers; `authorSex` 男/女;
 * `authorBrith` YYYY-MM-DD and equal to the birth date inside `authorIdcard`; images (`license`, `file` the power of
 * attorney, `authorFront`, `authorBack`) by the enterprise rules. Asynchronous (images): use `parseAsync`.
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
    contactIdcard: idCardField(Msg.required('联系人身份证号')),
    authorName: personNameField('经办人姓名'),
    authorSex: sexText,
    authorBrith: birthDate,
    authorPhone: mobileField(Msg.required('经办人手机号')),
    authorIdcard: idCardField(Msg.required('经办人身份证号')),
    file: kycImageField('enterprise', Msg.required('授权委托书')),
    authorFront: kycImageField('enterprise', Msg.required('经办人身份证正面照片')),
    authorBack: kycImageField('enterprise', Msg.required('经办人身份证反面照片')),
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

/** Schema of userStatus: '1'–'4' (spec 02 §4). */
export const userStatusSchema = z.enum(['1', '2', '3', '4']);
