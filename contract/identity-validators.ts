/**
 * The identity numbers of real-name verification and invoices (spec 02 §5), as checks and zod 4 fields with the
 * spec's messages: the citizen identity number (GB 11643-1999, and the 15-digit numbers of GB 11643-1989) with its
 * region, birth date and sex, and the unified social credit code (GB 32100-2015). Re-exported by
 * contract/validators.ts, where every area imports them from. No I/O.
 */
import { z } from 'zod';
import './zod-locale.ts';
import { Msg } from './messages.ts';
import { ValidatorMsg } from './validator-messages.ts';
import { blankToUndefined } from './validator-base.ts';

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
export function isRealDate(y: number, m: number, d: number): boolean {
  if (!Number.isInteger(y) || !Number.isInteger(m) || !Number.isInteger(d)) return false;
  if (m < 1 || m > 12 || d < 1 || d > 31) return false;
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** Today's date in China (UTC+8, no DST) as YYYY-MM-DD, for "not in the future" checks. */
export function chinaToday(now: number): string {
  return new Date(now + 8 * 3600_000).toISOString().slice(0, 10);
}

/** Earliest birth date the validators accept. */
export const MIN_BIRTH_DATE = '1900-01-01';

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
