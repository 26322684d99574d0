/**
 * Payment notifications against the platform, on SQLite and PostgreSQL (decision 018): 20 concurrent deliveries
 * of one valid notification credit once; a bad signature, a wrong amount, app or merchant, an unknown order, a stale
 * timestamp or a tampered GCM tag credit nothing, are answered as failures and stored with their verdicts; a
 * payment after a cancel (or after a "closed" notification) is flagged, not credited; and the operators' orders
 * view shows it all, audited.
 */
import { beforeAll, expect, it } from 'vitest';
import { BillingPaths, PayStatus } from '../../contract/billing.ts';
import { BillingOpsPaths, type OpsOrderDetail, type OpsOrderListData } from '../../contract/billing-ops.ts';
import { OpsPaths, type AuditListData, type OpsHomeData, type OpsLoginData } from '../../contract/ops.ts';
import {
  balances,
  demoToken,
  injectAlipay,
  injectWechat,
  openAlipay,
  startPay,
  userIdOf,
  verdictsOf,
} from '../../tests/support/billing.ts';
import { forEachDialect, get, post } from '../../tests/support/platform.ts';
import { runOpsCommand } from '../ops/cli-commands.ts';
import { newOrderNo } from './money.ts';

forEachDialect('payment notifications', (h) => {
  let token = '';
  let demoId = 0;
  beforeAll(async () => {
    token = await demoToken(h.app);
    demoId = await userIdOf(h.app, '13800138000');
  });
  const wechat = () => h.app.billing.sandboxes.wechat!;
  const alipay = () => h.app.billing.sandboxes.alipay!;
  const orderRow = (no: string) =>
    h.app.pdb.db
      .selectFrom('billing_orders')
      .selectAll()
      .where('order_no', '=', no)
      .executeTakeFirstOrThrow();

  it('20 concurrent deliveries of one valid WeChat notification credit once', async () => {
    const before = await balances(h.app, demoId);
    const paid = await startPay(h.app, token, 50, 3);
    const n = wechat().buildNotification(paid.order_no);
    const statuses = await Promise.all(Array.from({ length: 20 }, () => injectWechat(h.app, n)));
    expect(statuses.every((s) => s === 204)).toBe(true);
    const after = await balances(h.app, demoId);
    expect(after.points).toBe(before.points + 50);
    expect(after.journal).toBe(after.points);
    const verdicts = await verdictsOf(h.app, paid.order_no);
    expect(verdicts.filter((v) => v === 'applied')).toHaveLength(1);
    expect(verdicts.filter((v) => v === 'duplicate')).toHaveLength(19);
    const stored = await h.app.pdb.db
      .selectFrom('billing_notifications')
      .select(['raw_body', 'headers', 'notify_id'])
      .where('order_no', '=', paid.order_no)
      .executeTakeFirstOrThrow();
    expect(stored.raw_body).toBe(n.body);
    expect(stored.notify_id).toBe(n.id);
    expect(JSON.parse(stored.headers)['wechatpay-signature']).toBe(
      n.headers['Wechatpay-Signature'] ?? n.headers['wechatpay-signature'],
    );
  });

  it('20 concurrent deliveries of one valid Alipay notification credit once', async () => {
    const before = await balances(h.app, demoId);
    const paid = await startPay(h.app, token, 40, 2);
    await openAlipay(paid.url);
    const fields = alipay().buildNotification(paid.order_no, {
      overrides: { trade_status: 'TRADE_SUCCESS' },
    });
    const answers = await Promise.all(Array.from({ length: 20 }, () => injectAlipay(h.app, fields)));
    expect(answers.every((a) => a === 'success')).toBe(true);
    expect((await balances(h.app, demoId)).points).toBe(before.points + 40);
    const verdicts = await verdictsOf(h.app, paid.order_no);
    expect(verdicts.filter((v) => v === 'applied')).toHaveLength(1);
    expect(verdicts).toHaveLength(20);
  });

  it('refuses bad WeChat notifications, credits nothing and stores each verdict', async () => {
    const before = await balances(h.app, demoId);
    const paid = await startPay(h.app, token, 11, 3);
    const cases = [
      [{ tamper: 'signature' as const }, 401, 'bad-signature'],
      [{ tamper: 'serial' as const }, 401, 'bad-signature'],
      [{ tamper: 'stale' as const }, 401, 'stale-timestamp'],
      [{ tamper: 'tag' as const }, 400, 'bad-ciphertext'],
      [{ amountFen: 1 }, 400, 'mismatch'],
    ] as const;
    for (const [options, status, verdict] of cases) {
      const n = wechat().buildNotification(paid.order_no, options);
      expect(await injectWechat(h.app, n), verdict).toBe(status);
      const last = await h.app.pdb.db
        .selectFrom('billing_notifications')
        .select(['verdict', 'raw_body'])
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(last).toEqual({ verdict, raw_body: n.body });
    }
    expect((await orderRow(paid.order_no)).flag).toBe('mismatch');
    expect(Number((await orderRow(paid.order_no)).status)).toBe(PayStatus.pending);
    // An order we never created.
    const stranger = newOrderNo('R', Math.floor(Date.now() / 1000));
    await h.app.billing.wechat.start({
      orderNo: stranger,
      amountFen: 100,
      description: 'x',
      expiresAt: Math.floor(Date.now() / 1000) + 600,
      returnUrl: '',
    });
    expect(await injectWechat(h.app, wechat().buildNotification(stranger))).toBe(400);
    expect(await verdictsOf(h.app, stranger)).toEqual(['unknown-order']);
    expect(await balances(h.app, demoId)).toEqual(before);
  });

  it('refuses bad Alipay notifications with `fail`, credits nothing and stores each verdict', async () => {
    const before = await balances(h.app, demoId);
    const paid = await startPay(h.app, token, 12, 2);
    await openAlipay(paid.url);
    const success = { trade_status: 'TRADE_SUCCESS' };
    const cases = [
      [{ tamper: 'signature' as const, overrides: success }, 'bad-signature'],
      [{ overrides: { ...success, total_amount: '0.12' } }, 'mismatch'],
      [{ overrides: { ...success, app_id: '2021000000000000' } }, 'mismatch'],
      [{ overrides: { ...success, seller_id: '2088000000000000' } }, 'mismatch'],
      [{ overrides: { ...success, out_trade_no: newOrderNo('R', 1_700_000_000) } }, 'unknown-order'],
    ] as const;
    for (const [options, verdict] of cases) {
      const fields = alipay().buildNotification(paid.order_no, options);
      expect(await injectAlipay(h.app, fields), verdict).toBe('fail');
      const last = await h.app.pdb.db
        .selectFrom('billing_notifications')
        .select('verdict')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(last.verdict).toBe(verdict);
    }
    expect(await injectAlipay(h.app, { out_trade_no: paid.order_no })).toBe('fail');
    expect(await balances(h.app, demoId)).toEqual(before);
  });

  it('a paid notification after a cancel is flagged, not credited', async () => {
    const before = await balances(h.app, demoId);
    const w = await startPay(h.app, token, 13, 3);
    const a = await startPay(h.app, token, 14, 2);
    await openAlipay(a.url);
    for (const no of [w.order_no, a.order_no])
      expect((await post(h.app, BillingPaths.cancelPay, { order_no: no }, token)).code).toBe(200);
    expect(alipay().store.get(a.order_no)?.status).toBe('TRADE_CLOSED');
    expect(await injectWechat(h.app, wechat().buildNotification(w.order_no, { tradeState: 'SUCCESS' }))).toBe(
      204,
    );
    const late = alipay().buildNotification(a.order_no, { overrides: { trade_status: 'TRADE_SUCCESS' } });
    expect(await injectAlipay(h.app, late)).toBe('success');
    for (const no of [w.order_no, a.order_no]) {
      const o = await orderRow(no);
      expect({ status: Number(o.status), flag: o.flag }).toEqual({
        status: PayStatus.cancelled,
        flag: 'after-close',
      });
      expect(await verdictsOf(h.app, no)).toEqual(['after-close']);
    }
    expect(await balances(h.app, demoId)).toEqual(before);
  });

  it('out of order: "closed" then "paid" ends closed and flagged; "paid" then "closed" keeps the credit, flagged', async () => {
    const before = await balances(h.app, demoId);
    const first = await startPay(h.app, token, 15, 2);
    await openAlipay(first.url);
    const closed = alipay().buildNotification(first.order_no, {
      overrides: { trade_status: 'TRADE_CLOSED' },
    });
    const paid = alipay().buildNotification(first.order_no, { overrides: { trade_status: 'TRADE_SUCCESS' } });
    expect(await injectAlipay(h.app, closed)).toBe('success');
    expect(await injectAlipay(h.app, paid)).toBe('success');
    expect(await verdictsOf(h.app, first.order_no)).toEqual(['not-paid', 'after-close']);
    expect((await orderRow(first.order_no)).flag).toBe('after-close');
    const second = await startPay(h.app, token, 16, 2);
    await openAlipay(second.url);
    const ok = alipay().buildNotification(second.order_no, { overrides: { trade_status: 'TRADE_SUCCESS' } });
    const late = alipay().buildNotification(second.order_no, { overrides: { trade_status: 'TRADE_CLOSED' } });
    expect(await injectAlipay(h.app, ok)).toBe('success');
    expect(await injectAlipay(h.app, late)).toBe('success');
    const o = await orderRow(second.order_no);
    expect({ status: Number(o.status), flag: o.flag }).toEqual({
      status: PayStatus.paid,
      flag: 'closed-after-paid',
    });
    expect((await balances(h.app, demoId)).points).toBe(before.points + 16);
  });

  it('the finance console searches orders, shows notifications and journal, reconciles; all audited', async () => {
    const cli = (...argv: string[]) => runOpsCommand(h.app.pdb.db, h.config.scryptCost, argv);
    await cli('create', 'fin', 'fin-password', '--roles', 'finance');
    await cli('create', 'rev', 'rev-password', '--roles', 'reviewer');
    const fin = (
      await post<OpsLoginData>(h.app, OpsPaths.login, { username: 'fin', password: 'fin-password' })
    ).data.token;
    const rev = (
      await post<OpsLoginData>(h.app, OpsPaths.login, { username: 'rev', password: 'rev-password' })
    ).data.token;
    expect((await get(h.app, BillingOpsPaths.orders, {}, rev)).status).toBe(403);
    const byMobile = await get<OpsOrderListData>(h.app, BillingOpsPaths.orders, { q: '13800138000' }, fin);
    expect(byMobile.data.count).toBeGreaterThan(5);
    const flagged = byMobile.data.list.find((r) => r.flagged)!;
    expect(flagged.flagReason).not.toBe('');
    const byNo = await get<OpsOrderListData>(h.app, BillingOpsPaths.orders, { q: flagged.order_no }, fin);
    expect(byNo.data.list.map((r) => r.order_no)).toEqual([flagged.order_no]);
    const credited = byMobile.data.list.find((r) => r.pay_status === '已支付' && r.integral === 50)!;
    const detail = await get<OpsOrderDetail>(
      h.app,
      BillingOpsPaths.order,
      { order_no: credited.order_no },
      fin,
    );
    expect(detail.data.journal).toEqual([expect.objectContaining({ kind: 'recharge', points: 50 })]);
    expect(detail.data.notifications.length).toBeGreaterThan(0);
    expect(detail.data.notifications.some((n) => n.verdict === 'applied' && n.raw.length > 0)).toBe(true);
    const rec = await post<OpsOrderDetail>(
      h.app,
      BillingOpsPaths.reconcile,
      { order_no: credited.order_no },
      fin,
    );
    expect(rec.code).toBe(200);
    expect(rec.data.journal).toHaveLength(1);
    const home = await get<OpsHomeData>(h.app, OpsPaths.home, {}, fin);
    const queue = home.data.queues.find((q) => q.area === 'billing');
    expect(queue?.count).toBeGreaterThan(0);
    // a waiting item links to its order's detail page by order number (the console's /ops/billing/<order_no>)
    expect(queue?.items.map((i) => i.ref)).toContain(flagged.order_no);
    const audit = await get<AuditListData>(h.app, OpsPaths.audit, {}, fin);
    expect(audit.data.list.filter((e) => e.area === 'billing').map((e) => e.action)).toEqual(
      expect.arrayContaining(['search', 'view', 'reconcile']),
    );
  });
});
