/**
 * Notarisation order calls (contract `NotaryPaths`; spec 02 §7 "Notary"; issue 14; docs/decisions/034-notary.md),
 * all for the signed-in user, creating one for a verified user only:
 * - `POST /api/Evidences/createOrder {type, ids}` → NotaryOrderCreated (订单已创建);
 * - `GET /api/evidences/orderList {startTime, endTime, page, payType, notarialType, orderNo}` → {count, list};
 * - `GET /api/Evidences/detail {orderId, page}` → {info, list, count};
 * - `POST /api/Evidences/stop {orderId}` (订单已关闭);
 * - `GET /api/Evidences/application {orderId}` → step 1's applicant and saved application; `POST
 *   /api/Evidences/saveApplication {orderId, purpose, usePlace, copies, addressId, remark}` (申请表已提交) → step 2.
 * Another user's order or evidence answers 404. The rules are in service.ts. Tab 3 of the billing area's
 * `getOrderList` lists the orders through `app.billing.notaryOrders`.
 */
import type { FastifyInstance } from 'fastify';
import { ok } from '../../contract/envelope.ts';
import {
  ApplicationFormBody,
  CreateNotaryOrderBody,
  NotaryDetailQuery,
  NotaryMsg,
  NotaryOrderIdBody,
  NotaryOrderListQuery,
  NotaryPaths,
} from '../../contract/notary.ts';
import { currentUser } from '../account/auth.ts';
import { parseInput } from '../core/errors.ts';
import { nowSeconds } from '../core/time.ts';
import { applicationOf, saveApplication } from './application.ts';
import { createOrder, listOrders, orderDetail, ordersTab, stopOrder } from './service.ts';

/** Registers the notarisation routes (needs the services and auth plugins). */
export async function notaryRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.pdb;
  const verified = { preHandler: [app.requireUser, app.requireVerified] };
  // Tab 3 of the orders list (the billing area's getOrderList) lists this area's orders.
  app.billing.notaryOrders = { list: (userId, query) => ordersTab(db, userId, query) };

  app.post(NotaryPaths.createOrder, verified, async (request) => {
    const body = parseInput(CreateNotaryOrderBody, request.body);
    return ok(await createOrder(app.pdb, currentUser(request).id, body, nowSeconds()), NotaryMsg.created);
  });

  app.get(NotaryPaths.orderList, { preHandler: app.requireUser }, async (request) =>
    ok(await listOrders(db, currentUser(request).id, parseInput(NotaryOrderListQuery, request.query))),
  );

  app.get(NotaryPaths.detail, { preHandler: app.requireUser }, async (request) => {
    const { orderId, page } = parseInput(NotaryDetailQuery, request.query);
    return ok(await orderDetail(db, currentUser(request).id, orderId, page));
  });

  app.get(NotaryPaths.application, verified, async (request) => {
    const { orderId } = parseInput(NotaryOrderIdBody, request.query);
    return ok(await applicationOf(db, currentUser(request).id, orderId));
  });

  app.post(NotaryPaths.saveApplication, verified, async (request) => {
    const body = parseInput(ApplicationFormBody, request.body);
    await saveApplication(app.pdb, currentUser(request).id, body, nowSeconds());
    return ok(null, NotaryMsg.applicationSaved);
  });

  app.post(NotaryPaths.stop, { preHandler: app.requireUser }, async (request) => {
    const { orderId } = parseInput(NotaryOrderIdBody, request.body);
    await stopOrder(app.pdb, currentUser(request).id, orderId, nowSeconds());
    return ok(null, NotaryMsg.stopped);
  });
}
