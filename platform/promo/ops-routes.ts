/**
 * The promotion-code batches of the operator console (contract `PromoOpsPaths`, role `finance`; 403 无权访问
 * without it; docs/decisions/062-promotion-codes.md, 060-operator-routes-and-tables.md): list, one batch with its
 * codes (audited as `view`: the codes are bearer value), mint (audited as `mint`), disable (audited as `disable`).
 * The console queue lists enabled batches about to expire. Rules in ops-service.ts.
 */
import type { FastifyInstance } from 'fastify';
import { ok } from '../../contract/envelope.ts';
import {
  MintBatchBody,
  PROMO_AREA,
  PROMO_OPS_ROLE,
  PromoBatchesQuery,
  PromoBatchIdBody,
  PromoMsg,
  PromoOpsPaths,
} from '../../contract/promo.ts';
import { parseInput } from '../core/errors.ts';
import { nowSeconds } from '../core/time.ts';
import { writeAudit } from '../ops/audit.ts';
import { requireRole } from '../ops/auth.ts';
import { batchDetail, disableBatch, expiringWaiting, listBatches, mintBatch } from './ops-service.ts';

/** Registers the console calls and the queue (needs the operator auth plugin). */
export async function promoOpsRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.pdb;
  const guarded = { preHandler: app.requireOperator };
  app.opsQueues.add({
    area: PROMO_AREA,
    role: PROMO_OPS_ROLE,
    waiting: (limit) => expiringWaiting(db, limit, nowSeconds()),
  });

  app.get(PromoOpsPaths.batches, guarded, async (request) => {
    requireRole(request, PROMO_OPS_ROLE);
    const { page } = parseInput(PromoBatchesQuery, request.query);
    return ok(await listBatches(db, page, nowSeconds()));
  });

  app.get(PromoOpsPaths.batch, guarded, async (request) => {
    const operator = requireRole(request, PROMO_OPS_ROLE);
    const { id } = parseInput(PromoBatchIdBody, request.query);
    const data = await batchDetail(db, id, nowSeconds());
    await writeAudit(db, { operatorId: operator.id, area: PROMO_AREA, action: 'view', subject: String(id) });
    return ok(data);
  });

  app.post(PromoOpsPaths.mint, guarded, async (request) => {
    const operator = requireRole(request, PROMO_OPS_ROLE);
    const body = parseInput(MintBatchBody, request.body);
    const now = nowSeconds();
    const id = await mintBatch(app.pdb, operator.id, body, now);
    return ok(await batchDetail(db, id, now), PromoMsg.minted);
  });

  app.post(PromoOpsPaths.disable, guarded, async (request) => {
    const operator = requireRole(request, PROMO_OPS_ROLE);
    const { id } = parseInput(PromoBatchIdBody, request.body);
    const now = nowSeconds();
    await disableBatch(app.pdb, operator.id, id, now);
    return ok(await batchDetail(db, id, now), PromoMsg.disabled);
  });
}
