/**
 * The rules of real-name verification's images (spec 02 §5, §9) without zod: the spec's messages, sizes and formats,
 * the shapes an image field may hold and the "unchanged image" test. contract/kyc-images.ts re-exports them beside
 * the check of an upload and the zod field; the KYC pages import them from here so that their first load carries no
 * schema (decision 031). No I/O.
 */

/** The image messages of spec 02 §5, zh-CN, verbatim (the enterprise ones include the original's 超多). */
export const KycImageMsg = {
  /** Spec 02 §5 images, personal: 'uploaded image cannot exceed 3M'. */
  personalImageTooLarge: '上传图片不能超过3M',
  /** Spec 02 §5 images, personal: 'image can only be png, jpg or JPEG'. */
  personalImageBadType: '上传图片只能是png,jpg或JPEG格式!',
  /** Spec 02 §5 images, enterprise (verbatim). */
  enterpriseImageTooLarge: '上传图片不能超多20M',
  /** Spec 02 §5 images, enterprise (verbatim). */
  enterpriseImageBadType: '上传图片只能是png,jpg或JPEG格式!',
} as const;

/** Which image rules apply: the personal photo method, or the enterprise form (all its images). */
export type KycImageKind = 'personal' | 'enterprise';

/** An image rule: byte limit, formats (by magic bytes) and the messages of spec 02 §5. */
export interface KycImageRule {
  /** Largest accepted size in bytes. */
  maxBytes: number;
  /** File extensions the name may carry (lower case, no dot). */
  extensions: readonly string[];
  /** MIME types the bytes may be detected as. */
  mimes: readonly string[];
  tooLarge: string;
  badType: string;
}

/**
 * The image rules of spec 02 §5 and §9: personal jpg/png/gif/jpeg ≤ 3145728 bytes (3 MB); enterprise png/jpg/jpeg
 * ≤ 20971520 bytes (20 MB). An animated PNG (image/apng) counts as png.
 */
export const KYC_IMAGE_RULES: Readonly<Record<KycImageKind, KycImageRule>> = {
  personal: {
    maxBytes: 3 * 1024 * 1024,
    extensions: ['jpg', 'jpeg', 'png', 'gif'],
    mimes: ['image/jpeg', 'image/png', 'image/apng', 'image/gif'],
    tooLarge: KycImageMsg.personalImageTooLarge,
    badType: KycImageMsg.personalImageBadType,
  },
  enterprise: {
    maxBytes: 20 * 1024 * 1024,
    extensions: ['jpg', 'jpeg', 'png'],
    mimes: ['image/jpeg', 'image/png', 'image/apng'],
    tooLarge: KycImageMsg.enterpriseImageTooLarge,
    badType: KycImageMsg.enterpriseImageBadType,
  },
};

/**
 * An uploaded image as the platform sees it while streaming: the first bytes (at least
 * {@link KYC_IMAGE_SNIFF_BYTES}, or the whole file if shorter), the total size in bytes, and the client's file name.
 */
export interface KycImageUpload {
  head: Uint8Array;
  size: number;
  fileName?: string;
}

/** Any value an image field may hold: an http(s) URL of the stored image (unchanged), a Blob/File, or an upload. */
export type KycImageInput = string | Blob | KycImageUpload;

/**
 * True when an image field's value means "keep the stored image": a string starting with "http" (spec 02 §3: the
 * client sends the stored image's URL, or empty, for an unchanged image).
 */
export function isUnchangedImage(value: unknown): value is string {
  return typeof value === 'string' && value.trim().startsWith('http');
}
