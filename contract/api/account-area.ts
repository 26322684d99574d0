/**
 * Account area calls (issue 4; spec 01 §2.5–2.7, §3, §5, §7; spec 02 "Addresses", §3 Address, §5, §7):
 * change password, extraction code, notifications, signature seals, delivery addresses and the region tree.
 */
import { z } from 'zod';
import { Msg } from '../messages.ts';
import { freeText, mobile, password, requiredText } from '../validators.ts';

export const AccountAreaPaths = {
  /** `POST {oldPassword, password, confirmPassword}` → null, msg 修改密码成功; revokes every token of the user. */
  editPassword: '/api/user/editPassword',
  /** `POST {extractCode}` → `{extractCode}`, msg 修改成功; the old code stops working at once. */
  editExtractCode: '/api/user/editExtractCode',
  /** `GET {page}` → NotificationListData (10 a page). */
  newsListing: '/api/News/listing',
  /** `POST {newsId}` (comma list, or `all`) → msg. */
  newsRead: '/api/News/read',
  /** `POST {newsId}` (comma list) → msg. */
  newsDel: '/api/News/del',
  /** `POST` → Signature[]. */
  signatureListing: '/api/signature/listing',
  /** `POST {id}` → msg. */
  signatureDel: '/api/signature/del',
  /** `POST {id}` → msg; exactly one default at most. */
  signatureSetDefault: '/api/signature/setDefault',
  /** `POST` multipart `{name, isDefault ('1'|'0'), file (PNG ≤ 10 MB)}` → Signature, msg 添加成功 (our path). */
  signatureUpload: '/api/signature/upload',
  /** `GET /api/signature/image/:id?exp=&sig=` streams the PNG (signed URL, like evidence files). */
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

/** Messages of the account area beyond the shared ones (our wording where the spec shows none). */
export const AccountAreaMsg = {
  oldPasswordWrong: '原密码错误',
  newsNotFound: '消息不存在',
  newsRequired: '请选择消息',
  sealNotFound: '签章不存在',
  addressNotFound: '地址不存在',
  idRequired: '参数错误',
  /** Notification written when the password changes (spec 01 §3 News; our wording). */
  passwordChangedNews: '您的登录密码已修改，所有设备需重新登录。如非本人操作，请立即找回密码。',
  /** Notification written when an evidence is saved; `title` and `baoquan` filled in. */
  evidenceSavedNews: (title: string, baoquan: string) => `您的证据「${title}」已保全成功，保全号：${baoquan}`,
} as const;

/** `{newsId}`: a comma list of up to 100 ids, or `all` (read only). */
export const NewsIdsBody = z.object({
  newsId: z.preprocess(
    (v) => (typeof v === 'number' ? String(v) : v),
    z
      .string({ error: AccountAreaMsg.newsRequired })
      .trim()
      .regex(/^(all|\d{1,15}(,\d{1,15}){0,99})$/, AccountAreaMsg.newsRequired),
  ),
});

/** `{id}` of a seal or an address: a positive integer, as a number or digits. */
export const IdBody = z.object({
  id: z
    .preprocess(
      (v) => (typeof v === 'number' ? String(v) : v),
      z
        .string({ error: AccountAreaMsg.idRequired })
        .trim()
        .regex(/^[1-9]\d{0,14}$/, AccountAreaMsg.idRequired),
    )
    .transform(Number),
});

/** Extraction code: required, at most 30 characters, no forbidden special characters (spec 01 §5). */
export const ExtractCodeBody = z.object({ extractCode: freeText('提取码', 30, true) });

/** Change password (spec 01 §5): all required; new = repeated; new ≠ old; new follows the password rule. */
export const EditPasswordBody = z
  .object({
    oldPassword: requiredText('原密码'),
    password,
    confirmPassword: requiredText('确认新密码'),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: Msg.passwordsDiffer,
    path: ['confirmPassword'],
  })
  .refine((v) => v.password !== v.oldPassword, { message: Msg.newPasswordSameAsOld, path: ['password'] });

/** A notification (spec 01 §3). `isRead` "0" means unread; `addTime` "YYYY-MM-DD HH:mm:ss" Beijing time. */
export interface Notification {
  newsId: number;
  str: string;
  addTime: string;
  isRead: '0' | '1';
}
export interface NotificationListData {
  list: Notification[];
  count: number;
  /** Unread count of the user (for the badge). */
  unread: number;
}
/** Notifications page size: the spec's pager size 1 is a defect (spec 01 §9); lists elsewhere use 10. */
export const NOTIFICATION_PAGE_SIZE = 10;

/** A signature seal (spec 01 §3). `pic_url` is a signed, expiring same-origin URL of the PNG. */
export interface Signature {
  id: number;
  name: string;
  pic_url: string;
  is_default: '0' | '1';
  add_time: string;
}
/** Seal image limit: PNG, at most 10 MB (spec 01 §5, §9). */
export const SIGNATURE_MAX_BYTES = 10 * 1024 * 1024;
export const SignatureFields = z.object({
  name: freeText('签章名称', 30, true),
  isDefault: z.enum(['0', '1'], { error: '请选择是否默认' }),
});
export const SignatureMsg = {
  nameRequired: '签章名称不能为空',
  pngOnly: '上传签章图片只能是 png 格式!',
  tooLarge: '上传签章图片大小不能超过 10MB!',
  imageRequired: '请上传签章图片',
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
  regionRequired: '请选择所在地区',
  tooMany: '最多保存5个地址',
  /** Spec 02 §9 "No shipping to Hong Kong, Macau or Taiwan" (our wording). */
  noShipping: '暂不支持寄送至港澳台地区',
} as const;
/**
 * GB/T 2260 codes of the province-level divisions a delivery address may not be in (spec 02 §9: no shipping to Hong
 * Kong, Macau or Taiwan). The region tree still lists them; the address form leaves them out and the platform refuses
 * them.
 */
export const NO_SHIPPING_PROVINCE_CODES: readonly string[] = ['710000', '810000', '820000'];
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

/** A node of the region tree `GET /api/User/district` (spec 02 §7): `{name, child}`; areas have no child. */
export interface RegionNode {
  name: string;
  code: string;
  child?: RegionNode[];
}
