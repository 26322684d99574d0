/**
 * The building blocks of the shared validators (spec 01 §5, spec 02 §5): the patterns of mobile numbers, passwords and
 * codes, the blank-to-undefined preprocessing behind every "{field}不能为空" message, required and free text, multi-line
 * text with its line breaks counted as the browser counts them, row ids and the optional integers of list queries.
 * Re-exported by contract/validators.ts, where every area imports them from. No I/O.
 */
import { z } from 'zod';
import './zod-locale.ts';
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
