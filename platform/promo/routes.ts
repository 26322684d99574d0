/**
 * The user's promotion-code call (contract `PromoPaths`; docs/decisions/062-promotion-codes.md):
 * `POST /api/promo/redeem {code}` → `{points, balance}` with msg 兑换成功，已获得 N 积分. Any logged-in user may redeem,
 * the gate of /buyCredits (spec 02 §2: a stored authorization). The rules are in service.ts.
 */
import type { FastifyInstance } from 'fastify';
import { ok } from '../../contract/envelope.ts';
import { PromoMsg, PromoPaths, RedeemBody } from '../../contract/promo.ts';
import { currentUser } from '../account/auth.ts';
import { parseInput } from '../core/errors.ts';
import { nowSeconds } from '../core/time.ts';
import { redeemCode } from './service.ts';

/** Registers the redeem call (needs the services and auth plugins). */
export async function promoRoutes(app: FastifyInstance): Promise<void> {
  app.post(PromoPaths.redeem, { preHandler: app.requireUser }, async (request) => {
    const { code } = parseInput(RedeemBody, request.body);
    const data = await redeemCode(app.pdb, currentUser(request).id, code, nowSeconds());
    return ok(data, PromoMsg.redeemed(data.points));
  });
}
