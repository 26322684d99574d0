/**
 * The address form's values (all strings, as a form posts them) and the conversion from a stored Address; shared by
 * the page (/address) and its action (address-action.server.ts).
 */
import type { Address } from '../../contract/address-codes.ts';

export const FIELDS = [
  'id',
  'name',
  'province',
  'city',
  'area',
  'address',
  'phoneNumber',
  'email',
  'status',
] as const;
export type Values = Record<(typeof FIELDS)[number], string>;

export function valuesOf(a?: Partial<Address> | null): Values {
  return {
    id: a?.id ? String(a.id) : '',
    name: a?.name ?? '',
    province: a?.province ?? '',
    city: a?.city ?? '',
    area: a?.area ?? '',
    address: a?.address ?? '',
    phoneNumber: a?.phoneNumber ?? '',
    email: a?.email ?? '',
    status: a?.status === 1 ? '1' : '0',
  };
}
