/**
 * Operator console calls (issue 5 item 5; contract `OpsPaths`): login/logout with operator accounts, the review
 * queue by userStatus, a submission's detail with its images (signed URLs, masked numbers), approve and reject
 * with a remark (shown to the user as checkRemark), and the audit log. A decision is taken only from userStatus
 * '2', in one per-user transaction that also writes the audit row and the user's notification; an approved
 * enterprise gets its AppID and SecurityKey there.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  ApiCode,
  Msg,
  OPS_PAGE_SIZE,
  OpsDecisionBody,
  OpsLoginBody,
  OpsMsg,
  OpsPaths,
  OpsRejectBody,
  ok,
  type AuditListData,
  type KycQueueData,
  type KycQueueItem,
  type KycReviewDetail,
  type OpsLoginData,
} from '../../contract/index.ts';
import { verifyPassword, hashPassword } from '../account/passwords.ts';
import { LOGIN_POLICY, clearFailures, isThrottled, recordFailure } from '../core/attempts.ts';
import { ApiError, parseInput } from '../core/errors.ts';
import { formatBeijing, nowSeconds } from '../core/time.ts';
import { withUserTransaction } from '../core/transactions.ts';
import type { KycProfileRow, UserRow } from '../db/schema.ts';
import { newApiCredentials } from '../kyc/routes.ts';
import { KYC_IMAGE_FIELDS, kycImageUrl, loadKyc, profileFields, toKycDetails } from '../kyc/profile.ts';
import { notify } from '../notification/notifications.ts';
import { OPERATOR_TOKEN_TTL, issueOperatorToken, revokeOperatorToken } from './operators.ts';

const QueueQuery = z.object({
  status: z.enum(['2', '3', '4']).default('2'),
  page: z.coerce.number().int().min(1).max(100000).default(1),
});
const DetailQuery = z.object({ userId: z.coerce.number().int().positive() });
const PageQuery = z.object({ page: z.coerce.number().int().min(1).max(100000).default(1) });

function queueItem(u: UserRow, p: KycProfileRow): KycQueueItem {
  const f = profileFields(p);
  return {
    userId: Number(u.id),
    mobile: u.mobile,
    status: p.kind === 'enterprise' ? 2 : 1,
    authType: p.kind === 'enterprise' ? 0 : p.auth_type === 3 ? 3 : 1,
    name: (p.kind === 'enterprise' ? f.name : f.userName) ?? '',
    userStatus: (['1', '2', '3', '4'] as const).find((s) => s === u.user_status) ?? '1',
    submittedAt: formatBeijing(Number(p.submitted_at)),
  };
}

/** Registers the ops routes (needs services, the operator auth plugin and the KYC module). */
export async function opsRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.pdb;
  let dummyHash: Promise<string> | undefined;

  app.post(OpsPaths.login, async (request) => {
    const body = parseInput(OpsLoginBody, request.body);
    const subject = `ops|${request.ip}|${body.username}`;
    if (await isThrottled(db, LOGIN_POLICY, subject))
      throw new ApiError(ApiCode.TOO_MANY_REQUESTS, Msg.tooManyRequests);
    const op = await db
      .selectFrom('operators')
      .selectAll()
      .where('username', '=', body.username)
      .executeTakeFirst();
    const hash =
      op?.password_hash ??
      (await (dummyHash ??= hashPassword('not-a-real-password-0', app.config.scryptCost)));
    const valid = await verifyPassword(body.password, hash);
    if (!op || !valid || op.disabled) {
      await recordFailure(db, LOGIN_POLICY, subject);
      throw new ApiError(ApiCode.BAD_REQUEST, OpsMsg.loginFailed);
    }
    await clearFailures(db, LOGIN_POLICY, subject);
    const data: OpsLoginData = {
      token: await issueOperatorToken(db, op.id),
      expiresIn: OPERATOR_TOKEN_TTL,
      operator: { username: op.username },
    };
    request.log.info({ operator: op.username }, 'operator logged in');
    return ok(data, Msg.loggedIn);
  });

  app.post(OpsPaths.logout, { preHandler: app.requireOperator }, async (request) => {
    if (request.operatorTokenHash) await revokeOperatorToken(db, request.operatorTokenHash);
    return ok(null, Msg.loggedOut);
  });

  app.get(OpsPaths.queue, { preHandler: app.requireOperator }, async (request) => {
    const q = parseInput(QueueQuery, request.query);
    const base = db
      .selectFrom('users')
      .innerJoin('kyc_profiles', 'kyc_profiles.user_id', 'users.id')
      .where('users.user_status', '=', q.status);
    const [rows, total] = await Promise.all([
      base
        .selectAll('users')
        .select([
          'kyc_profiles.kind',
          'kyc_profiles.auth_type as kyc_auth_type',
          'kyc_profiles.fields_json',
          'kyc_profiles.submitted_at',
        ])
        // the waiting queue oldest first; decided ones newest first
        .orderBy('kyc_profiles.submitted_at', q.status === '2' ? 'asc' : 'desc')
        .limit(OPS_PAGE_SIZE)
        .offset((q.page - 1) * OPS_PAGE_SIZE)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    const data: KycQueueData = {
      list: rows.map((r) =>
        queueItem(r, {
          user_id: r.id,
          kind: r.kind,
          auth_type: r.kyc_auth_type,
          fields_json: r.fields_json,
          submitted_at: r.submitted_at,
          reviewed_at: null,
          app_id: null,
          security_key: null,
          security_key_shown: 0,
        }),
      ),
      count: Number(total.n),
    };
    return ok(data);
  });

  app.get(OpsPaths.detail, { preHandler: app.requireOperator }, async (request) => {
    const { userId } = parseInput(DetailQuery, request.query);
    const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
    const kyc = user ? await loadKyc(db, userId) : null;
    if (!user || !kyc?.profile) throw new ApiError(ApiCode.NOT_FOUND, OpsMsg.notFound);
    const now = nowSeconds();
    const details = toKycDetails(user, kyc, app.downloads, now, { unmasked: false });
    details.securityKey = '';
    const images = KYC_IMAGE_FIELDS[kyc.profile.kind].flatMap(({ field, label }) => {
      const row = kyc.images.find((i) => i.field === field);
      return row ? [{ field, label, url: kycImageUrl(app.downloads, Number(row.id), now) }] : [];
    });
    const data: KycReviewDetail = {
      ...queueItem(user, kyc.profile),
      details,
      checkRemark: user.check_remark,
      images,
    };
    request.log.info({ operator: request.operator?.username, userId }, 'KYC submission viewed');
    return ok(data);
  });

  /** Runs a decision on `userId` from userStatus '2': updates, audit row and notification in one transaction. */
  async function decide(operatorId: number, userId: number, action: 'approve' | 'reject', remark: string) {
    await withUserTransaction(app.pdb, userId, async (trx) => {
      const user = await trx.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
      if (!user) throw new ApiError(ApiCode.NOT_FOUND, OpsMsg.notFound);
      if (user.user_status !== '2') throw new ApiError(ApiCode.BAD_REQUEST, OpsMsg.notPending);
      const now = nowSeconds();
      await trx
        .updateTable('users')
        .set({
          user_status: action === 'approve' ? '3' : '4',
          check_remark: action === 'approve' ? '' : remark,
        })
        .where('id', '=', userId)
        .execute();
      const profile = await trx
        .selectFrom('kyc_profiles')
        .selectAll()
        .where('user_id', '=', userId)
        .executeTakeFirst();
      const credentials =
        action === 'approve' && profile?.kind === 'enterprise' && !profile.app_id
          ? newApiCredentials()
          : null;
      await trx
        .updateTable('kyc_profiles')
        .set({
          reviewed_at: now,
          ...(credentials
            ? { app_id: credentials.appId, security_key: credentials.securityKey, security_key_shown: 0 }
            : {}),
        })
        .where('user_id', '=', userId)
        .execute();
      await trx
        .insertInto('kyc_audit')
        .values({ operator_id: operatorId, user_id: userId, action, remark, created_at: now })
        .execute();
      await notify(
        trx,
        userId,
        action === 'approve' ? OpsMsg.approvedNews : OpsMsg.rejectedNews(remark),
        now,
      );
    });
  }

  app.post(OpsPaths.approve, { preHandler: app.requireOperator }, async (request) => {
    const { userId } = parseInput(OpsDecisionBody, request.body);
    await decide(request.operator!.id, userId, 'approve', '');
    request.log.info({ operator: request.operator?.username, userId }, 'KYC approved');
    return ok(null, OpsMsg.approved);
  });

  app.post(OpsPaths.reject, { preHandler: app.requireOperator }, async (request) => {
    const { userId, remark } = parseInput(OpsRejectBody, request.body);
    await decide(request.operator!.id, userId, 'reject', remark);
    request.log.info({ operator: request.operator?.username, userId }, 'KYC rejected');
    return ok(null, OpsMsg.rejected);
  });

  app.get(OpsPaths.audit, { preHandler: app.requireOperator }, async (request) => {
    const { page } = parseInput(PageQuery, request.query);
    const [rows, total] = await Promise.all([
      db
        .selectFrom('kyc_audit')
        .innerJoin('operators', 'operators.id', 'kyc_audit.operator_id')
        .innerJoin('users', 'users.id', 'kyc_audit.user_id')
        .select([
          'kyc_audit.id',
          'operators.username',
          'kyc_audit.user_id',
          'users.mobile',
          'kyc_audit.action',
          'kyc_audit.remark',
          'kyc_audit.created_at',
        ])
        .orderBy('kyc_audit.id', 'desc')
        .limit(OPS_PAGE_SIZE)
        .offset((page - 1) * OPS_PAGE_SIZE)
        .execute(),
      db
        .selectFrom('kyc_audit')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    const data: AuditListData = {
      list: rows.map((r) => ({
        id: Number(r.id),
        operator: r.username,
        userId: Number(r.user_id),
        mobile: r.mobile,
        action: r.action,
        remark: r.remark,
        at: formatBeijing(Number(r.created_at)),
      })),
      count: Number(total.n),
    };
    return ok(data);
  });
}
