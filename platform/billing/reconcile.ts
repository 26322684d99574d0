/**
 * Reconciliation (docs/decisions/018-billing.md): asking the provider about our pending orders, so a lost
 * notification still credits and an expired order is closed at the provider too. {@link reconcileOrder} handles one
 * order (the return page, the WeChat page's poll, an operator, the job); {@link reconcilePending} is one pass of the
 * `billing.reconcile` job (platform/jobs/plugin.ts) over pending orders older than a minute, each claimed with a
 * conditional update (so two platforms do not ask twice at once) and asked again on a backoff (1, 2, 4 … 64 minutes, never later than the expiry).
 */
import { PayStatus, type ReconcileData } from '../../contract/billing.ts';
import { nowSeconds } from '../core/time.ts';
import type { FastifyInstance } from 'fastify';
import { applyTrade, type ApplyOutcome } from './apply.ts';
import { CLOSED_TRADE, ProviderUnavailable } from './providers.ts';
import type { BillingOrderRow } from './schema.ts';

/** Pending orders younger than this are left to their notification, seconds. */
export const RECONCILE_MIN_AGE_SECONDS = 60;
/** The longest wait between two looks at one pending order, seconds. */
const MAX_BACKOFF_SECONDS = 64 * 60;

/** When to look at an order again after `attempts` looks: doubling from a minute, never past its expiry. */
export function nextCheck(order: BillingOrderRow, attempts: number, now: number): number {
  const backoff = Math.min(RECONCILE_MIN_AGE_SECONDS * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF_SECONDS);
  const expiry = Number(order.expires_at) + 1;
  return now < expiry ? Math.min(now + backoff, expiry) : now + backoff;
}

/**
 * Brings one pending recharge up to date with its provider: before expiry, queries and applies the answer; after
 * it, closes the trade at the provider (a provider that says "paid" is queried and credited instead) and then the
 * order. With `any` (an operator's reconcile), a paid or cancelled recharge is queried too, so a payment after a
 * close is found and flagged. Consumption orders are returned untouched.
 * @throws ProviderUnavailable when the provider cannot be asked (nothing changed)
 */
export async function reconcileOrder(
  app: FastifyInstance,
  order: BillingOrderRow,
  opts: { any?: boolean } = {},
): Promise<ApplyOutcome> {
  const pending = Number(order.status) === PayStatus.pending;
  if (order.kind !== 'recharge' || (!pending && !opts.any))
    return { verdict: 'not-paid', detail: 'not pending', order };
  const provider = app.billing.provider(Number(order.pay_type));
  if (pending && nowSeconds() > Number(order.expires_at)) {
    const closed = await provider.close(order.order_no);
    if (closed !== 'refused') return applyTrade(app.pdb, order.order_no, provider, CLOSED_TRADE);
  }
  const trade = await provider.query(order.order_no);
  return applyTrade(app.pdb, order.order_no, provider, trade);
}

/**
 * One pass over pending recharges older than {@link RECONCILE_MIN_AGE_SECONDS} whose next look is due, at most
 * `limit` of them. @returns how many were queried, credited, closed, and could not be asked
 */
export async function reconcilePending(app: FastifyInstance, limit = 100): Promise<ReconcileData> {
  const { db } = app.pdb;
  const now = nowSeconds();
  const due = await db
    .selectFrom('billing_orders')
    .selectAll()
    .where('status', '=', PayStatus.pending)
    .where('kind', '=', 'recharge')
    .where('check_after', '<=', now)
    .where('created_at', '<=', now - RECONCILE_MIN_AGE_SECONDS)
    .orderBy('check_after')
    .limit(limit)
    .execute();
  const result: ReconcileData = { queried: 0, credited: 0, closed: 0, failed: 0 };
  for (const order of due) {
    const attempts = Number(order.check_attempts) + 1;
    const claimed = await db
      .updateTable('billing_orders')
      .set({ check_after: nextCheck(order, attempts, now), check_attempts: attempts })
      .where('id', '=', order.id)
      .where('check_after', '=', order.check_after)
      .where('status', '=', PayStatus.pending)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) continue;
    result.queried++;
    try {
      const outcome = await reconcileOrder(app, order);
      if (outcome.verdict === 'applied') result.credited++;
      else if (Number(outcome.order?.status) === PayStatus.cancelled) result.closed++;
    } catch (err) {
      if (!(err instanceof ProviderUnavailable)) throw err;
      result.failed++;
      app.log.warn({ err, orderNo: order.order_no }, 'provider unreachable; the order is retried later');
    }
  }
  return result;
}
