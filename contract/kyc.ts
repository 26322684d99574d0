/**
 * Real-name verification (KYC) rules shared by app/ and platform/ (issue 5; spec 02 §3, §4, §5, §9): the ID number
 * (GB 11643-1999), unified social credit code (GB 32100-2015), name, bank number and birth-date validators, the
 * image rules (checked by magic bytes), masking of ID and bank numbers, userStatus, and the submit payload schemas.
 * No I/O: `file-type/core` only reads the bytes it is given; it is imported lazily on the first image check, so
 * pages that import the contract without checking images do not download it.
 */
import { z } from 'zod';
import { Msg } from './messages.ts';
import { freeText, MOBILE_RE, mobile, SPECIAL_CHARS_RE } from './validators.ts';

/**
 * KYC messages, zh-CN. Texts the spec gives in Chinese are verbatim (the enterprise image messages, including the
 * original's 超多); texts the spec paraphrases in English are ours, listed in docs/decisions/010-kyc-foundations.md.
 */
export const KycMsg = {
  /** Spec 02 §5 personal: 'enter Chinese characters not exceeding 16'. */
  nameChinese: '请输入不超过16个字的中文姓名',
  /** Spec 02 §5 shared validator "Chinese name: 2-6 characters" (ours). */
  shortNameChinese: '请输入2-6个字的中文姓名',
  /** Spec 02 §5 personal: 'enter correct format' (ID number; also a wrong check digit or birth date). */
  idCardInvalid: '请输入正确格式的身份证号码',
  /** Spec 02 §5 personal: 'please fill in ID number'. */
  idCardRequired: '请填写身份证号码',
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
  /** Spec 02 §5 images, personal: 'uploaded image cannot exceed 3M'. */
  personalImageTooLarge: '上传图片不能超过3M',
  /** Spec 02 §5 images, personal: 'image can only be png, jpg or JPEG'. */
  personalImageBadType: '上传图片只能是png,jpg或JPEG格式!',
  /** Spec 02 §5 images, enterprise (verbatim). */
  enterpriseImageTooLarge: '上传图片不能超多20M',
  /** Spec 02 §5 images, enterprise (verbatim). */
  enterpriseImageBadType: '上传图片只能是png,jpg或JPEG格式!',
  // not shown in the spec: ours
  creditCodeInvalid: '请输入正确的统一社会信用代码',
  bankNoInvalid: '请输入8-25位数字的银行账号',
  birthDateInvalid: '请输入正确的出生日期（YYYY-MM-DD）',
  birthDateMismatch: '出生日期与身份证号码不一致',
} as const;

// ---------------------------------------------------------------------------------------------------------------
// ID number (GB 11643-1999 citizen identity number; 15-digit legacy numbers of GB 11643-1989)
// ---------------------------------------------------------------------------------------------------------------

/** ISO 7064 MOD 11-2 weights of positions 1–17 (2^(17-i) mod 11), GB 11643-1999 §8.2. */
const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2] as const;
/** Check character for (Σ aᵢ·Wᵢ) mod 11 = 0…10, GB 11643-1999 §8.2. */
const ID_CHECK_CHARS = '10X98765432';
/**
 * Province-level codes of GB/T 2260 (11–65), 71 Taiwan, 81 Hong Kong, 82 Macao, and 83 (residence permits of
 * Taiwan residents use it). The first two digits of every ID number are one of these.
 */
const ID_PROVINCES = new Set([
  11, 12, 13, 14, 15, 21, 22, 23, 31, 32, 33, 34, 35, 36, 37, 41, 42, 43, 44, 45, 46, 50, 51, 52, 53, 54, 61,
  62, 63, 64, 65, 71, 81, 82, 83,
]);

/**
 * The check character of the first 17 digits of an 18-digit ID number (ISO 7064 MOD 11-2, GB 11643-1999 §8.2):
 * '0'–'9' or 'X'. Throws a TypeError when `first17` is not exactly 17 ASCII digits.
 */
export function idCardCheckChar(first17: string): string {
  if (!/^\d{17}$/.test(first17)) throw new TypeError('idCardCheckChar needs 17 digits');
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * ID_WEIGHTS[i]!;
  return ID_CHECK_CHARS[sum % 11]!;
}

/** True when y-m-d (month 1–12) is a date of the proleptic Gregorian calendar. */
function isRealDate(y: number, m: number, d: number): boolean {
  if (!Number.isInteger(y) || !Number.isInteger(m) || !Number.isInteger(d)) return false;
  if (m < 1 || m > 12 || d < 1 || d > 31) return false;
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** Today's date in China (UTC+8, no DST) as YYYY-MM-DD, for "not in the future" checks. */
function chinaToday(now: number): string {
  return new Date(now + 8 * 3600_000).toISOString().slice(0, 10);
}

/** Earliest birth date the validators accept. */
const MIN_BIRTH_DATE = '1900-01-01';

/** What an ID number says about its holder. `birthDate` is YYYY-MM-DD; `sex` follows spec 02 §9 ('0' male). */
export interface IdCardInfo {
  /** The number normalised: 18 digits with an upper-case X, or 15 digits. */
  normalized: string;
  birthDate: string;
  sex: '0' | '1';
  /** The 6-digit administrative division code (GB/T 2260) of the place of first registration. */
  region: string;
}

/**
 * Parses and validates a citizen identity number (spec 02 §5 "15 or 18 digit pattern"; GB 11643-1999):
 * - 18 characters: 6-digit region (province part must be a GB/T 2260 province, or 71/81/82/83), birth date
 *   YYYYMMDD, 3-digit sequence (odd = male), check character by ISO 7064 MOD 11-2 ('X' or 'x' for 10);
 * - 15 digits (legacy GB 11643-1989): region, birth date YYMMDD read as 19YY, 3-digit sequence, no check digit.
 * The birth date must be a real date between 1900-01-01 and today (China time). Surrounding blanks are ignored.
 * Returns null when the number is invalid; never throws.
 * @param now milliseconds since the epoch, for "today" (tests pass a fixed value)
 */
export function parseIdCard(value: string, now: number = Date.now()): IdCardInfo | null {
  const s = value.trim().toUpperCase();
  let birth: string;
  let seqDigit: number;
  if (/^\d{17}[\dX]$/.test(s)) {
    if (idCardCheckChar(s.slice(0, 17)) !== s[17]) return null;
    birth = `${s.slice(6, 10)}-${s.slice(10, 12)}-${s.slice(12, 14)}`;
    seqDigit = Number(s[16]);
  } else if (/^\d{15}$/.test(s)) {
    birth = `19${s.slice(6, 8)}-${s.slice(8, 10)}-${s.slice(10, 12)}`;
    seqDigit = Number(s[14]);
  } else {
    return null;
  }
  if (!ID_PROVINCES.has(Number(s.slice(0, 2)))) return null;
  const [y, m, d] = birth.split('-').map(Number) as [number, number, number];
  if (!isRealDate(y, m, d) || birth < MIN_BIRTH_DATE || birth > chinaToday(now)) return null;
  return { normalized: s, birthDate: birth, sex: seqDigit % 2 === 1 ? '0' : '1', region: s.slice(0, 6) };
}

/** True when `value` is a valid 15- or 18-digit ID number; see {@link parseIdCard} for the rules. */
export function isValidIdCard(value: string, now: number = Date.now()): boolean {
  return parseIdCard(value, now) !== null;
}

/** Maps blank strings to undefined so the "required" message fires, like contract/validators.ts does. */
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/**
 * Builds an ID-number field: required (message `requiredMessage`), valid per {@link parseIdCard} (message
 * {@link KycMsg.idCardInvalid}); outputs the normalised number (upper-case X, no blanks).
 */
export function idCardField(requiredMessage: string = KycMsg.idCardRequired) {
  return z.preprocess(
    blankToUndefined,
    z
      .string({ error: requiredMessage })
      .transform((s) => s.trim().toUpperCase())
      .refine((s) => isValidIdCard(s), KycMsg.idCardInvalid),
  );
}

/** ID number of the personal verification (spec 02 §5): required ('please fill in ID number'), 15/18 digits. */
export const idCard = idCardField();

// ---------------------------------------------------------------------------------------------------------------
// Unified social credit code (GB 32100-2015)
// ---------------------------------------------------------------------------------------------------------------

/** The 31 characters of GB 32100-2015 (no I, O, S, V, Z); a character's index is its value. */
const USCC_CHARS = '0123456789ABCDEFGHJKLMNPQRTUWXY';
/** Weights 3^(i-1) mod 31 of positions 1–17, GB 32100-2015 §4.5. */
const USCC_WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28] as const;

/**
 * The check character of the first 17 characters of a unified social credit code (GB 32100-2015 §4.5, mod 31):
 * C18 = 31 − (Σ Cᵢ·Wᵢ mod 31), with 31 written as '0'. Throws a TypeError when `first17` is not 17 characters of
 * the code's alphabet (0-9, A-H, J-N, P-R, T-U, W-Y; upper case).
 */
export function creditCodeCheckChar(first17: string): string {
  if (first17.length !== 17) throw new TypeError('creditCodeCheckChar needs 17 characters');
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const v = USCC_CHARS.indexOf(first17[i]!);
    if (v < 0) throw new TypeError(`not a credit-code character: ${first17[i]}`);
    sum += v * USCC_WEIGHTS[i]!;
  }
  return USCC_CHARS[(31 - (sum % 31)) % 31]!;
}

/**
 * True when `value` is a unified social credit code (GB 32100-2015): 18 characters of the code's alphabet
 * (lower case accepted), positions 3–8 (the registering authority's GB/T 2260 division) digits, and position 18 the
 * mod-31 check character. Never throws.
 */
export function isValidCreditCode(value: string): boolean {
  const s = value.trim().toUpperCase();
  if (!/^[0-9A-HJ-NP-RTUW-Y]{2}\d{6}[0-9A-HJ-NP-RTUW-Y]{10}$/.test(s)) return false;
  return creditCodeCheckChar(s.slice(0, 17)) === s[17];
}

/** Credit code field: required ('统一社会信用代码不能为空'), valid per {@link isValidCreditCode}; outputs upper case. */
export const creditCode = z.preprocess(
  blankToUndefined,
  z
    .string({ error: Msg.required('统一社会信用代码') })
    .transform((s) => s.trim().toUpperCase())
    .refine(isValidCreditCode, KycMsg.creditCodeInvalid),
);

// ---------------------------------------------------------------------------------------------------------------
// Names, bank number, birth date, sex
// ---------------------------------------------------------------------------------------------------------------

/**
 * Chinese personal name: Han characters (any CJK block, so rare characters of Extension B+ count), optionally
 * joined by the middle dot '·' that ID cards use in names of ethnic minorities (never first, last or doubled).
 */
const CHINESE_NAME_RE = /^\p{Script=Han}+(?:·\p{Script=Han}+)*$/u;

/** True when `value` is a Chinese name of `min`–`max` characters (code points, dots included). */
export function isChineseName(value: string, min: number, max: number): boolean {
  const length = [...value].length;
  return CHINESE_NAME_RE.test(value) && length >= min && length <= max;
}

/**
 * Personal verification name (spec 02 §5 "Chinese characters only, at most 16"): required, 2–16 characters of
 * {@link isChineseName}. The minimum of 2 is ours (a Chinese name has a surname and a given name).
 */
export function personNameField(field: string) {
  return z.preprocess(
    blankToUndefined,
    z
      .string({ error: Msg.required(field) })
      .trim()
      .refine((s) => isChineseName(s, 2, 16), KycMsg.nameChinese),
  );
}

/** The shared "Chinese name: 2-6 characters" validator of spec 02 §5. */
export function shortChineseNameField(field: string) {
  return z.preprocess(
    blankToUndefined,
    z
      .string({ error: Msg.required(field) })
      .trim()
      .refine((s) => isChineseName(s, 2, 6), KycMsg.shortNameChinese),
  );
}

/** Bank account number: 8–25 digits (spec 02 §5). Blanks inside (as printed on cards) are ignored. */
export const BANK_NO_RE = /^\d{8,25}$/;

/** Bank account field: required ('银行账号不能为空'), 8–25 digits after removing blanks; outputs the digits. */
export const bankNo = z.preprocess(
  blankToUndefined,
  z
    .string({ error: Msg.required('银行账号') })
    .transform((s) => s.replace(/\s+/g, ''))
    .refine((s) => BANK_NO_RE.test(s), KycMsg.bankNoInvalid),
);

/**
 * True when `value` is YYYY-MM-DD, a real date, not before 1900-01-01 and not after today (China time).
 * @param now milliseconds since the epoch, for "today"
 */
export function isValidBirthDate(value: string, now: number = Date.now()): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  if (!isRealDate(Number(m[1]), Number(m[2]), Number(m[3]))) return false;
  return value >= MIN_BIRTH_DATE && value <= chinaToday(now);
}

/** Birth date field (spec 02 §3 authorBrith, YYYY-MM-DD): required, valid per {@link isValidBirthDate}. */
export const birthDate = z.preprocess(
  blankToUndefined,
  z
    .string({ error: Msg.required('出生日期') })
    .trim()
    .refine((s) => isValidBirthDate(s), KycMsg.birthDateInvalid),
);

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
// Images
// ---------------------------------------------------------------------------------------------------------------

/** Which image rules apply: the personal photo method, or the enterprise form (all its images). */
export type KycImageKind = 'personal' | 'enterprise';

/** An image rule: byte limit, formats (by magic bytes) and the messages of spec 02 §5. */
export interface KycImageRule {
  /** Largest accepted size in bytes. */
  maxBytes: number;
  /** File extensions the name may carry (lower case, no dot). */
  extensions: readonly string[];
  /** MIME types the bytes may be detected as. */
  mimes: readonly string[];
  tooLarge: string;
  badType: string;
}

/**
 * The image rules of spec 02 §5 and §9: personal jpg/png/gif/jpeg ≤ 3145728 bytes (3 MB); enterprise png/jpg/jpeg
 * ≤ 20971520 bytes (20 MB). An animated PNG (image/apng) counts as png.
 */
export const KYC_IMAGE_RULES: Readonly<Record<KycImageKind, KycImageRule>> = {
  personal: {
    maxBytes: 3 * 1024 * 1024,
    extensions: ['jpg', 'jpeg', 'png', 'gif'],
    mimes: ['image/jpeg', 'image/png', 'image/apng', 'image/gif'],
    tooLarge: KycMsg.personalImageTooLarge,
    badType: KycMsg.personalImageBadType,
  },
  enterprise: {
    maxBytes: 20 * 1024 * 1024,
    extensions: ['jpg', 'jpeg', 'png'],
    mimes: ['image/jpeg', 'image/png', 'image/apng'],
    tooLarge: KycMsg.enterpriseImageTooLarge,
    badType: KycMsg.enterpriseImageBadType,
  },
};

/** How many leading bytes {@link checkKycImage} needs to recognise a type (file-type's detection window). */
export const KYC_IMAGE_SNIFF_BYTES = 4100;

/** Which file extensions each detected MIME type may be named with. */
const EXTENSIONS_OF_MIME: Readonly<Record<string, readonly string[]>> = {
  'image/jpeg': ['jpg', 'jpeg'],
  'image/png': ['png'],
  'image/apng': ['png'],
  'image/gif': ['gif'],
};

/**
 * An uploaded image as the platform sees it while streaming: the first bytes (at least
 * {@link KYC_IMAGE_SNIFF_BYTES}, or the whole file if shorter), the total size in bytes, and the client's file name.
 */
export interface KycImageUpload {
  head: Uint8Array;
  size: number;
  fileName?: string;
}

/** Any value an image field may hold: an http(s) URL of the stored image (unchanged), a Blob/File, or an upload. */
export type KycImageInput = string | Blob | KycImageUpload;

/** The outcome of {@link checkKycImage}. */
export type KycImageCheck =
  | { ok: true; unchanged: true }
  | { ok: true; unchanged: false; mime: string; size: number }
  | { ok: false; reason: 'missing' | 'too-large' | 'bad-type'; message: string };

/**
 * True when an image field's value means "keep the stored image": a string starting with "http" (spec 02 §3: the
 * client sends the stored image's URL, or empty, for an unchanged image).
 */
export function isUnchangedImage(value: unknown): value is string {
  return typeof value === 'string' && value.trim().startsWith('http');
}

const isUploadObject = (v: unknown): v is KycImageUpload =>
  typeof v === 'object' &&
  v !== null &&
  'head' in v &&
  v.head instanceof Uint8Array &&
  'size' in v &&
  typeof v.size === 'number';

/**
 * Checks one KYC image against the rules of `kind` (spec 02 §5):
 * - a string starting with "http" → `{ok: true, unchanged: true}` (whether the user really has that image stored is
 *   the platform's business); any other string, undefined, null, or an empty file → `reason: 'missing'` (message
 *   empty: the caller supplies the field's "please upload" text);
 * - size above the limit (bytes) → 'too-large' with the spec's message, checked before the type;
 * - type detected from the magic bytes (file-type) not among the kind's formats, or a file name whose extension is
 *   not one the detected type may carry (a JPEG named .png, a PNG named .gif) → 'bad-type' with the spec's message.
 * Never throws for bad input; resolves asynchronously because the detector does.
 */
export async function checkKycImage(
  kind: KycImageKind,
  value: KycImageInput | undefined | null,
): Promise<KycImageCheck> {
  const rule = KYC_IMAGE_RULES[kind];
  if (value === undefined || value === null || typeof value === 'string') {
    return isUnchangedImage(value)
      ? { ok: true, unchanged: true }
      : { ok: false, reason: 'missing', message: '' };
  }
  let upload: KycImageUpload;
  if (typeof Blob !== 'undefined' && value instanceof Blob) {
    const name = 'name' in value && typeof value.name === 'string' ? value.name : undefined;
    upload = {
      head: new Uint8Array(await value.slice(0, KYC_IMAGE_SNIFF_BYTES).arrayBuffer()),
      size: value.size,
      ...(name ? { fileName: name } : {}),
    };
  } else if (isUploadObject(value)) {
    upload = value;
  } else {
    return { ok: false, reason: 'missing', message: '' };
  }
  if (upload.size <= 0 || upload.head.byteLength === 0) return { ok: false, reason: 'missing', message: '' };
  if (upload.size > rule.maxBytes) return { ok: false, reason: 'too-large', message: rule.tooLarge };
  const { fileTypeFromBuffer } = await import('file-type/core');
  const detected = await fileTypeFromBuffer(upload.head).catch(() => undefined);
  const badType = { ok: false, reason: 'bad-type', message: rule.badType } as const;
  if (!detected || !rule.mimes.includes(detected.mime)) return badType;
  if (upload.fileName !== undefined) {
    const dot = upload.fileName.lastIndexOf('.');
    const ext = dot >= 0 ? upload.fileName.slice(dot + 1).toLowerCase() : '';
    if (!rule.extensions.includes(ext) || !(EXTENSIONS_OF_MIME[detected.mime] ?? []).includes(ext))
      return badType;
  }
  return { ok: true, unchanged: false, mime: detected.mime, size: upload.size };
}

/**
 * An image field of a submit payload: accepts an http(s) URL string (unchanged), a Blob/File (the form's file
 * input) or a {@link KycImageUpload} (the platform's streamed part), and checks it with {@link checkKycImage}.
 * Missing (blank string, empty file, absent) → `missingMessage`. The check is asynchronous: parse with
 * `parseAsync`/`safeParseAsync` (Conform: `parseWithZod(formData, { schema, async: true })`).
 */
export function kycImageField(kind: KycImageKind, missingMessage: string) {
  return z
    .custom<KycImageInput | undefined>(
      (v) =>
        v === undefined ||
        v === null ||
        typeof v === 'string' ||
        (typeof Blob !== 'undefined' && v instanceof Blob) ||
        isUploadObject(v),
      { error: missingMessage },
    )
    .superRefine(async (v, ctx) => {
      const result = await checkKycImage(kind, v);
      if (!result.ok) ctx.addIssue({ code: 'custom', message: result.message || missingMessage });
    })
    .transform((v) => v as KycImageInput);
}

// ---------------------------------------------------------------------------------------------------------------
// Masking
// ---------------------------------------------------------------------------------------------------------------

/**
 * Masks an ID number for display and logs (issue 5 privacy): keeps the first 3 and the last 4 characters and
 * replaces every other character with '*', keeping the length ('11010519491231002X' → '110***********002X').
 * Values of 7 characters or fewer are masked entirely; blanks are removed first; '' stays ''.
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

// ---------------------------------------------------------------------------------------------------------------
// Submit payloads (spec 02 §3, §5, §7)
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
    contactIdcard: idCardField(Msg.required('联系人身份证号')),
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
