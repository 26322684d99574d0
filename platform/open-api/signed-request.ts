/**
 * Checking a signed open-API call (contract/open-api.ts; docs/decisions/038-open-api-signing.md), in two steps so that
 * an upload is refused before its body is read whenever the headers alone say no:
 *
 * 1. {@link checkSignedHeaders}: the four headers are present and well-formed, the timestamp is within
 *    ±OPEN_API_MAX_SKEW_SECONDS of the platform clock, the caller (IP + AppID) has not failed too often
 *    (core/attempts.ts OPEN_API_POLICY: only wrong signatures and unknown AppIDs count, so busy callers are never
 *    throttled), the AppID has a sealed SecurityKey.
 * 2. {@link completeSignature}, once the body's SHA-256 is known: the HMAC-SHA256 matches (compared in constant time),
 *    the AppID's owner is still a verified enterprise, and the nonce is recorded — an (AppID, nonce) row inserted
 *    under its primary key, so a second use fails on whichever platform instance sees it.
 *
 * Failures are ApiErrors whose HTTP status equals their code: 401 unsigned / expired / wrong signature, 403 not an
 * enterprise or key to rotate, 409 nonce reused, 429 too many wrong signatures. Nothing in them echoes the key or the signature.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiCodeValue } from '../../contract/envelope.ts';
import {
  OPEN_API_MAX_SKEW_SECONDS,
  OPEN_API_NONCE_RE,
  OPEN_API_NONCE_TTL_SECONDS,
  OpenApiHeaders,
  OpenApiMsg,
  stringToSign,
} from '../../contract/open-api.ts';
import { isThrottled, OPEN_API_POLICY, recordFailure } from '../core/attempts.ts';
import { ApiError } from '../core/errors.ts';
import { nowSeconds } from '../core/time.ts';

/** A call whose headers passed step 1: what step 2 needs. */
export interface PendingSignature {
  appId: string;
  /** `<client IP>|<AppID>`: the subject of the failed-signature throttle. */
  subject: string;
  userId: number;
  /** The owner is still a verified enterprise (checked only once the signature holds). */
  enterprise: boolean;
  /** The SecurityKey (unsealed): never logged. */
  key: string;
  method: string;
  pathWithQuery: string;
  timestamp: string;
  nonce: string;
  /** The 32 bytes of X-CZ-Signature. */
  signature: Buffer;
}

/** An open-API refusal: the envelope code is also the HTTP status. */
export function openApiError(code: 400 | 401 | 403 | 404 | 409 | 413 | 429, msg: string): ApiError {
  return new ApiError(code as ApiCodeValue, msg, code);
}

/** The one value of header `name`, or null when it is missing, repeated or empty. */
function single(request: FastifyRequest, name: string): string | null {
  const v = request.headers[name];
  return typeof v === 'string' && v.trim() ? v.trim() : null;
}

/**
 * Step 1 (see the module comment).
 * @throws ApiError 401 unsigned / expired / badSignature (an unknown AppID, a signature that is not 32 bytes of
 *   base64), 400 badNonce, 403 rotateFirst (the AppID's key predates the open API), 429 throttled
 */
export async function checkSignedHeaders(
  app: FastifyInstance,
  request: FastifyRequest,
): Promise<PendingSignature> {
  const appId = single(request, OpenApiHeaders.appId);
  const timestamp = single(request, OpenApiHeaders.timestamp);
  const nonce = single(request, OpenApiHeaders.nonce);
  const signatureText = single(request, OpenApiHeaders.signature);
  if (!appId || !timestamp || !nonce || !signatureText || appId.length > 32) {
    throw openApiError(401, OpenApiMsg.unsigned);
  }
  if (!/^\d{1,12}$/.test(timestamp)) throw openApiError(401, OpenApiMsg.unsigned);
  if (Math.abs(nowSeconds() - Number(timestamp)) > OPEN_API_MAX_SKEW_SECONDS) {
    throw openApiError(401, OpenApiMsg.expired);
  }
  if (!OPEN_API_NONCE_RE.test(nonce)) throw openApiError(400, OpenApiMsg.badNonce);
  const subject = `${request.ip}|${appId}`;
  if (await isThrottled(app.pdb.db, OPEN_API_POLICY, subject)) throw openApiError(429, OpenApiMsg.throttled);
  const signature = Buffer.from(signatureText, 'base64');
  const row = await app.pdb.db
    .selectFrom('kyc_profiles')
    .innerJoin('users', 'users.id', 'kyc_profiles.user_id')
    .select([
      'kyc_profiles.user_id',
      'kyc_profiles.security_key_sealed',
      'users.user_status',
      'users.account_type',
    ])
    .where('kyc_profiles.app_id', '=', appId)
    .executeTakeFirst();
  if (!row || signature.length !== 32) {
    await recordFailure(app.pdb.db, OPEN_API_POLICY, subject);
    throw openApiError(401, OpenApiMsg.badSignature);
  }
  const key = app.apiKeys.unseal(appId, row.security_key_sealed);
  if (key === null) throw openApiError(403, OpenApiMsg.rotateFirst);
  return {
    appId,
    subject,
    userId: Number(row.user_id),
    enterprise: row.user_status === '3' && row.account_type === 2,
    key,
    method: request.method,
    pathWithQuery: request.url,
    timestamp,
    nonce,
    signature,
  };
}

/**
 * Step 2 (see the module comment).
 * @param bodySha256 lower-case hex SHA-256 of the body bytes as received
 * @returns the id of the user the AppID belongs to
 * @throws ApiError 401 badSignature, 403 notEnterprise, 409 replayed
 */
export async function completeSignature(
  app: FastifyInstance,
  pending: PendingSignature,
  bodySha256: string,
): Promise<number> {
  const { db } = app.pdb;
  const expected = createHmac('sha256', pending.key)
    .update(stringToSign(pending.method, pending.pathWithQuery, pending.timestamp, pending.nonce, bodySha256))
    .digest();
  if (!timingSafeEqual(expected, pending.signature)) {
    await recordFailure(db, OPEN_API_POLICY, pending.subject);
    throw openApiError(401, OpenApiMsg.badSignature);
  }
  if (!pending.enterprise) throw openApiError(403, OpenApiMsg.notEnterprise);
  const now = nowSeconds();
  // expired nonces of every AppID, found through the creation-time index (only the expired rows are touched)
  await db
    .deleteFrom('api_nonces')
    .where('created_at', '<', now - OPEN_API_NONCE_TTL_SECONDS)
    .execute();
  const r = await db
    .insertInto('api_nonces')
    .values({ app_id: pending.appId, nonce: pending.nonce, created_at: now })
    .onConflict((oc) => oc.columns(['app_id', 'nonce']).doNothing())
    .executeTakeFirst();
  if (Number(r.numInsertedOrUpdatedRows ?? 0) !== 1) throw openApiError(409, OpenApiMsg.replayed);
  return pending.userId;
}
