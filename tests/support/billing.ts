/**
 * Test support for the billing suites (platform/billing/*.test.ts, bench/billing.ts): a free loopback port for a
 * platform whose PUBLIC_URL must be known before it starts (the providers' notify URLs), paying at the sandbox
 * cashiers the way a browser without JavaScript does (plain GETs and form POSTs, following redirects by hand),
 * delivering built notifications through `inject`, a pending recharge of a provider registered at run time, and
 * reading balances and journals.
 */
import type { FastifyInstance } from 'fastify';
import { BillingNotifyPaths, type PayData } from '../../contract/billing.ts';
import { randomBytes } from 'node:crypto';
import { creditRecharge, journalSum } from '../../platform/billing/journal.ts';
import { newOrderNo } from '../../platform/billing/money.ts';
import { withUserTransaction } from '../../platform/core/transactions.ts';
import { login, post } from './platform.ts';

export { freePort } from './ports.ts';

/** The demo account's token (seeded verified, password from the suite's config). */
export function demoToken(app: FastifyInstance): Promise<string> {
  return login(app, '13800138000', app.config.demoPassword);
}

/** A user's id by mobile. */
export async function userIdOf(app: FastifyInstance, mobile: string): Promise<number> {
  const u = await app.pdb.db
    .selectFrom('users')
    .select('id')
    .where('mobile', '=', mobile)
    .executeTakeFirstOrThrow();
  return Number(u.id);
}

/**
 * Credits `points` to the user `mobile` as a paid recharge would (a paid 'R' order and its journal credit, in the
 * user's transaction), for suites that need a balance without going through a provider.
 */
export async function creditPoints(app: FastifyInstance, mobile: string, points: number): Promise<void> {
  const userId = await userIdOf(app, mobile);
  await withUserTransaction(app.pdb, userId, async (trx) => {
    const orderNo = `RT${randomBytes(8).toString('hex')}`;
    const { id } = await trx
      .insertInto('billing_orders')
      .values({
        order_no: orderNo,
        user_id: userId,
        kind: 'recharge',
        points,
        amount_fen: points * 10,
        pay_type: 2,
        status: 2,
        description: 'test',
        expires_at: 0,
        paid_at: 1,
        created_at: 1,
        updated_at: 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await creditRecharge(trx, { id: Number(id), user_id: userId, order_no: orderNo, points }, 1);
  });
}

/** `users.points` and the journal's sum of a user (they must always agree). */
export async function balances(
  app: FastifyInstance,
  userId: number,
): Promise<{ points: number; journal: number }> {
  const u = await app.pdb.db
    .selectFrom('users')
    .select('points')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return { points: Number(u.points), journal: await journalSum(app.pdb.db, userId) };
}

/** Starts a recharge through the payment call. @throws when it is refused */
export async function startPay(
  app: FastifyInstance,
  token: string,
  integral: number,
  type: 2 | 3,
): Promise<PayData> {
  const r = await post<PayData>(app, '/api/alipay/pay', { integral, type }, token);
  if (r.code !== 200) throw new Error(`pay refused: ${r.code} ${r.msg}`);
  return r.data;
}

/** GET without following redirects; the Location resolved against the URL. */
async function step(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; location: string; body: string }> {
  const res = await fetch(url, { ...init, redirect: 'manual' });
  const location = res.headers.get('location');
  return {
    status: res.status,
    location: location ? new URL(location, url).toString() : '',
    body: await res.text(),
  };
}

/**
 * Pays (or fails) at the Alipay sandbox cashier as a browser without JavaScript: opens the page-pay URL (303 to
 * the cashier), posts the decision, follows the 303 back to the page. @returns the last page's HTML
 */
export async function payAtAlipay(payUrl: string, decision: 'success' | 'fail' = 'success'): Promise<string> {
  const open = await step(payUrl);
  if (open.status !== 303) throw new Error(`page pay answered ${open.status}: ${open.body.slice(0, 200)}`);
  return submitCashier(open.location, decision);
}

/** Opens the Alipay page-pay URL only (the trade then exists at the sandbox). @returns the cashier URL */
export async function openAlipay(payUrl: string): Promise<string> {
  const open = await step(payUrl);
  if (open.status !== 303) throw new Error(`page pay answered ${open.status}: ${open.body.slice(0, 200)}`);
  return open.location;
}

/** Posts a cashier page's decision (Alipay `/cashier/<id>` or WeChat `/pay/<id>`) and follows the 303. */
export async function submitCashier(pageUrl: string, decision: 'success' | 'fail'): Promise<string> {
  const posted = await step(pageUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `decision=${decision}`,
  });
  if (posted.status !== 303) return posted.body;
  return (await step(posted.location)).body;
}

/**
 * Inserts a pending recharge of `points` for `userId` with `payType` (a provider registered at run time, whose
 * `pay` cannot start it), as `pay` would have: R number, amount `amountFen`, expiring in 30 minutes.
 * @returns the order's number
 */
export async function insertPendingRecharge(
  app: FastifyInstance,
  userId: number,
  points: number,
  amountFen: number,
  payType: number,
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const orderNo = newOrderNo('R', now);
  await app.pdb.db
    .insertInto('billing_orders')
    .values({
      order_no: orderNo,
      user_id: userId,
      kind: 'recharge',
      points,
      amount_fen: amountFen,
      pay_type: payType,
      status: 1,
      description: `充值${points}积分`,
      expires_at: now + 1800,
      check_after: now + 60,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return orderNo;
}

/** Delivers a built WeChat notification through inject. @returns the HTTP status */
export async function injectWechat(
  app: FastifyInstance,
  n: { headers: Record<string, string>; body: string },
): Promise<number> {
  const res = await app.inject({
    method: 'POST',
    url: BillingNotifyPaths.wechat,
    headers: { ...n.headers, 'content-type': 'application/json' },
    payload: n.body,
  });
  return res.statusCode;
}

/** Delivers built Alipay notification fields through inject. @returns the body (`success` / `fail`) */
export async function injectAlipay(app: FastifyInstance, fields: Record<string, string>): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: BillingNotifyPaths.alipay,
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
    payload: new URLSearchParams(fields).toString(),
  });
  return res.body;
}

/** The stored notifications of an order, oldest first: their verdicts. */
export async function verdictsOf(app: FastifyInstance, orderNo: string): Promise<string[]> {
  const rows = await app.pdb.db
    .selectFrom('billing_notifications')
    .select('verdict')
    .where('order_no', '=', orderNo)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.verdict);
}

export { post };
