/**
 * The shared validators of spec 02 §5 (and spec 01 §5), written once as zod 4 schemas with the spec's messages and
 * used by every area that needs them: mobile, password, codes, free text; the citizen identity number (GB 11643),
 * the unified social credit code (GB 32100), the bank account number, Chinese names and birth dates (real-name
 * verification, invoices). Used by the forms in app/ (Conform) and by the platform's handlers. No I/O.
 */
import { z } from 'zod';
import './zod-locale.ts';
import { Msg } from './messages.ts';
import { ValidatorMsg } from './validator-messages.ts';

export { ValidatorMsg } from './validator-messages.ts';

/** Mobile number: /^1[3-9]\d{9}$/ (spec 02 §5). */
export const MOBILE_RE = /^1[3-9]\d{9}$/;
/** Password: 6–18 characters, letters and digits only, at least one of each (spec 01 §5, spec 02 §5). */
export const PASSWORD_RE = /^(?=.*[A-Za-z])(?=.*\d)[A-Za-z\d]{6,18}$/;
/** Image captcha: 4 letters or digits (spec 02 §5). */
export const IMG_CODE_RE = /^[A-Za-z0-9]{4}$/;
/** SMS code: 6 digits (spec 02 §5). */
export const SMS_CODE_RE = /^\d{6}$/;
/** Characters forbidden in free-text fields that use the shared check: { } [ ] < > \ " ' (spec 01 §5). */
export const SPECIAL_CHARS_RE = /[{}[\]<>\\"']/;

/** Maps a blank form value (empty or only spaces) to undefined, so `required` messages fire for blank input. */
export const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** A required text field with the spec's "{field}不能为空" message. */
export function requiredText(field: string) {
  return z.preprocess(
    blankToUndefined,
    z.string({ error: Msg.required(field) }).transform((s) => s.trim()),
  );
}

/**
 * A form's line breaks as one LF each: CRLF and a lone CR become LF. Browsers submit a textarea's line breaks as CRLF
 * (two characters, HTML "form submission" newline normalisation) while its `maxlength` counts each break as one
 * (the API value, LF only); counting after this matches the browser, so a remark that fits the textarea fits the
 * check (spec 02 §5 "Remark is at most 150 characters"). Pure; any string in, the normalised string out.
 */
export function normalizeLineBreaks(s: string): string {
  return s.replace(/\r\n?/g, '\n');
}

/**
 * The base of every multi-line (textarea) field: a string (`requiredMessage` when it is not one), line breaks
 * normalised by {@link normalizeLineBreaks} before anything counts them, surrounding blanks trimmed. Callers add
 * `.min()`/`.max()` (in UTF-16 code units, as the textarea's `maxlength` counts) and keep the normalised text.
 */
export function multilineText(requiredMessage?: string) {
  return z
    .string(requiredMessage === undefined ? undefined : { error: requiredMessage })
    .overwrite(normalizeLineBreaks)
    .trim();
}

/**
 * A free-text field (optional unless `required`), at most `max` characters, no forbidden special characters. Line
 * breaks count as one character each ({@link multilineText}), so the field also serves a textarea.
 */
export function freeText(field: string, max: number, required = false) {
  const base = multilineText(Msg.required(field))
    .max(max, Msg.tooLong(field, max))
    .refine((s) => !SPECIAL_CHARS_RE.test(s), Msg.specialChars(field));
  return required ? z.preprocess(blankToUndefined, base) : z.preprocess(blankToUndefined, base.optional());
}

/**
 * A row's id (a seal, an address, an order …): a positive integer, as a number or digits; `message` for anything
 * else, blank or missing included.
 */
export function rowId(message: string) {
  return z.preprocess(
    (v) => (typeof v === 'number' ? String(v) : blankToUndefined(v)),
    z
      .string({ error: message })
      .trim()
      .regex(/^[1-9]\d{0,14}$/, message)
      .transform(Number),
  );
}

/** `{id}` of an owned row (a seal, an address …): a positive integer, as a number or digits; else 参数错误. */
export const IdBody = z.object({ id: rowId(Msg.invalidId) });

/**
 * An optional integer of a list query (page, times, a status) within [min, max]: '' or absent is undefined, anything
 * else that is no such integer answers 参数错误.
 */
export function optionalInt(min: number, max: number) {
  return z.preprocess(
    (v) => (v === '' || v == null ? undefined : v),
    z.coerce.number({ error: Msg.badRequest }).int(Msg.badRequest).min(min).max(max).optional(),
  );
}

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
// Citizen identity number (GB 11643-1999; 15-digit legacy numbers of GB 11643-1989)
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

/**
 * Builds an ID-number field: required (message `requiredMessage`), valid per {@link parseIdCard} (message
 * {@link ValidatorMsg.idCardInvalid}); outputs the normalised number (upper-case X, no blanks).
 */
export function idCardField(requiredMessage: string = ValidatorMsg.idCardRequired) {
  return z.preprocess(
    blankToUndefined,
    z
      .string({ error: requiredMessage })
      .transform((s) => s.trim().toUpperCase())
      .refine((s) => isValidIdCard(s), ValidatorMsg.idCardInvalid),
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
    .refine(isValidCreditCode, ValidatorMsg.creditCodeInvalid),
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
