/**
 * The delivery addresses area's contract (spec 02 "Addresses", §3 Address, §5, §7, §9): list, add, edit, delete, one
 * default, at most 5, and the region tree of the picker (GB/T 2260 codes).
 */
import { z } from 'zod';
import './zod-locale.ts';
import { Msg } from './messages.ts';
import { freeText, mobile } from './validators.ts';
import { AddressMsg } from './address-codes.ts';

export * from './address-codes.ts';

const EMAIL_RE = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;
export const AddressBody = z.object({
  name: freeText('收件人', 20, true),
  province: z.string({ error: AddressMsg.regionRequired }).trim().min(1, AddressMsg.regionRequired),
  city: z.string({ error: AddressMsg.regionRequired }).trim().min(1, AddressMsg.regionRequired),
  area: z.string({ error: AddressMsg.regionRequired }).trim().min(1, AddressMsg.regionRequired),
  address: freeText('详细地址', 100, true),
  phoneNumber: mobile,
  email: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z
      .string({ error: Msg.required('邮箱') })
      .trim()
      .regex(EMAIL_RE, '请输入正确的邮箱'),
  ),
  status: z.preprocess((v) => (v === undefined || v === '' ? '0' : v), z.enum(['0', '1'])).transform(Number),
});
export type AddressBody = z.infer<typeof AddressBody>;
