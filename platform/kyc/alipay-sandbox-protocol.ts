/**
 * The OpenAPI 2.0 details the Alipay sandbox gateway checks and answers with (docs/decisions/010-kyc-foundations.md):
 * a business answer, the public error codes (code/msg with sub_code/sub_msg), the `timestamp` format, JSON
 * parameters sent as objects or as strings, and the masked name of a certification.
 */

/** A business answer: the fields of `<method>_response`. */
export type AlipayAnswer = Record<string, string>;

/** code/msg pairs of Alipay's public error codes. */
const ERR = {
  missing: { code: '40001', msg: 'Missing Required Arguments' },
  invalid: { code: '40002', msg: 'Invalid Arguments' },
  business: { code: '40004', msg: 'Business Failed' },
} as const;

/** An error answer of kind `kind` (its code and msg) with Alipay's `sub_code` and `sub_msg`. */
export function failure(kind: keyof typeof ERR, subCode: string, subMsg: string): AlipayAnswer {
  return { ...ERR[kind], sub_code: subCode, sub_msg: subMsg };
}

/** 'YYYY-MM-DD HH:mm:ss' in the sandbox's local time (as alipay-sdk writes it) → ms, or NaN. */
export function parseTimestamp(value: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(value);
  if (!m) return Number.NaN;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const t = new Date(y, mo - 1, d, h, mi, s);
  return t.getMonth() === mo - 1 && t.getDate() === d ? t.getTime() : Number.NaN;
}

/** Reads a JSON object that may come as an object or as a JSON string (the Java SDK sends strings). */
export function objectParam(value: unknown): Record<string, unknown> | null {
  let v = value;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return null;
    }
  }
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/** A parameter's text, trimmed; '' for anything not a string. */
export const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/** A name masked as the certification page shows it: the first character, then one '*' per other character. */
export function maskName(name: string): string {
  const chars = [...name];
  return chars.length <= 1 ? '*' : `${chars[0]}${'*'.repeat(chars.length - 1)}`;
}

/** The `biz_code`s of alipay.user.certify.open.initialize that the sandbox accepts (face verification kinds). */
export const FACE_BIZ_CODES = new Set(['FACE', 'CERT_PHOTO', 'CERT_PHOTO_FACE', 'SMART_FACE']);
