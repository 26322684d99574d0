/**
 * Applying what a provider says about a trade to our order, exactly once (docs/decisions/018-billing.md). Every path
 * that learns a payment — the Alipay and WeChat notifications, the return page's confirmation, the WeChat page's
 * poll, the reconciliation job, an operator's reconcile — ends here. In one `withUserTransaction` of the order's
 * owner: the trade is checked against the order (pay type, app id, merchant, currency, amount), a pending order moves
 * to paid with a conditional update and one journal credit, and the notification (when there is one) is stored with
 * its verdict. So replays, concurrent duplicates, a notification after the return page already confirmed, and a
 * payment reported after a close end in one credit or a flagged order, never two credits and never a lost payment.
 */
import type { Kysely } from 'kysely';
import { BillingMsg, PayStatus, type NotifyVerdict } from '../../contract/billing.ts';
import { nowSeconds } from '../core/time.ts';
import { withUserTransaction } from '../core/transactions.ts';
import type { PlatformDb } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { notify } from '../notification/notifications.ts';
import { creditRecharge } from './journal.ts';
import type { PaymentProvider, ProviderName, ProviderTrade } from './providers.ts';
import type { BillingOrderRow } from './schema.ts';

/** What a recharge bought for a purpose (`billing_orders.purpose`, migration 0015; the notarisation area's) does. */
export interface RechargePurpose {
  /**
   * Runs inside the owner's transaction right after the credit (the notarisation area spends the points on its
   * order). It must not throw for a thing that can no longer take the points (they then stay on the balance).
   */
  credited(trx: Kysely<Database>, order: BillingOrderRow, now: number): Promise<void>;
  /** Where the provider sends the browser back after paying (a path with query; default the result page). */
  returnPath(order: BillingOrderRow): string;
}

/** The purposes by name; an area registers its own (idempotent: the same handler for the same name). */
const purposes = new Map<string, RechargePurpose>();

/** Registers what a recharge of purpose `name` does. */
export function registerRechargePurpose(name: string, handler: RechargePurpose): void {
  purposes.set(name, handler);
}

/** The handler of purpose `name`, if registered. */
export function rechargePurpose(name: string): RechargePurpose | undefined {
  return purposes.get(name);
}

/** A notification as received, stored with the verdict of applying it. */
export interface ReceivedNotification {
  provider: ProviderName;
  /** The order number it names ('' when unreadable). */
  orderNo: string;
  notifyId: string;
  rawBody: string;
  /** JSON of the signature headers. */
  headers: string;
}

/** Stores a notification with its verdict (inside the caller's transaction when there is one). */
export async function recordNotification(
  db: Kysely<Database>,
  n: ReceivedNotification,
  verdict: NotifyVerdict,
  detail: string,
  now = nowSeconds(),
): Promise<void> {
  await db
    .insertInto('billing_notifications')
    .values({
      provider: n.provider,
      order_no: n.orderNo.slice(0, 64),
      verdict,
      detail: detail.slice(0, 255),
      notify_id: n.notifyId.slice(0, 64),
      raw_body: n.rawBody,
      headers: n.headers,
      received_at: now,
    })
    .execute();
}

/** Why a reported trade cannot be our order's payment, or null when it matches. */
export function mismatchOf(
  order: BillingOrderRow,
  provider: PaymentProvider,
  trade: ProviderTrade,
): string | null {
  if (order.kind !== 'recharge' || order.pay_type !== provider.payType) return 'pay type';
  if (trade.appId && trade.appId !== provider.appId) return `app id ${trade.appId}`;
  if (trade.merchant && provider.merchant && trade.merchant !== provider.merchant)
    return `merchant ${trade.merchant}`;
  if (trade.currency !== 'CNY') return `currency ${trade.currency}`;
  if (trade.state === 'paid' && trade.amountFen !== Number(order.amount_fen))
    return `amount ${String(trade.amountFen)} fen, order ${order.amount_fen} fen`;
  return null;
}

/** The outcome of {@link applyTrade}: the verdict, and the order as it is afterwards (null when unknown). */
export interface ApplyOutcome {
  verdict: NotifyVerdict;
  detail: string;
  order: BillingOrderRow | null;
}

async function flag(
  trx: Kysely<Database>,
  order: BillingOrderRow,
  flagName: string,
  reason: string,
  now: number,
) {
  await trx
    .updateTable('billing_orders')
    .set({ flag: flagName, flag_reason: reason.slice(0, 255), updated_at: now })
    .where('id', '=', order.id)
    .execute();
}

const current = (trx: Kysely<Database>, id: number) =>
  trx.selectFrom('billing_orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/**
 * What `trade` means for an order that was not pending (or did not match), under the owner's lock: duplicate,
 * flagged (mismatch, after-close, closed-after-paid) or a pending order closed or failed.
 * @returns the verdict and whether the order row changed
 */
async function settleOther(
  trx: Kysely<Database>,
  order: BillingOrderRow,
  provider: PaymentProvider,
  trade: ProviderTrade,
  mismatch: string | null,
  now: number,
): Promise<{ verdict: NotifyVerdict; detail: string; changed: boolean }> {
  if (mismatch) {
    await flag(trx, order, 'mismatch', `${provider.name}: ${mismatch}`, now);
    return { verdict: 'mismatch', detail: mismatch, changed: true };
  }
  const status = Number(order.status);
  if (trade.state === 'paid' && status === PayStatus.paid) {
    if (!order.trade_no || !trade.tradeNo || order.trade_no === trade.tradeNo)
      return { verdict: 'duplicate', detail: 'already paid', changed: false };
    await flag(trx, order, 'mismatch', `second trade ${trade.tradeNo} for a paid order`, now);
    return { verdict: 'mismatch', detail: 'another trade number', changed: true };
  }
  if (trade.state === 'paid') {
    const reason = `${provider.name} trade ${trade.tradeNo} paid after the close`;
    await flag(trx, order, 'after-close', reason, now);
    return {
      verdict: 'after-close',
      detail: 'paid after the order was closed: flagged, not credited',
      changed: true,
    };
  }
  if (trade.state === 'closed' && status === PayStatus.paid) {
    await flag(trx, order, 'closed-after-paid', `${provider.name} reports the paid trade closed`, now);
    return { verdict: 'not-paid', detail: 'trade closed after the payment: flagged', changed: true };
  }
  if ((trade.state === 'closed' || trade.state === 'failed') && status === PayStatus.pending) {
    const to = trade.state === 'closed' ? PayStatus.cancelled : PayStatus.failed;
    await trx
      .updateTable('billing_orders')
      .set({ status: to, closed_at: to === PayStatus.cancelled ? now : null, updated_at: now })
      .where('id', '=', order.id)
      .execute();
    return { verdict: 'not-paid', detail: `trade ${trade.state}`, changed: true };
  }
  return { verdict: 'not-paid', detail: `trade ${trade.state}`, changed: false };
}

/**
 * Decides and writes, inside the owner's transaction, what `trade` means for the order read before the lock as
 * `seen` (its kind, pay type, amount and owner never change; its status is re-read or changed conditionally). The
 * common case, a pending order paid, is one conditional UPDATE, the journal credit and the user's notification.
 */
async function applyLocked(
  trx: Kysely<Database>,
  seen: BillingOrderRow,
  provider: PaymentProvider,
  trade: ProviderTrade,
  now: number,
): Promise<{ verdict: NotifyVerdict; detail: string; order: BillingOrderRow }> {
  const mismatch = mismatchOf(seen, provider, trade);
  if (trade.state === 'paid' && !mismatch) {
    const moved = await trx
      .updateTable('billing_orders')
      .set({ status: PayStatus.paid, paid_at: now, trade_no: trade.tradeNo, updated_at: now })
      .where('id', '=', seen.id)
      .where('status', 'in', [PayStatus.pending, PayStatus.failed])
      .returningAll()
      .executeTakeFirst();
    if (moved) {
      const userId = Number(moved.user_id);
      const points = Number(moved.points);
      await creditRecharge(trx, moved, now);
      await notify(trx, userId, BillingMsg.rechargedNews(points), now);
      if (moved.purpose) await purposes.get(moved.purpose)?.credited(trx, moved, now);
      return { verdict: 'applied', detail: `credited ${points} points`, order: moved };
    }
  }
  const order = await current(trx, seen.id);
  const { verdict, detail, changed } = await settleOther(trx, order, provider, trade, mismatch, now);
  return { verdict, detail, order: changed ? await current(trx, seen.id) : order };
}

/**
 * Applies `trade` (from a verified notification or answer of `provider`) to the order `orderNo`, and stores
 * `notification` with the verdict in the same transaction.
 * @returns the verdict: applied (credited now), duplicate (credited before), mismatch / after-close (flagged for
 *   finance, nothing credited), not-paid (nothing to credit; a closed or failed trade closes a pending order),
 *   unknown-order
 */
export async function applyTrade(
  pdb: PlatformDb,
  orderNo: string,
  provider: PaymentProvider,
  trade: ProviderTrade,
  notification?: ReceivedNotification,
): Promise<ApplyOutcome> {
  const now = nowSeconds();
  const seen = await pdb.db
    .selectFrom('billing_orders')
    .selectAll()
    .where('order_no', '=', orderNo)
    .executeTakeFirst();
  if (!seen) {
    if (notification) await recordNotification(pdb.db, notification, 'unknown-order', orderNo, now);
    return { verdict: 'unknown-order', detail: orderNo, order: null };
  }
  return withUserTransaction(pdb, Number(seen.user_id), async (trx) => {
    const outcome = await applyLocked(trx, seen, provider, trade, now);
    if (notification) await recordNotification(trx, notification, outcome.verdict, outcome.detail, now);
    return outcome;
  });
}
