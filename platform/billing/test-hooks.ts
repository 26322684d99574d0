/**
 * The billing area's test hook, registered only with TEST_HOOKS=1 (never in production; platform/config.ts refuses):
 * `POST /api/__test/billing/spend {mobile, points}` → `{orderNo, balance}` spends the user's points as a
 * consumption order, standing in for notarisation until that area exists (spec 02 §1: notarisation orders consume
 * points). 400 积分不足 when the balance is smaller.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { BillingMsg, decimalCount } from '../../contract/billing.ts';
import { ApiCode, ok } from '../../contract/envelope.ts';
import { ApiError, parseInput } from '../core/errors.ts';
import { nowSeconds } from '../core/time.ts';
import { spendPoints } from './journal.ts';

/** Path of the spend hook. */
export const BILLING_SPEND_HOOK = '/api/__test/billing/spend';

const SpendBody = z.object({
  mobile: z.string().min(1),
  // Decimal digits only, as every points field (decision 057).
  points: decimalCount(1, 1_000_000, {
    required: BillingMsg.pointsInvalid,
    digits: BillingMsg.pointsInvalid,
    range: BillingMsg.pointsInvalid,
  }),
});

/** Registers the hook. */
export async function billingTestHooks(app: FastifyInstance): Promise<void> {
  app.post(BILLING_SPEND_HOOK, async (request) => {
    const { mobile, points } = parseInput(SpendBody, request.body);
    const user = await app.pdb.db
      .selectFrom('users')
      .select('id')
      .where('mobile', '=', mobile)
      .executeTakeFirst();
    if (!user) throw new ApiError(ApiCode.NOT_FOUND, 'user not found');
    return ok(
      await spendPoints(app.pdb, Number(user.id), points, BillingMsg.spendDesc(points), nowSeconds()),
    );
  });
}
