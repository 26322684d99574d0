/**
 * The operators' review of real-name verifications (docs/decisions/011-kyc-review.md): the KYC queue of the
 * operator console, its paths, queries, decision bodies and answers, and the role it needs. Its messages are in
 * `KycMsg` (contract/kyc.ts). No I/O.
 */
import { z } from 'zod';
import './zod-locale.ts';
import { type KycDetails, KycMsg } from './kyc.ts';
import { Msg } from './messages.ts';
import { opsPage, type OpsRole } from './ops.ts';
import { multilineText } from './validators.ts';

/** The role that opens the KYC queue. */
export const KYC_REVIEW_ROLE: OpsRole = 'reviewer';

/** The KYC queue's calls (operator token and {@link KYC_REVIEW_ROLE}; 403 无权访问 without the role). */
export const KycReviewPaths = {
  /** `GET {status?: '2'|'3'|'4', page?}` → {@link KycQueueData}; default status '2' (submitted, waiting). */
  queue: '/api/ops/kyc/queue',
  /** `GET {userId}` → {@link KycReviewDetail}. */
  detail: '/api/ops/kyc/detail',
  /** `POST {userId}` → msg; only from userStatus '2'. */
  approve: '/api/ops/kyc/approve',
  /** `POST {userId, remark}` → msg; only from userStatus '2'; the remark is shown to the user as checkRemark. */
  reject: '/api/ops/kyc/reject',
} as const;

/** `GET queue` query: the userStatus tab (waiting oldest first, decided ones newest first) and the page. */
export const KycQueueQuery = z.object({ status: z.enum(['2', '3', '4']).default('2'), page: opsPage });
/** `GET detail` query. */
export const KycDetailQuery = z.object({ userId: z.coerce.number().int().positive() });

/** `POST approve` body. */
export const KycDecisionBody = z.object({
  userId: z.coerce.number({ error: Msg.invalidId }).int().positive(Msg.invalidId),
});
/**
 * `POST reject` body: a remark of 1–200 characters (line breaks count one each, stored as LF: `multilineText`), shown
 * to the user.
 */
export const KycRejectBody = KycDecisionBody.extend({
  remark: multilineText(KycMsg.remarkRequired).min(1, KycMsg.remarkRequired).max(200, KycMsg.remarkTooLong),
});

/** One submission in the queue. */
export interface KycQueueItem {
  userId: number;
  mobile: string;
  /** 1 personal, 2 enterprise. */
  status: 1 | 2;
  /** 1 photo, 3 face, 0 enterprise. */
  authType: 0 | 1 | 3;
  /** Personal name or company name. */
  name: string;
  userStatus: '1' | '2' | '3' | '4';
  /** "YYYY-MM-DD HH:mm:ss" Beijing time. */
  submittedAt: string;
}
/** `GET queue` answer. */
export interface KycQueueData {
  list: KycQueueItem[];
  count: number;
}

/** What an operator sees of one submission: the masked details and the images (signed URLs). */
export interface KycReviewDetail extends KycQueueItem {
  details: KycDetails;
  checkRemark: string;
  /** Labelled images, in form order. */
  images: { field: string; label: string; url: string }[];
}
