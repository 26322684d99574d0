/**
 * The KYC queue of the operator console (contract `KycReviewPaths`; docs/decisions/011-kyc-review.md): the queue
 * by userStatus, a submission's detail, approve, and reject with a remark. Every call needs an operator token and
 * the `reviewer` role (403 无权访问 without it); the queue is plugged into the console home as area `kyc`. The rules
 * are in ops-service.ts; platform/app.ts registers these routes in its list of operator routes (decision 060).
 */
import type { FastifyInstance } from 'fastify';
import { ok } from '../../contract/envelope.ts';
import {
  KYC_REVIEW_ROLE,
  KycDecisionBody,
  KycDetailQuery,
  KycQueueQuery,
  KycRejectBody,
  KycReviewPaths,
} from '../../contract/kyc-review.ts';
import { KycMsg } from '../../contract/kyc.ts';
import { parseInput } from '../core/errors.ts';
import { requireRole } from '../ops/auth.ts';
import { KYC_AREA, decideKyc, kycQueue, kycReviewDetail, kycWaiting } from './ops-service.ts';

/** Registers the KYC review calls (needs services and the operator auth plugin) and the console queue. */
export async function kycOpsRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.pdb;
  const guarded = { preHandler: app.requireOperator };
  app.opsQueues.add({ area: KYC_AREA, role: KYC_REVIEW_ROLE, waiting: (limit) => kycWaiting(db, limit) });

  app.get(KycReviewPaths.queue, guarded, async (request) => {
    requireRole(request, KYC_REVIEW_ROLE);
    const { status, page } = parseInput(KycQueueQuery, request.query);
    return ok(await kycQueue(db, status, page));
  });

  app.get(KycReviewPaths.detail, guarded, async (request) => {
    const operator = requireRole(request, KYC_REVIEW_ROLE);
    const { userId } = parseInput(KycDetailQuery, request.query);
    const data = await kycReviewDetail(app, userId);
    request.log.info({ operator: operator.username, userId }, 'KYC submission viewed');
    return ok(data);
  });

  app.post(KycReviewPaths.approve, guarded, async (request) => {
    const operator = requireRole(request, KYC_REVIEW_ROLE);
    const { userId } = parseInput(KycDecisionBody, request.body);
    await decideKyc(app, operator.id, userId, 'approve', '');
    request.log.info({ operator: operator.username, userId }, 'KYC approved');
    return ok(null, KycMsg.reviewApproved);
  });

  app.post(KycReviewPaths.reject, guarded, async (request) => {
    const operator = requireRole(request, KYC_REVIEW_ROLE);
    const { userId, remark } = parseInput(KycRejectBody, request.body);
    await decideKyc(app, operator.id, userId, 'reject', remark);
    request.log.info({ operator: operator.username, userId }, 'KYC rejected');
    return ok(null, KycMsg.reviewRejected);
  });
}
