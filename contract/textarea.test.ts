/**
 * Every textarea's length limit counts a line break as one character, as the browser's `maxlength` does, although
 * the form sends it as CRLF (spec 02 §5 "Remark is at most 150 characters"), and keeps the text with LF breaks:
 * the invoice application's remark, the notary application's remark, and the operators' reasons (invoice and KYC
 * rejection, notary return and termination).
 */
import { describe, expect, it } from 'vitest';
import { InvoiceAskBody, InvoiceMsg, InvoiceRejectBody } from './invoice.ts';
import { KycRejectBody } from './kyc-review.ts';
import { KycMsg } from './kyc.ts';
import { Msg } from './messages.ts';
import { NotaryReturnBody, NotaryTerminateBody } from './notary-office.ts';
import { ApplicationFormBody } from './notary.ts';
import { multilineText, normalizeLineBreaks } from './validators.ts';

/** `n` characters in all with one line break (counted once) in the middle, written with `br`. */
function withBreak(n: number, br: string): string {
  const left = Math.floor((n - 1) / 2);
  return `${'甲'.repeat(left)}${br}${'乙'.repeat(n - 1 - left)}`;
}

const messages = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? [] : (r.error?.issues.map((i) => i.message) ?? []);

describe('normalizeLineBreaks', () => {
  it('turns CRLF and a lone CR into LF and leaves LF alone', () => {
    expect(normalizeLineBreaks('a\r\nb\rc\nd\r\n\r\ne')).toBe('a\nb\nc\nd\n\ne');
    expect(normalizeLineBreaks('')).toBe('');
  });
  it('counts before trimming: a text of only breaks is blank', () => {
    expect(multilineText().parse('\r\n\r\n')).toBe('');
  });
});

describe('textarea limits', () => {
  const invoiceAsk = { ids: '[1]', userInvoiceId: '1', userAddressId: '1' };
  it('invoice remark: 150 characters with a CRLF break pass and are kept with LF; 151 are refused', () => {
    for (const br of ['\r\n', '\r', '\n']) {
      const r = InvoiceAskBody.safeParse({ ...invoiceAsk, remark: withBreak(150, br) });
      expect(messages(r)).toEqual([]);
      expect(r.data?.remark).toBe(withBreak(150, '\n'));
      expect(messages(InvoiceAskBody.safeParse({ ...invoiceAsk, remark: withBreak(151, br) }))).toEqual([
        InvoiceMsg.remarkTooLong,
      ]);
    }
  });

  it('notary application remark: the same rule at 150', () => {
    const form = { orderId: '1', purpose: '诉讼', usePlace: '北京市', copies: '1', addressId: '1' };
    const r = ApplicationFormBody.safeParse({ ...form, remark: withBreak(150, '\r\n') });
    expect(messages(r)).toEqual([]);
    expect(r.data?.remark).toBe(withBreak(150, '\n'));
    expect(messages(ApplicationFormBody.safeParse({ ...form, remark: withBreak(151, '\r\n') }))).toEqual([
      Msg.tooLong('备注', 150),
    ]);
  });

  it('operators’ reasons: the same rule at 200', () => {
    const reason = withBreak(200, '\r\n');
    const kept = withBreak(200, '\n');
    expect(InvoiceRejectBody.parse({ id: '1', remark: reason }).remark).toBe(kept);
    expect(KycRejectBody.parse({ userId: '1', remark: reason }).remark).toBe(kept);
    expect(NotaryReturnBody.parse({ id: '1', step: '1', remark: reason }).remark).toBe(kept);
    expect(NotaryTerminateBody.parse({ id: '1', remark: reason }).remark).toBe(kept);
    const long = withBreak(201, '\r\n');
    expect(messages(InvoiceRejectBody.safeParse({ id: '1', remark: long }))).toEqual([
      InvoiceMsg.checkRemarkTooLong,
    ]);
    expect(messages(KycRejectBody.safeParse({ userId: '1', remark: long }))).toEqual([KycMsg.remarkTooLong]);
    expect(messages(NotaryTerminateBody.safeParse({ id: '1', remark: long }))).toEqual([
      Msg.tooLong('说明', 200),
    ]);
  });
});
