/**
 * The signature seals area's contract (spec 01 §2.7, §3 Signature, §5, §7): list, upload (PNG ≤ 10 MB), set default,
 * delete. Seal images are served through signed, expiring URLs like every private file.
 */
import { z } from 'zod';
import './zod-locale.ts';
import { freeText } from './validators.ts';

export const SignaturePaths = {
  /** `POST` → Signature[]. */
  signatureListing: '/api/signature/listing',
  /** `POST {id}` → msg. */
  signatureDel: '/api/signature/del',
  /** `POST {id}` → msg; exactly one default at most. */
  signatureSetDefault: '/api/signature/setDefault',
  /** `POST` multipart `{name, isDefault ('1'|'0'), file (PNG ≤ 10 MB)}` → Signature, msg 添加成功 (our path). */
  signatureUpload: '/api/signature/upload',
  /** `GET /api/signature/image/:id?exp=&sig=` streams the PNG (signed URL, like evidence files). */
  signatureImage: '/api/signature/image/',
} as const;

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
/** Messages of the seals area: the spec's upload checks (spec 01 §5) and ours where it shows none. */
export const SignatureMsg = {
  nameRequired: '签章名称不能为空',
  pngOnly: '上传签章图片只能是 png 格式!',
  tooLarge: '上传签章图片大小不能超过 10MB!',
  imageRequired: '请上传签章图片',
  sealNotFound: '签章不存在',
  tooMany: (max: number) => `最多保存${max}个签章`,
  defaultSet: '设置成功',
  deleted: '删除成功',
} as const;
/** Most seals one user keeps (our limit against abuse; the spec shows none). */
export const MAX_SEALS = 20;
