/**
 * The orders view of the operator console (contract `BillingOpsPaths`, role `finance`; 403 无权访问 without it):
 * search, one order with its notifications and journal, and a manual reconcile. Every call writes an audit entry
 * (area `billing`); the queue of flagged orders is plugged into the console home.
 */
import type { FastifyInstance } from 'fastify';
import { BILLING_OPS_ROLE, BillingMsg, OrderNoBody } from '../../contract/billing.ts';
import { BillingOpsPaths, OpsOrdersQuery } from '../../contract/billing-ops.ts';
import { ApiCode, ok } from '../../contract/envelope.ts';
import { ApiError, parseInput } from '../core/errors.ts';
import { writeAudit } from '../ops/audit.ts';
import { requireRole } from '../ops/auth.ts';
import { BILLING_AREA, flaggedWaiting, opsOrderDetail, searchOrders } from './ops-service.ts';
import { ProviderUnavailable } from './providers.ts';
import { reconcileOrder } from './reconcile.ts';
import { findOrder } from './service.ts';

/** Registers the ops calls and the console queue (needs the operator auth plugin and `app.billing`). */
export async function billingOpsRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.pdb;
  const guarded = { preHandler: app.requireOperator };
  app.opsQueues.add({
    area: BILLING_AREA,
    role: BILLING_OPS_ROLE,
    waiting: (limit) => flaggedWaiting(db, limit),
  });

  app.get(BillingOpsPaths.orders, guarded, async (request) => {
    const operator = requireRole(request, BILLING_OPS_ROLE);
    const { q, page } = parseInput(OpsOrdersQuery, request.query);
    const data = await searchOrders(db, q, page);
    await writeAudit(db, {
      operatorId: operator.id,
      area: BILLING_AREA,
      action: 'search',
      subject: q ?? '',
      remark: `page ${page}`,
    });
    return ok(data);
  });

  app.get(BillingOpsPaths.order, guarded, async (request) => {
    const operator = requireRole(request, BILLING_OPS_ROLE);
    const { order_no } = parseInput(OrderNoBody, request.query);
    const data = await opsOrderDetail(db, order_no);
    await writeAudit(db, {
      operatorId: operator.id,
      area: BILLING_AREA,
      action: 'view',
      subject: order_no,
      userId: data.order.userId,
    });
    return ok(data);
  });

  app.post(BillingOpsPaths.reconcile, guarded, async (request) => {
    const operator = requireRole(request, BILLING_OPS_ROLE);
    const { order_no } = parseInput(OrderNoBody, request.body);
    const order = await findOrder(db, order_no, null);
    if (!order) throw new ApiError(ApiCode.NOT_FOUND, BillingMsg.orderNotFound);
    let remark: string;
    try {
      const outcome = await reconcileOrder(app, order, { any: true });
      remark = `${outcome.verdict}: ${outcome.detail}`;
    } catch (err) {
      if (!(err instanceof ProviderUnavailable)) throw err;
      remark = 'provider unreachable';
    }
    await writeAudit(db, {
      operatorId: operator.id,
      area: BILLING_AREA,
      action: 'reconcile',
      subject: order_no,
      userId: Number(order.user_id),
      remark,
    });
    if (remark === 'provider unreachable')
      throw new ApiError(ApiCode.SERVER_ERROR, BillingMsg.providerUnavailable);
    return ok(await opsOrderDetail(db, order_no), BillingMsg.reconciled);
  });
}
