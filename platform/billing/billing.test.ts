/**
 * The billing area through `fastify.inject` and the loopback sandboxes, on SQLite and PostgreSQL: buying points with
 * Alipay page pay and WeChat Pay Native (the cashiers paid as a browser without JavaScript would), the orders list
 * with its tabs and filters, cancel and expiry (closed at the provider too), the return page's confirmation, a
 * consumption debit, and the points journal always equal to the balance.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  BillingInternalPaths,
  BillingMsg,
  BillingPaths,
  PayStatus,
  type OrderListData,
  type OrderStatusData,
  type PayData,
  type PayPageData,
  type PointsOrderRow,
  type RechargeOptions,
  type ReconcileData,
} from '../../contract/billing.ts';
import {
  balances,
  demoToken,
  freePort,
  payAtAlipay,
  startPay,
  submitCashier,
  userIdOf,
  verdictsOf,
} from '../../tests/support/billing.ts';
import { forEachDialect, get, post, registerUser, login } from '../../tests/support/platform.ts';
import { BILLING_SPEND_HOOK } from './test-hooks.ts';

const port = await freePort();

forEachDialect(
  'billing',
  (h) => {
    let token = '';
    let demoId = 0;
    beforeAll(async () => {
      await h.app.listen({ host: '127.0.0.1', port });
      token = await demoToken(h.app);
      demoId = await userIdOf(h.app, '13800138000');
    });
    afterAll(async () => {
      await h.app.billing.sandboxes.alipay?.deliveriesIdle();
      await h.app.billing.sandboxes.wechat?.deliveriesIdle();
    });

    const list = (query: Record<string, unknown>, t = token) =>
      get<OrderListData<PointsOrderRow>>(h.app, BillingPaths.getOrderList, query, t);

    it('offers the packages, the bounds and the price', async () => {
      const r = await get<RechargeOptions>(h.app, BillingPaths.options);
      expect(r.data).toMatchObject({
        pointPriceFen: 100,
        min: 1,
        max: 50000,
        payTypes: [2, 3],
        timeoutMinutes: 30,
      });
      expect(r.data.packages).toContain(50);
    });

    it('validates the payment call', async () => {
      expect((await post(h.app, BillingPaths.pay, { type: 2 }, token)).msg).toBe(BillingMsg.integralRequired);
      expect((await post(h.app, BillingPaths.pay, { integral: 0, type: 2 }, token)).msg).toBe(
        BillingMsg.integralRange,
      );
      expect((await post(h.app, BillingPaths.pay, { integral: 1.5, type: 3 }, token)).msg).toBe(
        BillingMsg.integralRange,
      );
      expect((await post(h.app, BillingPaths.pay, { integral: 10, type: 1 }, token)).msg).toBe(
        BillingMsg.payTypeRequired,
      );
      expect((await post(h.app, BillingPaths.pay, { integral: 10, type: 2 })).code).toBe(408);
    });

    it('takes points only as decimal digits, as JSON and as a form (decision 057)', async () => {
      const orders = () =>
        h.app.pdb.db
          .selectFrom('billing_orders')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', demoId)
          .executeTakeFirstOrThrow()
          .then((r) => Number(r.n));
      const before = await orders();
      for (const integral of ['1e3', '0x10', '+5', '5.0', '0b11', '1_000', 'Infinity', '１０', '10 0']) {
        for (const form of [false, true]) {
          const r = await post(h.app, BillingPaths.pay, { integral, type: '2' }, token, form);
          expect({ integral, form, code: r.code, msg: r.msg }).toEqual({
            integral,
            form,
            code: 400,
            msg: BillingMsg.integralDigits,
          });
        }
      }
      const spend = await post(
        h.app,
        BILLING_SPEND_HOOK,
        { mobile: '13800138000', points: '1e3' },
        undefined,
        true,
      );
      expect(spend.code).toBe(400);
      expect(await orders()).toBe(before);
      // digits (with blanks around them, as a form may send) are a number
      const ok = await post<PayData>(h.app, BillingPaths.pay, { integral: ' 0016 ', type: '3' }, token, true);
      expect(ok.code).toBe(200);
      expect(ok.data.integral).toBe(16);
      expect((await post(h.app, BillingPaths.cancelPay, { order_no: ok.data.order_no }, token)).code).toBe(
        200,
      );
    });

    it('buys 50 points with Alipay: cashier, notification, exactly +50, 已支付 with pay_type 2', async () => {
      const before = await balances(h.app, demoId);
      const paid = await startPay(h.app, token, 50, 2);
      expect(paid).toMatchObject({ type: 2, amountFen: 5000, integral: 50 });
      expect(paid.url).toContain('method=alipay.trade.page.pay');
      expect(paid.html).toContain('<form');
      const page = await payAtAlipay(paid.url);
      expect(page).toContain('支付成功');
      expect(page).toContain('http-equiv="refresh"');
      expect(page).toContain(`out_trade_no=${paid.order_no}`);
      await h.app.billing.sandboxes.alipay!.deliveriesIdle();
      const after = await balances(h.app, demoId);
      expect(after.points).toBe(before.points + 50);
      expect(after.journal).toBe(after.points);
      expect(await verdictsOf(h.app, paid.order_no)).toEqual(['applied']);
      const row = (await list({ type: 1 })).data.list.find((r) => r.order_no === paid.order_no);
      expect(row).toMatchObject({
        pay_status: '已支付',
        pay_type: 2,
        balance: 50,
        money: 5000,
        invoiceStatus: 0,
      });
      // The return page confirms afterwards: nothing more is credited.
      const confirm = await post<OrderStatusData>(
        h.app,
        BillingPaths.doPay,
        { order_no: paid.order_no },
        token,
      );
      expect(confirm.data).toMatchObject({
        status: PayStatus.paid,
        pay_status: '已支付',
        points: after.points,
      });
      expect((await balances(h.app, demoId)).points).toBe(after.points);
    });

    it('the return page confirms a payment before its notification arrives, which then changes nothing', async () => {
      const before = await balances(h.app, demoId);
      const paid = await startPay(h.app, token, 10, 2);
      const cashier = h.app.billing.sandboxes.alipay!;
      // Pay at the cashier with deliveries paused: the trade is paid, the notification not yet sent.
      const open = await fetch(paid.url, { redirect: 'manual' });
      const trade = cashier.store.get(paid.order_no)!;
      await cashier.store.change(trade, (t) => {
        t.status = 'TRADE_SUCCESS';
        t.paidAt = Date.now();
      });
      expect(open.status).toBe(303);
      const confirm = await post<OrderStatusData>(
        h.app,
        BillingPaths.doPay,
        { order_no: paid.order_no },
        token,
      );
      expect(confirm.data.status).toBe(PayStatus.paid);
      expect(confirm.msg).toBe(BillingMsg.paid);
      const sent = await cashier.sendNotification(paid.order_no);
      expect(sent.body).toBe('success');
      expect((await balances(h.app, demoId)).points).toBe(before.points + 10);
      expect(await verdictsOf(h.app, paid.order_no)).toEqual(['duplicate']);
    });

    it('buys 50 points with WeChat Pay: QR page data, cashier, notification, wxIsPay', async () => {
      const before = await balances(h.app, demoId);
      const paid = await startPay(h.app, token, 50, 3);
      expect(paid.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/pay\/[0-9a-f]{32}$/);
      const view = await get<PayPageData>(h.app, BillingPaths.wxOrder, { order_no: paid.order_no });
      expect(view.data).toMatchObject({
        amountFen: 5000,
        integral: 50,
        codeUrl: paid.url,
        pay_status: '待支付',
      });
      const pending = await post<OrderStatusData>(h.app, BillingPaths.wxIsPay, { order_no: paid.order_no });
      expect(pending.data).toMatchObject({ status: PayStatus.pending, pay_status: '待支付' });
      expect(pending.data.points).toBeUndefined();
      expect(await submitCashier(paid.url, 'success')).toContain('支付成功');
      await h.app.billing.sandboxes.wechat!.deliveriesIdle();
      expect((await balances(h.app, demoId)).points).toBe(before.points + 50);
      const done = await post<OrderStatusData>(h.app, BillingPaths.wxIsPay, { order_no: paid.order_no });
      expect(done.data.status).toBe(PayStatus.paid);
      const row = (await list({ type: 1, isType: 2 })).data.list.find((r) => r.order_no === paid.order_no);
      expect(row).toMatchObject({ pay_status: '已支付', pay_type: 3 });
      expect(
        (await get<PayPageData>(h.app, BillingPaths.wxOrder, { order_no: paid.order_no })).data.codeUrl,
      ).toBe('');
    });

    it('a failed WeChat payment marks the order 支付失败 once the provider is asked', async () => {
      const paid = await startPay(h.app, token, 5, 3);
      await submitCashier(paid.url, 'fail');
      const r = await post<OrderStatusData>(h.app, BillingPaths.doPay, { order_no: paid.order_no }, token);
      expect(r.data).toMatchObject({ status: PayStatus.failed, pay_status: '支付失败' });
    });

    it('spends points as a consumption row; a spend racing spends never takes the balance below 0', async () => {
      const mobile = '13900000031';
      await registerUser(h.app, h.dataDir, mobile, 'abc12345');
      const t = await login(h.app, mobile, 'abc12345');
      const id = await userIdOf(h.app, mobile);
      const paid = await startPay(h.app, t, 50, 3);
      await submitCashier(paid.url, 'success');
      await h.app.billing.sandboxes.wechat!.deliveriesIdle();
      expect((await balances(h.app, id)).points).toBe(50);
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          post<{ balance: number }>(h.app, BILLING_SPEND_HOOK, { mobile, points: 20 }),
        ),
      );
      expect(results.filter((r) => r.code === 200)).toHaveLength(2);
      expect(
        results.filter((r) => r.code !== 200).every((r) => r.msg === BillingMsg.insufficientPoints),
      ).toBe(true);
      expect(await balances(h.app, id)).toEqual({ points: 10, journal: 10 });
      const spent = await list({ type: 2 }, t);
      expect(spent.data.count).toBe(2);
      expect(spent.data.list[0]).toMatchObject({
        pay_type: 1,
        pay_status: '已支付',
        balance: 20,
        money: 0,
        type: 2,
      });
      expect(spent.data.list[0]!.desc).toBe(BillingMsg.spendDesc(20));
    });

    it('cancels a pending order (closed at the provider), refuses to pay it again, and 404s another user', async () => {
      const paid = await startPay(h.app, token, 20, 3);
      const other = await registerAndLogin(h, '13900000032');
      expect((await post(h.app, BillingPaths.cancelPay, { order_no: paid.order_no }, other)).code).toBe(404);
      expect((await get(h.app, BillingPaths.orderDetail, { order_no: paid.order_no }, other)).code).toBe(404);
      const c = await post(h.app, BillingPaths.cancelPay, { order_no: paid.order_no }, token);
      expect(c).toMatchObject({ code: 200, msg: BillingMsg.cancelled });
      expect(h.app.billing.sandboxes.wechat!.order(paid.order_no)?.tradeState).toBe('CLOSED');
      const again = await post(h.app, BillingPaths.pay, { type: 3, order_no: paid.order_no }, token);
      expect(again.msg).toBe(BillingMsg.orderNotPending);
      const row = (await list({ type: 1, isType: PayStatus.cancelled })).data.list[0];
      expect(row).toMatchObject({ order_no: paid.order_no, pay_status: '已取消', canPay: false });
    });

    it('pays a pending order again with the same provider only', async () => {
      const first = await startPay(h.app, token, 30, 2);
      const again = await post<{ order_no: string; url: string }>(
        h.app,
        BillingPaths.pay,
        { type: 2, order_no: first.order_no },
        token,
      );
      expect(again.data.order_no).toBe(first.order_no);
      const other = await post(h.app, BillingPaths.pay, { type: 3, order_no: first.order_no }, token);
      expect(other.msg).toBe(BillingMsg.payTypeLocked);
      const wrong = await post(
        h.app,
        BillingPaths.pay,
        { type: 2, integral: 31, order_no: first.order_no },
        token,
      );
      expect(wrong.msg).toBe(BillingMsg.integralMismatch);
    });

    it('the job closes expired orders at the provider too, and credits a payment whose notification was lost', async () => {
      const { db } = h.app.pdb;
      const expired = await startPay(h.app, token, 7, 3);
      const lost = await startPay(h.app, token, 9, 2);
      const cashier = h.app.billing.sandboxes.alipay!;
      await fetch(lost.url, { redirect: 'manual' });
      await cashier.store.change(cashier.store.get(lost.order_no)!, (t) => {
        t.status = 'TRADE_SUCCESS';
        t.paidAt = Date.now();
      });
      const past = Math.floor(Date.now() / 1000) - 3600;
      await db
        .updateTable('billing_orders')
        .set({ created_at: past, check_after: 0 })
        .where('order_no', 'in', [expired.order_no, lost.order_no])
        .execute();
      await db
        .updateTable('billing_orders')
        .set({ expires_at: past + 60 })
        .where('order_no', '=', expired.order_no)
        .execute();
      const before = await balances(h.app, demoId);
      const denied = await post(h.app, BillingInternalPaths.reconcile, {});
      expect(denied.status).toBe(403);
      const r = await post<ReconcileData>(h.app, BillingInternalPaths.reconcile, {}, undefined);
      expect(r.status).toBe(403);
      const pass = await h.app.inject({
        method: 'POST',
        url: BillingInternalPaths.reconcile,
        headers: { 'x-internal-key': h.app.internalKey },
      });
      const data = (pass.json() as { data: ReconcileData }).data;
      expect(data).toMatchObject({ credited: 1, closed: 1, failed: 0 });
      expect((await balances(h.app, demoId)).points).toBe(before.points + 9);
      expect(h.app.billing.sandboxes.wechat!.order(expired.order_no)?.tradeState).toBe('CLOSED');
      const rows = (await list({ type: 1 })).data.list;
      expect(rows.find((x) => x.order_no === expired.order_no)?.pay_status).toBe('已取消');
      // A second pass finds nothing due.
      const second = await h.app.inject({
        method: 'POST',
        url: BillingInternalPaths.reconcile,
        headers: { 'x-internal-key': h.app.internalKey },
      });
      expect((second.json() as { data: ReconcileData }).data.credited).toBe(0);
    });

    it('filters the list by date range and pages it 10 a page', async () => {
      const mobile = '13900000033';
      const t = await registerAndLogin(h, mobile);
      for (let i = 0; i < 12; i++) await startPay(h.app, t, i + 1, 3);
      const all = await list({ type: 1 }, t);
      expect(all.data.count).toBe(12);
      expect(all.data.list).toHaveLength(10);
      expect(all.data.list[0]!.balance).toBe(12);
      expect((await list({ type: 1, page: 2 }, t)).data.list).toHaveLength(2);
      const now = Math.floor(Date.now() / 1000);
      expect((await list({ type: 1, startTime: now + 3600 }, t)).data.count).toBe(0);
      expect((await list({ type: 1, startTime: now - 3600, endTime: now + 3600 }, t)).data.count).toBe(12);
      expect((await list({ type: 1, isType: PayStatus.paid }, t)).data.count).toBe(0);
      expect((await list({ type: 3 }, t)).data).toEqual({ count: 0, list: [] });
      expect((await list({ type: 4 }, t)).code).toBe(400);
    });
  },
  { PUBLIC_URL: `http://127.0.0.1:${port}` },
);

async function registerAndLogin(h: { app: FastifyInstance; dataDir: string }, mobile: string) {
  await registerUser(h.app, h.dataDir, mobile, 'abc12345');
  return login(h.app, mobile, 'abc12345');
}
