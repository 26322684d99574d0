/**
 * Real-name verification for the user (spec 02 §3 KycInfo, §4, §7; docs/decisions/011-kyc-review.md): the queries
 * and transactions behind platform/kyc/routes.ts — the user info with the KYC details (the SecurityKey revealed
 * once), the editable check, the start and the result of a face certification, the SecurityKey rotation and the
 * API credentials of a verified enterprise. Nothing here logs an ID number, a bank number or a name.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { ApiCode } from '../../contract/envelope.ts';
import {
  type AuthInfo,
  type FaceStartData,
  isKycEditable,
  KycMsg,
  type PersonalFaceSubmit,
} from '../../contract/kyc.ts';
import { toUserInfo } from '../account/users.ts';
import { ApiError } from '../core/errors.ts';
import { nowSeconds } from '../core/time.ts';
import { withUserTransaction } from '../core/transactions.ts';
import type { Database } from '../db/schema.ts';
import type { UserRow } from '../account/schema.ts';
import type { FaceCertificationRow, KycImageRow } from './schema.ts';
import { unreadCount } from '../notification/notifications.ts';
import { AlipayFaceError, newOuterOrderNo } from './alipay-face.ts';
import { FACE_TTL_SECONDS, pollCertification, type PollOutcome } from './face.ts';
import { assertIdNumberFree, idNumberKey } from './id-number.ts';
import { loadKyc, toKycDetails } from './profile.ts';
import { issueSecurityKey, securityKeyMatches } from './security-key.ts';
import type { ApiKeySealer } from '../open-api/sealed-keys.ts';

/**
 * A new AppID ("cz" + 16 hex) for an enterprise being approved. Its SecurityKey is issued when it is first shown
 * ({@link authInfo}): only a hash is ever stored (kyc/security-key.ts), so a key issued here could never be shown.
 */
export function newApiCredentials(): { appId: string } {
  return { appId: `cz${randomBytes(8).toString('hex')}` };
}

/** Refuses a submission unless the form is editable (userStatus 1 or 4, spec 02 §2). @throws ApiError 400 */
export function assertEditable(user: UserRow): void {
  if (!isKycEditable(user.user_status)) throw new ApiError(ApiCode.BAD_REQUEST, KycMsg.notEditable);
}

/** The image fields `userId` has stored (an "unchanged" image value must name one of them). */
export async function storedImageFields(db: Kysely<Database>, userId: number): Promise<Set<string>> {
  return new Set((await loadKyc(db, userId)).images.map((i) => i.field));
}

/** The KYC image `id`, for the signed image route. */
export function findKycImage(db: Kysely<Database>, id: number): Promise<KycImageRow | undefined> {
  return db.selectFrom('kyc_images').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * `getAuthInfo`: the user info with the KYC details, masked unless the owner asks for the edit form (`edit`) while
 * it is editable. With `edit`, a verified enterprise's SecurityKey is issued and revealed in full exactly once: only
 * the call whose conditional update flips `security_key_shown` (and stores the key's hash) gets it (the KYC pages
 * send `edit`; the shell's refresh on every page does not). Afterwards the key is shown masked.
 */
export async function authInfo(app: FastifyInstance, user: UserRow, edit: boolean): Promise<AuthInfo> {
  const { db } = app.pdb;
  const kyc = await loadKyc(db, user.id);
  let fullSecurityKey: string | undefined;
  if (edit && kyc.profile?.app_id && !kyc.profile.security_key_shown) {
    const issued = issueSecurityKey(kyc.profile.app_id, app.apiKeys);
    const r = await db
      .updateTable('kyc_profiles')
      .set({ security_key: issued.stored, security_key_sealed: issued.sealed, security_key_shown: 1 })
      .where('user_id', '=', user.id)
      .where('security_key_shown', '=', 0)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 1) {
      fullSecurityKey = issued.key;
      kyc.profile.security_key = issued.stored;
    }
  }
  return {
    ...toUserInfo(user, await unreadCount(db, user.id)),
    ...toKycDetails(user, kyc, app.downloads, nowSeconds(), {
      unmasked: isKycEditable(user.user_status) && edit,
      ...(fullSecurityKey ? { fullSecurityKey } : {}),
    }),
  };
}

/**
 * Starts a face certification (spec 02 §4 face flow): opens it with Alipay (or the sandbox), then stores the
 * personal profile (method 3, awaiting the result) and the open certification in one per-user transaction.
 * @throws ApiError 500 with 人脸认证服务暂不可用 when Alipay cannot be reached or refuses; ApiError 400
 *   该身份证号已被其他账号认证 when the number is under review or verified on another account
 */
export async function startFace(
  app: FastifyInstance,
  log: FastifyBaseLogger,
  userId: number,
  body: PersonalFaceSubmit,
): Promise<FaceStartData> {
  // one ID number, one personal account: refused before Alipay is asked (checked again when the face passes)
  await assertIdNumberFree(app.pdb.db, await idNumberKey(app.config.dataDir, body.idCard), userId);
  const outerOrderNo = newOuterOrderNo();
  let certifyId: string;
  try {
    ({ certifyId } = await app.face.initialize({
      outerOrderNo,
      certName: body.username ?? '',
      certNo: body.idCard,
    }));
  } catch (err) {
    log.warn({ err: err instanceof AlipayFaceError ? err.message : err }, 'face initialize failed');
    throw new ApiError(ApiCode.SERVER_ERROR, KycMsg.faceUnavailable);
  }
  const now = nowSeconds();
  const fields = JSON.stringify({
    userName: body.username ?? '',
    idCard: body.idCard,
    address: body.address,
  });
  await withUserTransaction(app.pdb, userId, async (trx) => {
    // not live until the face passes (face.ts then sets the ID number's index key)
    const profile = {
      kind: 'personal' as const,
      auth_type: 3,
      fields_json: fields,
      submitted_at: now,
      id_key: null,
    };
    const r = await trx
      .updateTable('kyc_profiles')
      .set({ ...profile, reviewed_at: null })
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) {
      await trx
        .insertInto('kyc_profiles')
        .values({ user_id: userId, ...profile })
        .execute();
    }
    await trx
      .insertInto('face_certifications')
      .values({
        user_id: userId,
        certify_id: certifyId,
        outer_order_no: outerOrderNo,
        created_at: now,
        expires_at: now + FACE_TTL_SECONDS,
      })
      .execute();
  });
  return {
    certify_id: certifyId,
    qrContent: app.face.certifyUrl(certifyId),
    expiresAt: now + FACE_TTL_SECONDS,
  };
}

/**
 * Polls the user's own certification `certifyId` once (spec 02 §4 `aliQuery`).
 * @throws ApiError 404 认证记录不存在 when the user has no such certification
 */
export async function queryFace(
  app: FastifyInstance,
  userId: number,
  certifyId: string,
): Promise<PollOutcome> {
  const row: FaceCertificationRow | undefined = await app.pdb.db
    .selectFrom('face_certifications')
    .selectAll()
    .where('certify_id', '=', certifyId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new ApiError(ApiCode.NOT_FOUND, KycMsg.faceNotFound);
  return pollCertification(app, row);
}

/**
 * Gives a verified enterprise a new SecurityKey (its AppID stays); the answer is the only time it is shown in full,
 * the database keeps its hash and its sealed form for the open API (kyc/security-key.ts, decision 038).
 * @returns the new key (43 base64url characters)
 * @throws ApiError 400 仅已认证的企业用户可以重置密钥 for anyone else
 */
export async function rotateSecurityKey(
  db: Kysely<Database>,
  sealer: ApiKeySealer,
  user: UserRow,
): Promise<string> {
  const denied = new ApiError(ApiCode.BAD_REQUEST, KycMsg.rotateKeyDenied);
  if (user.user_status !== '3' || user.account_type !== 2) throw denied;
  const profile = await db
    .selectFrom('kyc_profiles')
    .select('app_id')
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  if (!profile?.app_id) throw denied;
  const { key: securityKey, stored, sealed } = issueSecurityKey(profile.app_id, sealer);
  const r = await db
    .updateTable('kyc_profiles')
    .set({ security_key: stored, security_key_sealed: sealed, security_key_shown: 1 })
    .where('user_id', '=', user.id)
    .where('app_id', '=', profile.app_id)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) throw denied;
  return securityKey;
}

/**
 * The user id whose AppID is `appId` and whose current SecurityKey is `securityKey` (compared by hash), for an API
 * call that authenticates with the pair; null when either does not match or the user is no longer a verified
 * enterprise (spec 02 §6: the credentials belong to verified enterprises).
 */
export async function userOfApiCredentials(
  db: Kysely<Database>,
  appId: string,
  securityKey: string,
): Promise<number | null> {
  const row = await db
    .selectFrom('kyc_profiles')
    .innerJoin('users', 'users.id', 'kyc_profiles.user_id')
    .select(['kyc_profiles.user_id', 'kyc_profiles.security_key', 'users.user_status', 'users.account_type'])
    .where('kyc_profiles.app_id', '=', appId)
    .executeTakeFirst();
  if (!row || row.user_status !== '3' || row.account_type !== 2) return null;
  return securityKeyMatches(row.security_key, securityKey) ? Number(row.user_id) : null;
}
