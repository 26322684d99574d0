/**
 * Real-name verification calls (issue 5; spec 02 §3, §4, §7 KYC; which call serves which step:
 * docs/decisions/010-kyc-foundations.md, 011-kyc-review.md):
 * - `POST /api/user/getAuthInfo {edit?}` → AuthInfo (UserInfo & KycDetails; masked unless the owner edits an
 *   editable form with `edit: '1'`); a verified enterprise's new SecurityKey is revealed in full exactly once, to
 *   the first call with `edit: '1'` (the KYC pages send it; the shell's refresh does not);
 * - `POST /api/user/companyAuthorize` (multipart) enterprise submit → 提交成功, userStatus '2';
 * - `POST /api/peruser/perAuthorize` (multipart) personal photo submit → 提交成功, userStatus '2';
 * - `POST /api/peruser/aliIdentification {username, idCard, type: '3', address}` → FaceStartData;
 * - `POST /api/peruser/aliQuery {certify_id}` → 200 passed, 202 still open, 400 failed or expired (stop);
 * - `POST /api/user/resetSecurityKey` → `{securityKey}` a new key, shown this once (verified enterprise only);
 * - `GET /api/kyc/image/:id?exp=&sig=` a KYC image, to whoever holds the signed URL (owner via getAuthInfo,
 *   operators via the review detail), 403 otherwise;
 * - `POST /api/internal/face/poll` (header `x-internal-key`) polls every open face certification once.
 * Nothing here logs an ID number, a bank number or a name.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  AccountPaths,
  AliQueryBody,
  ApiCode,
  EnterpriseSubmitBody,
  KycExtraPaths,
  KycPaths,
  Msg,
  PersonalFaceSubmitBody,
  PersonalPhotoSubmitBody,
  kycConsent,
  ok,
  type AuthInfo,
  type FaceQueryData,
  type FaceStartData,
} from '../../contract/index.ts';
import { currentUser } from '../account/auth.ts';
import { toUserInfo } from '../account/users.ts';
import { safeEqual } from '../core/crypto.ts';
import { registerSignedFileRoute } from '../files/signed-files.ts';
import { ApiError, parseInput } from '../core/errors.ts';
import { nowSeconds } from '../core/time.ts';
import { withUserTransaction } from '../core/transactions.ts';
import { unreadCount } from '../notification/notifications.ts';
import { AlipayFaceError, newOuterOrderNo } from './alipay-face.ts';
import { FACE_TTL_SECONDS, pollCertification, pollOpenCertifications } from './face.ts';
import { KYC_IMAGE_PURPOSE, kycStorage, loadKyc, toKycDetails, type KycKind } from './profile.ts';
import {
  NOT_EDITABLE,
  discardSubmission,
  receiveSubmission,
  storeSubmission,
  validateSubmission,
  type UserKycUpdate,
} from './submit.ts';

/** Path of the internal poll the gateway's job calls. */
export const INTERNAL_FACE_POLL_PATH = '/api/internal/face/poll';
const FACE_UNAVAILABLE = '人脸认证服务暂不可用，请稍后再试';
const FACE_FAILED = '人脸认证未通过，请重新认证';
const FACE_EXPIRED = '人脸认证已超时，请重新认证';

/** A new AppID ("cz" + 16 hex) and SecurityKey (32 random bytes, base64url) for a verified enterprise. */
export function newApiCredentials(): { appId: string; securityKey: string } {
  return { appId: `cz${randomBytes(8).toString('hex')}`, securityKey: randomBytes(32).toString('base64url') };
}

const AuthInfoBody = z.object({ edit: z.string().optional() }).optional();

/** Registers the KYC routes (needs services, auth and the face service). */
export async function kycRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.pdb;
  const storage = kycStorage(app);

  app.route({
    // The legacy client's method is not shown (spec 01 §7): accept GET and POST.
    method: ['GET', 'POST'],
    url: AccountPaths.authInfo,
    preHandler: app.requireUser,
    handler: async (request) => {
      const user = currentUser(request);
      const body = parseInput(AuthInfoBody, request.method === 'GET' ? request.query : request.body);
      const editable = user.user_status === '1' || user.user_status === '4';
      const kyc = await loadKyc(db, user.id);
      let fullSecurityKey: string | undefined;
      // Revealed only to the KYC pages (they send `edit: '1'`), not to the shell's user-info refresh on every page.
      if (body?.edit === '1' && kyc.profile?.security_key && !kyc.profile.security_key_shown) {
        // Reveal once: only the call that flips the flag gets the full key.
        const r = await db
          .updateTable('kyc_profiles')
          .set({ security_key_shown: 1 })
          .where('user_id', '=', user.id)
          .where('security_key_shown', '=', 0)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) === 1) fullSecurityKey = kyc.profile.security_key;
      }
      const data: AuthInfo = {
        ...toUserInfo(user, await unreadCount(db, user.id)),
        ...toKycDetails(user, kyc, app.downloads, nowSeconds(), {
          unmasked: editable && body?.edit === '1',
          ...(fullSecurityKey ? { fullSecurityKey } : {}),
        }),
      };
      return ok(data);
    },
  });

  /** Refuses a submission unless the form is editable (userStatus 1 or 4, spec 02 §2). */
  function assertEditable(status: string) {
    if (status !== '1' && status !== '4') throw new ApiError(ApiCode.BAD_REQUEST, NOT_EDITABLE);
  }

  /** One submission route: the multipart body of `kind`, checked with `schema`, stored with the user's new state. */
  function submissionRoute(
    path: string,
    kind: KycKind,
    schema: typeof EnterpriseSubmitBody | typeof PersonalPhotoSubmitBody,
    notMultipart: string,
    finish: (text: Record<string, string>) => { authType: number; user: UserKycUpdate },
  ) {
    app.post(path, { preHandler: app.requireUser }, async (request) => {
      const user = currentUser(request);
      assertEditable(user.user_status);
      if (!request.isMultipart()) throw new ApiError(ApiCode.BAD_REQUEST, notMultipart);
      const s = await receiveSubmission(request, kind, app.tmpDir);
      try {
        // personal photo: the consent box comes first (spec 02 §5)
        if (kind === 'personal') parseInput(z.object({ consent: kycConsent }), s.fields);
        const stored = new Set((await loadKyc(db, user.id)).images.map((i) => i.field));
        const text = await validateSubmission(s, kind, schema, stored);
        delete text.type;
        const { authType, user: update } = finish(text);
        await storeSubmission(app, storage, user.id, kind, authType, text, s, update);
        request.log.info({ userId: user.id, kind }, 'KYC submitted');
        return ok(null, Msg.submitted);
      } finally {
        await discardSubmission(s);
      }
    });
  }
  submissionRoute(
    KycPaths.companyAuthorize,
    'enterprise',
    EnterpriseSubmitBody,
    Msg.required('营业执照'),
    (t) => ({
      authType: 0,
      user: { account_type: 2, auth_type: 0, user_name: t.name ?? '' },
    }),
  );
  submissionRoute(KycPaths.perAuthorize, 'personal', PersonalPhotoSubmitBody, '请上传身份证照片', (t) => ({
    authType: 1,
    user: { account_type: 1, auth_type: 1, user_name: t.userName ?? '' },
  }));

  app.post(KycPaths.aliIdentification, { preHandler: app.requireUser }, async (request) => {
    const user = currentUser(request);
    assertEditable(user.user_status);
    const body = parseInput(PersonalFaceSubmitBody, request.body);
    const outerOrderNo = newOuterOrderNo();
    let certifyId: string;
    try {
      ({ certifyId } = await app.face.initialize({
        outerOrderNo,
        certName: body.username ?? '',
        certNo: body.idCard,
      }));
    } catch (err) {
      request.log.warn({ err: err instanceof AlipayFaceError ? err.message : err }, 'face initialize failed');
      throw new ApiError(ApiCode.SERVER_ERROR, FACE_UNAVAILABLE);
    }
    const now = nowSeconds();
    const fields = JSON.stringify({
      userName: body.username ?? '',
      idCard: body.idCard,
      address: body.address,
    });
    await withUserTransaction(app.pdb, user.id, async (trx) => {
      const profile = { kind: 'personal' as const, auth_type: 3, fields_json: fields, submitted_at: now };
      const r = await trx
        .updateTable('kyc_profiles')
        .set({ ...profile, reviewed_at: null })
        .where('user_id', '=', user.id)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) {
        await trx
          .insertInto('kyc_profiles')
          .values({ user_id: user.id, ...profile })
          .execute();
      }
      await trx
        .insertInto('face_certifications')
        .values({
          user_id: user.id,
          certify_id: certifyId,
          outer_order_no: outerOrderNo,
          created_at: now,
          expires_at: now + FACE_TTL_SECONDS,
        })
        .execute();
    });
    request.log.info({ userId: user.id }, 'face certification started');
    const data: FaceStartData = {
      certify_id: certifyId,
      qrContent: app.face.certifyUrl(certifyId),
      expiresAt: now + FACE_TTL_SECONDS,
    };
    return ok(data);
  });

  app.post(KycPaths.aliQuery, { preHandler: app.requireUser }, async (request) => {
    const user = currentUser(request);
    const { certify_id } = parseInput(AliQueryBody, request.body);
    const row = await db
      .selectFrom('face_certifications')
      .selectAll()
      .where('certify_id', '=', certify_id)
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    if (!row) throw new ApiError(ApiCode.NOT_FOUND, '认证记录不存在');
    const { state } = await pollCertification(app, row);
    const data: FaceQueryData = { state };
    if (state === 'passed') return ok(data, '实名认证成功');
    if (state === 'open') return { code: ApiCode.PENDING, msg: '认证进行中，请在手机上完成刷脸', data };
    return { code: ApiCode.BAD_REQUEST, msg: state === 'expired' ? FACE_EXPIRED : FACE_FAILED, data };
  });

  app.post(KycExtraPaths.rotateSecurityKey, { preHandler: app.requireUser }, async (request) => {
    const user = currentUser(request);
    if (user.user_status !== '3' || user.account_type !== 2)
      throw new ApiError(ApiCode.BAD_REQUEST, '仅已认证的企业用户可以重置密钥');
    const { securityKey } = newApiCredentials();
    const r = await db
      .updateTable('kyc_profiles')
      .set({ security_key: securityKey, security_key_shown: 1 })
      .where('user_id', '=', user.id)
      .where('app_id', 'is not', null)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0)
      throw new ApiError(ApiCode.BAD_REQUEST, '仅已认证的企业用户可以重置密钥');
    request.log.info({ userId: user.id }, 'SecurityKey rotated');
    return ok({ securityKey }, '密钥已重置，请立即保存');
  });

  registerSignedFileRoute(app, {
    prefix: KycExtraPaths.image,
    purpose: KYC_IMAGE_PURPOSE,
    storage,
    notFound: Msg.downloadLinkInvalid,
    lookup: (id) => db.selectFrom('kyc_images').selectAll().where('id', '=', id).executeTakeFirst(),
  });

  app.post(INTERNAL_FACE_POLL_PATH, async (request) => {
    const given = request.headers['x-internal-key'];
    if (typeof given !== 'string' || !safeEqual(given, app.internalKey))
      throw new ApiError(ApiCode.FORBIDDEN, Msg.badRequest, 403);
    return ok(await pollOpenCertifications(app));
  });
}
