/**
 * The billing area's routes (contract/billing.ts; spec 02 §7 "Orders, payment and invoices"; decision 018):
 * - `GET /api/alipay/options` → RechargeOptions (public);
 * - `POST /api/alipay/pay {integral, type, order_no?}` → PayData: a new recharge (or a pending one again) opened at
 *   Alipay (cashier URL and form) or WeChat Pay (code_url);
 * - `POST /api/alipay/cancelPay {order_no}`: closes a pending recharge at its provider, then here;
 * - `POST /api/alipay/doPay {order_no}` (the return page) and `POST /api/alipay/wxIsPay {order_no}` (the WeChat page,
 *   public) → OrderStatusData after asking the provider about a pending order;
 * - `GET /api/alipay/wxOrder {order_no}` (public) and `GET /api/processorder/orderDetail {order_no}`;
 * - `GET /api/processorder/getOrderList {startTime, endTime, page, type, isType}`;
 * - `POST /api/internal/billing/reconcile` (header `x-internal-key`): one pass of the reconciliation job;
 * - `POST /api/notify/:provider`: every registered provider's notifications (notify-routes.ts; decision 058);
 * - `GET|POST /api/points/history {page}`: the caller's points entries (points-routes.ts; decision 057);
 * - with TEST_HOOKS, the spend hook (test-hooks.ts). The operators' orders view (ops-routes.ts) is registered with
 *   every area's operator routes by platform/app.ts (decision 060).
 * Not encapsulated (fastify-plugin), so `app.billing` (plugin.ts) is visible to the whole app and its tests.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  BillingInternalPaths,
  BillingMsg,
  BillingPaths,
  OrderListQuery,
  OrderNoBody,
  PayBody,
} from '../../contract/billing.ts';
import { ok } from '../../contract/envelope.ts';
import { currentUser } from '../account/auth.ts';
import { internalOnly } from '../core/internal-key.ts';
import { parseInput } from '../core/errors.ts';
import { balanceOf } from './journal.ts';
import { notifyRoutes } from './notify-routes.ts';
import { billingServicesPlugin } from './plugin.ts';
import { pointsRoutes } from './points-routes.ts';
import { reconcilePending } from './reconcile.ts';
import { cancelOrder, orderDetail, orderStatus, pay, payPage, rechargeOptions } from './service.ts';
import { listOrders } from './order-list.ts';
import { billingTestHooks } from './test-hooks.ts';

/** Registers the billing area (needs services, auth and the operator auth plugin). */
export const billingRoutes = fp(
  async (app: FastifyInstance) => {
    await app.register(billingServicesPlugin);
    const { db } = app.pdb;
    const userOnly = { preHandler: app.requireUser };

    app.get(BillingPaths.options, async () => ok(rechargeOptions(app)));

    app.post(BillingPaths.pay, userOnly, async (request) =>
      ok(await pay(app, currentUser(request).id, parseInput(PayBody, request.body))),
    );

    app.post(BillingPaths.cancelPay, userOnly, async (request) => {
      const { order_no } = parseInput(OrderNoBody, request.body);
      await cancelOrder(app, currentUser(request).id, order_no);
      return ok(null, BillingMsg.cancelled);
    });

    app.post(BillingPaths.doPay, userOnly, async (request) => {
      const { order_no } = parseInput(OrderNoBody, request.body);
      const user = currentUser(request);
      const data = await orderStatus(app, order_no, user.id);
      return ok({ ...data, points: await balanceOf(db, user.id) }, statusMsg(data.status));
    });

    app.post(BillingPaths.wxIsPay, async (request) => {
      const { order_no } = parseInput(OrderNoBody, request.body);
      const data = await orderStatus(app, order_no, null);
      return ok(data, statusMsg(data.status));
    });

    app.get(BillingPaths.wxOrder, async (request) => {
      const { order_no } = parseInput(OrderNoBody, request.query);
      return ok(await payPage(db, order_no));
    });

    app.get(BillingPaths.orderDetail, userOnly, async (request) => {
      const { order_no } = parseInput(OrderNoBody, request.query);
      return ok(await orderDetail(db, currentUser(request).id, order_no));
    });

    app.get(BillingPaths.getOrderList, userOnly, async (request) =>
      ok(await listOrders(app, currentUser(request).id, parseInput(OrderListQuery, request.query))),
    );

    app.post(BillingInternalPaths.reconcile, { preHandler: internalOnly(app) }, async () =>
      ok(await reconcilePending(app)),
    );

    await app.register(notifyRoutes);
    await app.register(pointsRoutes);
    if (app.config.testHooks) await app.register(billingTestHooks);
  },
  { name: 'cunzheng-billing', dependencies: ['cunzheng-services', 'cunzheng-operator-auth'] },
);

/** The message of an order state (doPay, wxIsPay). */
function statusMsg(status: number): string {
  return (
    [BillingMsg.pending, BillingMsg.paid, BillingMsg.closed, BillingMsg.failed][status - 1] ??
    BillingMsg.pending
  );
}
