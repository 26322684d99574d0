/**
 * Real-name verification calls (spec 02 §3, §4, §7 KYC; which call serves which step:
 * docs/decisions/010-kyc-foundations.md, 011-kyc-review.md). Each parses its input with the contract, calls
 * platform/kyc/service.ts (or the submission intake of submit.ts) and answers the envelope:
 * - `POST /api/user/getAuthInfo {edit?}` → AuthInfo (UserInfo & KycDetails; masked unless the owner edits an
 *   editable form with `edit: '1'`; a new SecurityKey shown once);
 * - `POST /api/user/companyAuthorize` (multipart) enterprise submit → 提交成功, userStatus '2';
 * - `POST /api/peruser/perAuthorize` (multipart) personal photo submit → 提交成功, userStatus '2';
 * - `POST /api/peruser/aliIdentification {username, idCard, type: '3', address}` → FaceStartData;
 * - `POST /api/peruser/aliQuery {certify_id}` → 200 passed, 202 still open, 400 failed or expired (stop);
 * - `POST /api/user/resetSecurityKey` → `{securityKey}` a new key, shown this once (verified enterprise only);
 * - `GET /api/kyc/image/:id?exp=&sig=` a KYC image, to whoever holds the signed URL (owner via getAuthInfo,
 *   operators via the review detail), 403 otherwise;
 * - `POST /api/internal/face/poll` (header `x-internal-key`) polls every open face certification once.
 * The operators' review of submissions is in ops-routes.ts. Nothing here logs an ID number, a bank number or a
 * name.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AccountPaths } from '../../contract/account.ts';
import { ApiCode, ok } from '../../contract/envelope.ts';
import { EvidenceMsg } from '../../contract/evidence.ts';
import {
  AliQueryBody,
  EnterpriseSubmitBody,
  type FaceQueryData,
  kycConsent,
  KycMsg,
  KycPaths,
  PersonalFaceSubmitBody,
  PersonalPhotoSubmitBody,
} from '../../contract/kyc.ts';
import { Msg } from '../../contract/messages.ts';
import { currentUser } from '../account/auth.ts';
import { internalOnly } from '../core/internal-key.ts';
import { ApiError, parseInput } from '../core/errors.ts';
import { registerSignedFileRoute } from '../files/signed-files.ts';
import { ID_TAKEN_REASON, pollOpenCertifications } from './face.ts';
import { idNumberKey } from './id-number.ts';
import { KYC_IMAGE_PURPOSE, kycStorage, type KycKind } from './profile.ts';
import {
  assertEditable,
  authInfo,
  findKycImage,
  queryFace,
  rotateSecurityKey,
  startFace,
  storedImageFields,
} from './service.ts';
import {
  discardSubmission,
  receiveSubmission,
  storeSubmission,
  validateSubmission,
  type UserKycUpdate,
} from './submit.ts';

/** Path of the internal poll the gateway's job calls. */
export const INTERNAL_FACE_POLL_PATH = '/api/internal/face/poll';

const AuthInfoBody = z.object({ edit: z.string().optional() }).optional();

/** Registers the KYC routes (needs services, auth and the face service). */
export async function kycRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.pdb;
  const storage = kycStorage(app);
  const userOnly = { preHandler: app.requireUser };

  app.route({
    // The legacy client's method is not shown (spec 01 §7): accept GET and POST.
    method: ['GET', 'POST'],
    url: AccountPaths.authInfo,
    ...userOnly,
    handler: async (request) => {
      const body = parseInput(AuthInfoBody, request.method === 'GET' ? request.query : request.body);
      return ok(await authInfo(app, currentUser(request), body?.edit === '1'));
    },
  });

  /** One submission route: the multipart body of `kind`, checked with `schema`, stored with the user's new state. */
  function submissionRoute(
    path: string,
    kind: KycKind,
    schema: typeof EnterpriseSubmitBody | typeof PersonalPhotoSubmitBody,
    notMultipart: string,
    finish: (text: Record<string, string>) => { authType: number; user: UserKycUpdate },
  ) {
    app.post(path, userOnly, async (request) => {
      const user = currentUser(request);
      assertEditable(user);
      if (!request.isMultipart()) throw new ApiError(ApiCode.BAD_REQUEST, notMultipart);
      const s = await receiveSubmission(request, kind, app.tmpDir);
      try {
        // personal photo: the consent box comes first (spec 02 §5)
        if (kind === 'personal') parseInput(z.object({ consent: kycConsent }), s.fields);
        const text = await validateSubmission(s, kind, schema, await storedImageFields(db, user.id));
        delete text.type;
        const { authType, user: update } = finish(text);
        // one ID number, one personal account: the number's index key goes with the live profile (id-number.ts)
        const idKey =
          kind === 'personal' && text.idCard ? await idNumberKey(app.config.dataDir, text.idCard) : null;
        await storeSubmission(app, storage, user.id, kind, authType, text, s, update, idKey);
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
    (t) => ({ authType: 0, user: { account_type: 2, auth_type: 0, user_name: t.name ?? '' } }),
  );
  submissionRoute(KycPaths.perAuthorize, 'personal', PersonalPhotoSubmitBody, KycMsg.photosRequired, (t) => ({
    authType: 1,
    user: { account_type: 1, auth_type: 1, user_name: t.userName ?? '' },
  }));

  app.post(KycPaths.aliIdentification, userOnly, async (request) => {
    const user = currentUser(request);
    assertEditable(user);
    const data = await startFace(app, request.log, user.id, parseInput(PersonalFaceSubmitBody, request.body));
    request.log.info({ userId: user.id }, 'face certification started');
    return ok(data);
  });

  app.post(KycPaths.aliQuery, userOnly, async (request) => {
    const { certify_id } = parseInput(AliQueryBody, request.body);
    const { state } = await queryFace(app, currentUser(request).id, certify_id);
    const data: FaceQueryData = { state };
    if (state === 'passed') return ok(data, KycMsg.facePassed);
    if (state === 'open') return { code: ApiCode.PENDING, msg: KycMsg.facePending, data };
    // a face that passed while its ID number became live on another account (one number, one personal account)
    const idTakenMeanwhile =
      state === 'failed' &&
      (
        await db
          .selectFrom('face_certifications')
          .select('fail_reason')
          .where('certify_id', '=', certify_id)
          .executeTakeFirst()
      )?.fail_reason === ID_TAKEN_REASON;
    return {
      code: ApiCode.BAD_REQUEST,
      msg: idTakenMeanwhile
        ? KycMsg.idCardTaken
        : state === 'expired'
          ? KycMsg.faceExpired
          : KycMsg.faceFailed,
      data,
    };
  });

  app.post(KycPaths.rotateSecurityKey, userOnly, async (request) => {
    const user = currentUser(request);
    const securityKey = await rotateSecurityKey(db, app.apiKeys, user);
    request.log.info({ userId: user.id }, 'SecurityKey rotated');
    return ok({ securityKey }, KycMsg.keyRotated);
  });

  registerSignedFileRoute(app, {
    prefix: KycPaths.image,
    purpose: KYC_IMAGE_PURPOSE,
    storage,
    notFound: EvidenceMsg.downloadLinkInvalid,
    lookup: (id) => findKycImage(db, id),
  });

  app.post(INTERNAL_FACE_POLL_PATH, { preHandler: internalOnly(app) }, async () =>
    ok(await pollOpenCertifications(app)),
  );
}
