/**
 * The images of real-name verification (spec 02 §5, §9): the rules of each kind (size, formats by magic bytes, the
 * spec's messages), the check of one upload and the zod field of a submit payload. No I/O: `file-type/core` only
 * reads the bytes it is given; it is imported lazily on the first image check, so pages that import the contract
 * without checking images do not download it. Part of the KYC contract (contract/kyc.ts lists these messages in
 * `KycMsg`).
 */
import { z } from 'zod';
import './zod-locale.ts';

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

/** How many leading bytes {@link checkKycImage} needs to recognise a type (file-type's detection window). */
export const KYC_IMAGE_SNIFF_BYTES = 4100;

/** Which file extensions each detected MIME type may be named with. */
const EXTENSIONS_OF_MIME: Readonly<Record<string, readonly string[]>> = {
  'image/jpeg': ['jpg', 'jpeg'],
  'image/png': ['png'],
  'image/apng': ['png'],
  'image/gif': ['gif'],
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

/** The outcome of {@link checkKycImage}. */
export type KycImageCheck =
  | { ok: true; unchanged: true }
  | { ok: true; unchanged: false; mime: string; size: number }
  | { ok: false; reason: 'missing' | 'too-large' | 'bad-type'; message: string };

/**
 * True when an image field's value means "keep the stored image": a string starting with "http" (spec 02 §3: the
 * client sends the stored image's URL, or empty, for an unchanged image).
 */
export function isUnchangedImage(value: unknown): value is string {
  return typeof value === 'string' && value.trim().startsWith('http');
}

const isUploadObject = (v: unknown): v is KycImageUpload =>
  typeof v === 'object' &&
  v !== null &&
  'head' in v &&
  v.head instanceof Uint8Array &&
  'size' in v &&
  typeof v.size === 'number';

/**
 * Checks one KYC image against the rules of `kind` (spec 02 §5):
 * - a string starting with "http" → `{ok: true, unchanged: true}` (whether the user really has that image stored is
 *   the platform's business); any other string, undefined, null, or an empty file → `reason: 'missing'` (message
 *   empty: the caller supplies the field's "please upload" text);
 * - size above the limit (bytes) → 'too-large' with the spec's message, checked before the type;
 * - type detected from the magic bytes (file-type) not among the kind's formats, or a file name whose extension is
 *   not one the detected type may carry (a JPEG named .png, a PNG named .gif) → 'bad-type' with the spec's message.
 * Never throws for bad input; resolves asynchronously because the detector does.
 */
export async function checkKycImage(
  kind: KycImageKind,
  value: KycImageInput | undefined | null,
): Promise<KycImageCheck> {
  const rule = KYC_IMAGE_RULES[kind];
  if (value === undefined || value === null || typeof value === 'string') {
    return isUnchangedImage(value)
      ? { ok: true, unchanged: true }
      : { ok: false, reason: 'missing', message: '' };
  }
  let upload: KycImageUpload;
  if (typeof Blob !== 'undefined' && value instanceof Blob) {
    const name = 'name' in value && typeof value.name === 'string' ? value.name : undefined;
    upload = {
      head: new Uint8Array(await value.slice(0, KYC_IMAGE_SNIFF_BYTES).arrayBuffer()),
      size: value.size,
      ...(name ? { fileName: name } : {}),
    };
  } else if (isUploadObject(value)) {
    upload = value;
  } else {
    return { ok: false, reason: 'missing', message: '' };
  }
  if (upload.size <= 0 || upload.head.byteLength === 0) return { ok: false, reason: 'missing', message: '' };
  if (upload.size > rule.maxBytes) return { ok: false, reason: 'too-large', message: rule.tooLarge };
  const { fileTypeFromBuffer } = await import('file-type/core');
  const detected = await fileTypeFromBuffer(upload.head).catch(() => undefined);
  const badType = { ok: false, reason: 'bad-type', message: rule.badType } as const;
  if (!detected || !rule.mimes.includes(detected.mime)) return badType;
  if (upload.fileName !== undefined) {
    const dot = upload.fileName.lastIndexOf('.');
    const ext = dot >= 0 ? upload.fileName.slice(dot + 1).toLowerCase() : '';
    if (!rule.extensions.includes(ext) || !(EXTENSIONS_OF_MIME[detected.mime] ?? []).includes(ext))
      return badType;
  }
  return { ok: true, unchanged: false, mime: detected.mime, size: upload.size };
}

/**
 * An image field of a submit payload: accepts an http(s) URL string (unchanged), a Blob/File (the form's file
 * input) or a {@link KycImageUpload} (the platform's streamed part), and checks it with {@link checkKycImage}.
 * Missing (blank string, empty file, absent) → `missingMessage`. The check is asynchronous: parse with
 * `parseAsync`/`safeParseAsync` (Conform: `parseWithZod(formData, { schema, async: true })`).
 */
export function kycImageField(kind: KycImageKind, missingMessage: string) {
  return z
    .custom<KycImageInput | undefined>(
      (v) =>
        v === undefined ||
        v === null ||
        typeof v === 'string' ||
        (typeof Blob !== 'undefined' && v instanceof Blob) ||
        isUploadObject(v),
      { error: missingMessage },
    )
    .superRefine(async (v, ctx) => {
      const result = await checkKycImage(kind, v);
      if (!result.ok) ctx.addIssue({ code: 'custom', message: result.message || missingMessage });
    })
    .transform((v) => v as KycImageInput);
}
