/**
 * The operators' review of real-name verifications (docs/decisions/011-kyc-review.md): the queue by userStatus,
 * what waits (for the console home), one submission's detail with its images (signed URLs, masked numbers), and
 * the decision. A decision is taken only from userStatus '2', in one per-user transaction that also writes the
 * audit entry (area `kyc`) and the user's notification; an approved enterprise gets its AppID and SecurityKey.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { ApiCode } from '../../contract/envelope.ts';
import type { KycQueueData, KycQueueItem, KycReviewDetail } from '../../contract/kyc-review.ts';
import { KycMsg } from '../../contract/kyc.ts';
import { OPS_PAGE_SIZE, type OpsQueueItem } from '../../contract/ops.ts';
import { SmsSendError } from '../account/sms.ts';
import { ApiError } from '../core/errors.ts';
import { formatBeijing, nowSeconds } from '../core/time.ts';
import { withUserTransaction } from '../core/transactions.ts';
import type { Database } from '../db/schema.ts';
import type { UserRow } from '../account/schema.ts';
import type { KycProfileRow } from './schema.ts';
import { notify } from '../notification/notifications.ts';
import { writeAudit } from '../ops/audit.ts';
import { KYC_IMAGE_FIELDS, kycImageUrl, loadKyc, profileFields, toKycDetails } from './profile.ts';
import { newApiCredentials } from './service.ts';

/** The audit area of KYC decisions. */
export const KYC_AREA = 'kyc';

type QueueRow = UserRow &
  Pick<KycProfileRow, 'kind' | 'fields_json' | 'submitted_at'> & { kyc_auth_type: number };

/** A queue item from the user and the profile's kind, method, fields and submission time. */
function queueItem(
  u: UserRow,
  p: Pick<KycProfileRow, 'kind' | 'auth_type' | 'fields_json' | 'submitted_at'>,
) {
  const f = profileFields(p as KycProfileRow);
  const item: KycQueueItem = {
    userId: Number(u.id),
    mobile: u.mobile,
    status: p.kind === 'enterprise' ? 2 : 1,
    authType: p.kind === 'enterprise' ? 0 : p.auth_type === 3 ? 3 : 1,
    name: (p.kind === 'enterprise' ? f.name : f.userName) ?? '',
    userStatus: (['1', '2', '3', '4'] as const).find((s) => s === u.user_status) ?? '1',
    submittedAt: formatBeijing(Number(p.submitted_at)),
  };
  return item;
}
const itemOf = (r: QueueRow) => queueItem(r, { ...r, auth_type: r.kyc_auth_type });

/** The users at `status` with their profiles: the waiting ones ('2') oldest first, decided ones newest first. */
function queueQuery(db: Kysely<Database>, status: '2' | '3' | '4') {
  const base = db
    .selectFrom('users')
    .innerJoin('kyc_profiles', 'kyc_profiles.user_id', 'users.id')
    .where('users.user_status', '=', status);
  const rows = base
    .selectAll('users')
    .select([
      'kyc_profiles.kind',
      'kyc_profiles.auth_type as kyc_auth_type',
      'kyc_profiles.fields_json',
      'kyc_profiles.submitted_at',
    ])
    .orderBy('kyc_profiles.submitted_at', status === '2' ? 'asc' : 'desc');
  const count = base.select((eb) => eb.fn.countAll<number>().as('n'));
  return { rows, count };
}

/** One page ({@link OPS_PAGE_SIZE}) of the submissions at userStatus `status`, and how many there are. */
export async function kycQueue(
  db: Kysely<Database>,
  status: '2' | '3' | '4',
  page: number,
): Promise<KycQueueData> {
  const q = queueQuery(db, status);
  const [rows, total] = await Promise.all([
    q.rows
      .limit(OPS_PAGE_SIZE)
      .offset((page - 1) * OPS_PAGE_SIZE)
      .execute(),
    q.count.executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(itemOf), count: Number(total.n) };
}

/** What waits for review, for the console home: how many, and the oldest `limit`. */
export async function kycWaiting(
  db: Kysely<Database>,
  limit: number,
): Promise<{ count: number; items: OpsQueueItem[] }> {
  const q = queueQuery(db, '2');
  const [rows, total] = await Promise.all([q.rows.limit(limit).execute(), q.count.executeTakeFirstOrThrow()]);
  const items = rows.map(itemOf).map((i) => ({
    id: i.userId,
    ref: String(i.userId),
    subject: i.mobile,
    name: i.name,
    submittedAt: i.submittedAt,
  }));
  return { count: Number(total.n), items };
}

/**
 * One submission for review: masked details (no SecurityKey) and its images as signed URLs, in form order.
 * @throws ApiError 404 用户不存在 when the user or their submission does not exist
 */
export async function kycReviewDetail(app: FastifyInstance, userId: number): Promise<KycReviewDetail> {
  const { db } = app.pdb;
  const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  const kyc = user ? await loadKyc(db, userId) : null;
  if (!user || !kyc?.profile) throw new ApiError(ApiCode.NOT_FOUND, KycMsg.reviewUserNotFound);
  const now = nowSeconds();
  const details = toKycDetails(user, kyc, app.downloads, now, { unmasked: false });
  details.securityKey = '';
  const images = KYC_IMAGE_FIELDS[kyc.profile.kind].flatMap(({ field, label }) => {
    const row = kyc.images.find((i) => i.field === field);
    return row ? [{ field, label, url: kycImageUrl(app.downloads, Number(row.id), now) }] : [];
  });
  return { ...queueItem(user, kyc.profile), details, checkRemark: user.check_remark, images };
}

/**
 * Decides on `userId`'s submission from userStatus '2': approve (verified, '3') or reject ('4', the remark becomes
 * checkRemark); the audit entry and the user's notification commit with it; then the result SMS goes to the user's
 * mobile (spec 02 §9: the review result comes by SMS).
 * @throws ApiError 404 when the user does not exist; ApiError 400 该认证不在待审核状态 unless it waits for review
 */
export async function decideKyc(
  app: FastifyInstance,
  operatorId: number,
  userId: number,
  action: 'approve' | 'reject',
  remark: string,
): Promise<void> {
  const approve = action === 'approve';
  const mobile = await withUserTransaction(app.pdb, userId, async (trx) => {
    const user = await trx.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
    if (!user) throw new ApiError(ApiCode.NOT_FOUND, KycMsg.reviewUserNotFound);
    if (user.user_status !== '2') throw new ApiError(ApiCode.BAD_REQUEST, KycMsg.reviewNotPending);
    const now = nowSeconds();
    await trx
      .updateTable('users')
      .set({ user_status: approve ? '3' : '4', check_remark: approve ? '' : remark })
      .where('id', '=', userId)
      .execute();
    const profile = await trx
      .selectFrom('kyc_profiles')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
    const credentials =
      approve && profile?.kind === 'enterprise' && !profile.app_id ? newApiCredentials() : null;
    await trx
      .updateTable('kyc_profiles')
      .set({
        reviewed_at: now,
        // a rejected profile is no longer live: its ID number may verify another account (id-number.ts)
        ...(approve ? {} : { id_key: null }),
        ...(credentials ? { app_id: credentials.appId, security_key: null, security_key_shown: 0 } : {}),
      })
      .where('user_id', '=', userId)
      .execute();
    await writeAudit(
      trx,
      { operatorId, area: KYC_AREA, action, subject: String(userId), userId, remark },
      now,
    );
    await notify(trx, userId, approve ? KycMsg.approvedNews : KycMsg.rejectedNews(remark), now);
    return user.mobile;
  });
  // The result SMS the under-review hint promises (spec 02 §9), after the commit: a provider failure is logged and
  // never undoes the decision (the notification already tells the user).
  try {
    await app.sms.send(mobile, { kind: approve ? 'kycApproved' : 'kycRejected' });
  } catch (err) {
    app.log.warn(
      {
        userId,
        code: err instanceof SmsSendError ? err.code : undefined,
        err: err instanceof SmsSendError ? undefined : err,
      },
      'KYC result SMS not sent',
    );
  }
}
