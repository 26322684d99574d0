/**
 * Server side of the KYC screens: the user's KYC info (`getAuthInfo`), reading a multipart form with a byte cap,
 * re-encoding the checked values as the multipart body the platform expects, and the signed face-page query.
 * Decision: the KYC forms are parsed here (unlike evidence uploads, which stream): the images are small (≤ 3 MB
 * personal, ≤ 20 MB enterprise), and parsing lets the page answer every field's message at once and keep what was
 * typed when JavaScript is off. The byte cap bounds the memory a request can take.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { data, redirect, type AppLoadContext } from 'react-router';
import type { UserInfo } from '../../contract/account.ts';
import { isSuccess } from '../../contract/envelope.ts';
import type { KycImageInput } from '../../contract/kyc-images.ts';
import { type AuthInfo, isKycEditable, KycPaths } from '../../contract/kyc.ts';
import { authedCall } from '../lib/auth.server.ts';
import { validateCsrf } from '../lib/csrf.server.ts';
import { FormBodyRefused, readFormBody } from '../lib/form-body.server.ts';
import { UNCHANGED_IMAGE } from './kyc-text.ts';
import { infoHref } from './kyc-links.ts';

/**
 * The user's info with the KYC details. `edit` asks for the owner's unmasked ID and bank numbers (the platform
 * honours it only while the form is editable, userStatus 1 or 4).
 * @throws the error page (502) when the platform answers something other than success.
 */
export async function loadAuthInfo(request: Request, ctx: AppLoadContext, edit = true): Promise<AuthInfo> {
  const res = await authedCall<AuthInfo>(request, ctx, KycPaths.getAuthInfo, {
    method: 'POST',
    ...(edit ? { body: { edit: '1' } } : {}),
  });
  if (!isSuccess(res.code)) throw data({ message: res.msg }, { status: 502 });
  return res.data;
}

/**
 * Sends a user whose submission is under review or verified to the page of their account type: a personal
 * account has nothing to see on the enterprise form, and the other way round.
 */
export function redirectToOwnType(info: Pick<UserInfo, 'status' | 'userStatus' | 'authType'>, want: 1 | 2) {
  const type = Number(info.status);
  if (type !== 0 && type !== want && !isKycEditable(info.userStatus)) throw redirect(infoHref(info));
}

/**
 * The page path of a loader/action request, for redirects. React Router hands handlers the normalized URL (no
 * `.data` suffix on client-side data requests) because `v8_passThroughRequests` is off (decision 014).
 */
export function pagePath(request: Request): string {
  return new URL(request.url).pathname;
}

/** Thrown by {@link readFormDataCapped} when the body is larger than the cap. */
export class BodyTooLarge extends Error {}

/**
 * Reads a KYC form body (multipart or urlencoded) as a stream within bounds (app/lib/form-body.server.ts): each
 * image at most `maxBytes`, the whole body at most `maxBytes`, text fields within FORM_BODY_LIMIT_BYTES.
 * @throws {BodyTooLarge} when the body or an image is larger; the 400/415 response of `readForm` for a broken or
 *   non-form body.
 */
export async function readFormDataCapped(
  request: Request,
  ctx: AppLoadContext,
  maxBytes: number,
): Promise<FormData> {
  try {
    return await readFormBody(request, ctx.formBodyLimitBytes, {
      fileBytes: maxBytes,
      files: KYC_MAX_FILE_PARTS,
      totalBytes: maxBytes,
    });
  } catch (err) {
    if (err instanceof FormBodyRefused) {
      if (err.status === 413) throw new BodyTooLarge();
      throw data({ message: err.message }, { status: err.status });
    }
    throw err;
  }
}

/** Most file parts a KYC form sends (the enterprise form has four images). */
const KYC_MAX_FILE_PARTS = 8;

/**
 * The submitted form of a KYC page: the body read with {@link readFormDataCapped} under `maxBytes`, then its CSRF
 * token checked. Null when the body is larger than the cap (the page answers its image-size message, status 413).
 * @throws the CSRF failure response of validateCsrf, or the body's read error.
 */
export async function readKycForm(
  request: Request,
  ctx: AppLoadContext,
  maxBytes: number,
): Promise<FormData | null> {
  let formData: FormData;
  try {
    formData = await readFormDataCapped(request, ctx, maxBytes);
  } catch (err) {
    if (err instanceof BodyTooLarge) return null;
    throw err;
  }
  await validateCsrf(formData, request, ctx);
  return formData;
}

/** The part an image field sends to the platform: the new file, or the "unchanged" text for a kept image. */
export function imagePart(v: KycImageInput): string | Blob {
  return typeof v === 'string' ? UNCHANGED_IMAGE : (v as Blob);
}

/** A multipart body for the platform from checked values: strings as text parts, files as file parts. */
export function multipartOf(values: Record<string, string | Blob | undefined>): {
  body: ReadableStream<Uint8Array>;
  contentType: string;
} {
  const form = new FormData();
  for (const [k, v] of Object.entries(values)) if (v !== undefined) form.append(k, v);
  const req = new Request('http://upstream.invalid/', { method: 'POST', body: form });
  return { body: req.body!, contentType: req.headers.get('Content-Type')! };
}

/** The face page's query (certify_id, the QR content, its expiry), signed so nobody can plant another QR code. */
function faceSignature(ctx: AppLoadContext, certifyId: string, qr: string, exp: string): string {
  return createHmac('sha256', `cunzheng-face-qr:${ctx.sessionSecrets[0]}`)
    .update(`${certifyId}\n${qr}\n${exp}`)
    .digest('base64url');
}

/** `/personage-face-kyc?certify_id=…&qr=…&exp=…&sig=…` for a started certification. */
export function faceUrl(ctx: AppLoadContext, certifyId: string, qr: string, expiresAt: number): string {
  const exp = String(expiresAt || '');
  const params = new URLSearchParams({
    certify_id: certifyId,
    qr,
    exp,
    sig: faceSignature(ctx, certifyId, qr, exp),
  });
  return `/personage-face-kyc?${params}`;
}

/** The QR content and expiry of the face page's query when its signature holds, else null. */
export function verifiedFaceQr(
  ctx: AppLoadContext,
  params: URLSearchParams,
): { qr: string; expiresAt: number } | null {
  const certifyId = params.get('certify_id') ?? '';
  const qr = params.get('qr') ?? '';
  const exp = params.get('exp') ?? '';
  const sig = Buffer.from(params.get('sig') ?? '');
  if (!certifyId || !qr) return null;
  const expected = Buffer.from(faceSignature(ctx, certifyId, qr, exp));
  if (sig.length !== expected.length || !timingSafeEqual(sig, expected)) return null;
  return { qr, expiresAt: Number(exp) || 0 };
}
