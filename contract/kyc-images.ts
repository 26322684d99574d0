/**
 * The images of real-name verification (spec 02 §5, §9): the rules of each kind (size, formats by magic bytes, the
 * spec's messages), the check of one upload and the zod field of a submit payload. No I/O: `file-type/core` only
 * reads the bytes it is given; it is imported lazily on the first image check, so pages that import the contract
 * without checking images do not download it. Part of the KYC contract (contract/kyc.ts lists these messages in
 * `KycMsg`).
 */
import { z } from 'zod';
import './zod-locale.ts';
import {
  isUnchangedImage,
  KYC_IMAGE_RULES,
  type KycImageInput,
  type KycImageKind,
  type KycImageUpload,
} from './kyc-image-rules.ts';

export {
  isUnchangedImage,
  KYC_IMAGE_RULES,
  KycImageMsg,
  type KycImageInput,
  type KycImageKind,
  type KycImageRule,
  type KycImageUpload,
} from './kyc-image-rules.ts';

/** How many leading bytes {@link checkKycImage} needs to recognise a type (file-type's detection window). */
export const KYC_IMAGE_SNIFF_BYTES = 4100;

/** Which file extensions each detected MIME type may be named with. */
const EXTENSIONS_OF_MIME: Readonly<Record<string, readonly string[]>> = {
  'image/jpeg': ['jpg', 'jpeg'],
  'image/png': ['png'],
  'image/apng': ['png'],
  'image/gif': ['gif'],
};

/** The outcome of {@link checkKycImage}. */
export type KycImageCheck =
  | { ok: true; unchanged: true }
  | { ok: true; unchanged: false; mime: string; size: number }
  | { ok: false; reason: 'missing' | 'too-large' | 'bad-type'; message: string };

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
