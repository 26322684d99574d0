/**
 * The delivery addresses area's contract without zod (spec 02 "Addresses", §3, §5, §7, §9): paths, the Address type,
 * the limit, messages, the provinces not shipped to and the region tree's node. The address page imports this, so it
 * loads no schema code; contract/address.ts re-exports it with the request schema. No I/O.
 */
export const AddressPaths = {
  /** `GET` → Address[]. */
  addressList: '/api/User/addressList',
  /** `GET` → RegionNode[] (province → city → area), with a Cache-Control header. */
  district: '/api/User/district',
  /** `POST AddressBody` → Address, msg 添加成功; at most 5 (最多保存5个地址). */
  addAddress: '/api/User/addAddress',
  /** `POST AddressBody & {id}` → Address, msg 修改成功. */
  editAddress: '/api/User/editAddress',
  /** `POST {id}` → msg. */
  delAddress: '/api/User/delAddress',
} as const;

/** Delivery address (spec 02 §3). `status` 1 = default. */
export interface Address {
  id: number;
  name: string;
  province: string;
  city: string;
  area: string;
  address: string;
  phoneNumber: string;
  email: string;
  status: 0 | 1;
}
export const MAX_ADDRESSES = 5;
export const AddressMsg = {
  addressNotFound: '地址不存在',
  regionRequired: '请选择所在地区',
  tooMany: '最多保存5个地址',
  /** Spec 02 §9 "No shipping to Hong Kong, Macau or Taiwan" (our wording). */
  noShipping: '暂不支持寄送至港澳台地区',
  deleted: '删除成功',
} as const;
/**
 * GB/T 2260 codes of the province-level divisions a delivery address may not be in (spec 02 §9: no shipping to Hong
 * Kong, Macau or Taiwan). The region tree still lists them; the address form leaves them out and the platform refuses
 * them.
 */
export const NO_SHIPPING_PROVINCE_CODES: readonly string[] = ['710000', '810000', '820000'];

/** A node of the region tree `GET /api/User/district` (spec 02 §7): `{name, child}`; areas have no child. */
export interface RegionNode {
  name: string;
  code: string;
  child?: RegionNode[];
}
