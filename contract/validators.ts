/**
 * The shared validators of spec 02 §5 (and spec 01 §5), written once as zod 4 schemas with the spec's messages.
 * Used by the forms in app/ (Conform) and by the platform's handlers.
 */
import { z } from 'zod';
import { Msg } from './messages.ts';

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

/** Trims a form value and maps the empty string to undefined, so `required` messages fire for blank input. */
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** A required text field with the spec's "{field}不能为空" message. */
export function requiredText(field: string) {
  return z.preprocess(
    blankToUndefined,
    z.string({ error: Msg.required(field) }).transform((s) => s.trim()),
  );
}

/** A free-text field (optional unless `required`), at most `max` characters, no forbidden special characters. */
export function freeText(field: string, max: number, required = false) {
  const base = z
    .string({ error: Msg.required(field) })
    .trim()
    .max(max, Msg.tooLong(field, max))
    .refine((s) => !SPECIAL_CHARS_RE.test(s), Msg.specialChars(field));
  return required ? z.preprocess(blankToUndefined, base) : z.preprocess(blankToUndefined, base.optional());
}

/** `{id}` of an owned row (a seal, an address …): a positive integer, as a number or digits; else 参数错误. */
export const IdBody = z.object({
  id: z
    .preprocess(
      (v) => (typeof v === 'number' ? String(v) : v),
      z
        .string({ error: Msg.invalidId })
        .trim()
        .regex(/^[1-9]\d{0,14}$/, Msg.invalidId),
    )
    .transform(Number),
});

export const mobile = z.preprocess(
  blankToUndefined,
  z
    .string({ error: Msg.required('手机号') })
    .trim()
    .regex(MOBILE_RE, Msg.mobileInvalid),
);
export const password = z.preprocess(
  blankToUndefined,
  z.string({ error: Msg.required('密码') }).regex(PASSWORD_RE, Msg.passwordRule),
);
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
