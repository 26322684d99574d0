/**
 * The shared validators of spec 02 §5 (and spec 01 §5), written once as zod 4 schemas with the spec's messages and
 * used by every area that needs them: mobile, password, codes, free text; the citizen identity number (GB 11643),
 * the unified social credit code (GB 32100), the bank account number, Chinese names and birth dates (real-name
 * verification, invoices). Used by the forms in app/ (Conform) and by the platform's handlers. No I/O. The building
 * blocks are in contract/validator-base.ts and the identity numbers in contract/identity-validators.ts; this module
 * re-exports both, so every area imports any validator from here.
 */
import { z } from 'zod';
import './zod-locale.ts';
import { Msg } from './messages.ts';
import { ValidatorMsg } from './validator-messages.ts';

export { ValidatorMsg } from './validator-messages.ts';
export * from './validator-base.ts';
export * from './identity-validators.ts';
import { isRealDate, chinaToday, MIN_BIRTH_DATE } from './identity-validators.ts';
import { MOBILE_RE, PASSWORD_RE, IMG_CODE_RE, SMS_CODE_RE, blankToUndefined } from './validator-base.ts';

export const mobile = z.preprocess(
  blankToUndefined,
  z
    .string({ error: Msg.required('手机号') })
    .trim()
    .regex(MOBILE_RE, Msg.mobileInvalid),
);
/**
 * A new password (spec 01 §5: 6–18 characters mixing letters and digits), its empty message naming the field as its
 * form labels it (`label`: 密码 on registration and reset, 新密码 on the settings page).
 */
export function passwordField(label: string) {
  return z.preprocess(
    blankToUndefined,
    z.string({ error: Msg.required(label) }).regex(PASSWORD_RE, Msg.passwordRule),
  );
}
/** The password of registration and reset ({@link passwordField} labelled 密码). */
export const password = passwordField('密码');
/** Login accepts any stored password shape (older accounts may predate the rule); only presence is checked. */
export const loginPassword = z.preprocess(
  blankToUndefined,
  z.string({ error: Msg.required('密码') }).max(64),
);
export const imgCode = z.preprocess(
  blankToUndefined,
  z
    .string({ error: Msg.required('图形验证码') })
    .trim()
    .regex(IMG_CODE_RE, Msg.imgCodeInvalid),
);
export const smsCode = z.preprocess(
  blankToUndefined,
  z
    .string({ error: Msg.required('短信验证码') })
    .trim()
    .regex(SMS_CODE_RE, Msg.smsCodeInvalid),
);

// ---------------------------------------------------------------------------------------------------------------
// Names, bank account number, birth date
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
 * Personal name (spec 02 §5 "Chinese characters only, at most 16"): required, 2–16 characters of
 * {@link isChineseName}. The minimum of 2 is ours (a Chinese name has a surname and a given name).
 */
export function personNameField(field: string) {
  return z.preprocess(
    blankToUndefined,
    z
      .string({ error: Msg.required(field) })
      .trim()
      .refine((s) => isChineseName(s, 2, 16), ValidatorMsg.nameChinese),
  );
}

/** The shared "Chinese name: 2-6 characters" validator of spec 02 §5. */
export function shortChineseNameField(field: string) {
  return z.preprocess(
    blankToUndefined,
    z
      .string({ error: Msg.required(field) })
      .trim()
      .refine((s) => isChineseName(s, 2, 6), ValidatorMsg.shortNameChinese),
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
    .refine((s) => BANK_NO_RE.test(s), ValidatorMsg.bankNoInvalid),
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
    .refine((s) => isValidBirthDate(s), ValidatorMsg.birthDateInvalid),
);

/**
 * A courier's waybill number (the paper invoice, the paper notarial certificate): 6–30 letters or digits; blank is
 * `required`, anything else `invalid`.
 */
export function courierNumber(required: string, invalid: string) {
  return z.preprocess(
    blankToUndefined,
    z
      .string({ error: required })
      .trim()
      .regex(/^[0-9A-Za-z]{6,30}$/, invalid),
  );
}
