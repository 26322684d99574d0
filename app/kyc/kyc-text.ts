/**
 * What the KYC pages render without zod (decision 031: the first load carries no schema): the "unchanged image"
 * convention (a kept image travels as a text value starting with http, spec 02 §3), the image field names and the
 * pages' texts, for the pages and the actions alike (the form schemas are in kyc-forms.ts). No I/O.
 */
import { KycMsg } from '../../contract/kyc-codes.ts';

/** The value sent for an image the user keeps: the platform treats any value starting with http as unchanged. */
export const UNCHANGED_IMAGE = 'http-unchanged';
/** Suffix of the hidden field that says "keep the stored image" when no new file is picked. */
export const KEEP_SUFFIX = '__keep';

export const PERSONAL_IMAGES = ['authorFront', 'authorBack', 'authorHand'] as const;
export const ENTERPRISE_IMAGES = ['license', 'file', 'authorFront', 'authorBack'] as const;

/** True for a file input's value that carries no file (a form without a pick sends an empty nameless part). */
function isEmptyFile(v: FormDataEntryValue | null): boolean {
  return v === null || v === '' || (typeof v !== 'string' && v.size === 0 && v.name === '');
}

/**
 * A copy of `formData` where each image field without a new file, whose `<field>__keep` hidden input is set, holds
 * {@link UNCHANGED_IMAGE}; the `__keep` fields are dropped. Used by the client validation and by the action alike.
 */
export function withKeptImages(formData: FormData, fields: readonly string[]): FormData {
  const out = new FormData();
  for (const [k, v] of formData.entries()) if (!k.endsWith(KEEP_SUFFIX)) out.append(k, v);
  for (const f of fields) {
    if (formData.get(`${f}${KEEP_SUFFIX}`) === '1' && isEmptyFile(formData.get(f)))
      out.set(f, UNCHANGED_IMAGE);
  }
  return out;
}

/** Texts of the status banners (spec 02 §4) and of the pages; enterprise texts verbatim from the spec. */
export const KycText = {
  enterpriseReviewing: '您已提交认证，资料审核中…',
  enterpriseVerified: '恭喜您，您已成功通过企业实名认证！',
  enterpriseFailed: '抱歉，您的企业实名认证失败！',
  personalReviewing: '您已提交认证，资料审核中…',
  personalVerifiedPhoto: '恭喜您，您的实名认证已通过！',
  personalVerifiedFace: '恭喜您，支付宝人脸认证已通过！',
  personalFailed: '抱歉，您的实名认证失败，资料未通过审核，请修改后重新提交！',
  failedReason: '失败原因：',
  reviewHint: KycMsg.reviewHint,
  notVerified: '您尚未进行实名认证',
  faceDone: '实名认证成功',
  faceKeepOpen: '请使用支付宝扫描二维码完成人脸认证，认证完成前请不要关闭本页面。',
  faceWaiting: '等待认证结果…',
  keyShownOnce: '请立即复制并妥善保存 SecurityKey，离开本页后将不再完整显示。',
} as const;
