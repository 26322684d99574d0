/**
 * Test support for the promotion-code suites (platform/promo/promo.test.ts, tests/e2e/promo.spec.ts;
 * docs/decisions/062-promotion-codes.md): a mint body with a default expiry a month ahead, minting through the
 * console's call with a finance operator's token, and the expiry day `days` from now in Beijing time. Imports no
 * platform or test-runner module, so Playwright specs use it too.
 */
import type { FastifyInstance } from 'fastify';
import { formatBeijing } from '../../contract/time.ts';
import type { ApiEnvelope } from '../../contract/envelope.ts';
import { type PromoBatchDetail, PromoOpsPaths } from '../../contract/promo-codes.ts';

/** The Beijing day `days` days from now, `YYYY-MM-DD`. */
export function dayFromNow(days: number): string {
  return formatBeijing(Math.floor(Date.now() / 1000) + days * 86400).slice(0, 10);
}

/** A mint body: 10 points, 2 single-use codes, expiring in 30 days, with `over` replacing any field. */
export function mintBody(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: '测试批次',
    remark: '',
    points: '10',
    count: '2',
    uses: '1',
    expiresOn: dayFromNow(30),
    ...over,
  };
}

/** Mints a batch through the console's call. @throws when it is refused */
export async function mintThroughApi(
  app: FastifyInstance,
  financeToken: string,
  over: Record<string, unknown> = {},
): Promise<PromoBatchDetail> {
  const res = await app.inject({
    method: 'POST',
    url: PromoOpsPaths.mint,
    payload: mintBody(over),
    headers: { authorization: `Bearer ${financeToken}` },
  });
  const r = res.json() as ApiEnvelope<PromoBatchDetail>;
  if (r.code !== 200) throw new Error(`mint refused: ${r.msg}`);
  return r.data;
}
