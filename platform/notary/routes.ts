/**
 * Notarisation order calls (contract `NotaryPaths`; spec 02 §7 "Notary"; docs/decisions/034-notary.md),
 * all for the signed-in user, creating one for a verified user only:
 * - `POST /api/Evidences/createOrder {type, ids}` → NotaryOrderCreated (订单已创建);
 * - `GET /api/evidences/orderList {startTime, endTime, page, payType, notarialType, orderNo}` → {count, list};
 * - `GET /api/Evidences/detail {orderId, page}` → {info, list, count};
 * - `POST /api/Evidences/stop {orderId}` (订单已关闭);
 * - `GET /api/Evidences/application {orderId}` → step 1's applicant and saved application; `POST
 *   /api/Evidences/saveApplication {orderId, purpose, usePlace, copies, addressId, remark}` (申请表已提交) → step 2.
 * Another user's order or evidence answers 404. The rules are in service.ts. Tab 3 of the billing area's
 * `getOrderList` lists the orders through `app.billing.notaryOrders`. The notary office's calls are ops-routes.ts,
 * registered with the other operator routes by platform/app.ts (decision 060).
 */
import type { FastifyInstance } from 'fastify';
import { ok } from '../../contract/envelope.ts';
import {
  ApplicationFormBody,
  CreateNotaryOrderBody,
  DeCodeBody,
  NOTARY_DOCUMENT_MAX_BYTES,
  NOTARY_DOCUMENTS,
  NotarialCheckQuery,
  NotaryDownQuery,
  NotaryPayBody,
  NotaryDetailQuery,
  NotaryMsg,
  NotaryOrderIdBody,
  NotaryOrderListQuery,
  NotaryPaths,
} from '../../contract/notary.ts';
import { currentUser } from '../account/auth.ts';
import { parseInput } from '../core/errors.ts';
import { nowSeconds } from '../core/time.ts';
import { internalOnly } from '../core/internal-key.ts';
import { Msg } from '../../contract/messages.ts';
import { ApiCode } from '../../contract/envelope.ts';
import { ApiError } from '../core/errors.ts';
import { registerSignedFileRoute, signedFileUrl } from '../files/signed-files.ts';
import { applicationOf, saveApplication } from './application.ts';
import { createOrder, requestPaper, stopOrder } from './service.ts';
import { listOrders, orderDetail, ordersTab } from './order-views.ts';
import { notarialCheck } from './public-check.ts';
import { countLookup } from '../verify/service.ts';
import { registerRechargePurpose } from '../billing/apply.ts';
import {
  authorize,
  documentData,
  documentField,
  documentRow,
  findDocument,
  storeDocuments,
} from './workflow.ts';
import { NOTARY_PURPOSE, notaryCredited, payNews, payWithProvider, payWithPoints } from './payment.ts';

/** The signature purpose of the documents' signed links (files/signer.ts). */
const NOTARY_FILE_PURPOSE = 'notary-document';
const noStore = { 'cache-control': 'private, no-store' };

/** Registers the notarisation routes (needs the services and auth plugins). */
export async function notaryRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.pdb;
  const verified = { preHandler: [app.requireUser, app.requireVerified] };
  // A recharge bought for an order (Alipay, WeChat Pay) pays it once credited; the provider sends the browser back to
  // the order's detail, which confirms the payment.
  registerRechargePurpose(NOTARY_PURPOSE, {
    credited: notaryCredited,
    returnPath: (o) => `/notary/detail?orderId=${o.purpose_id}&order_no=${o.order_no}`,
  });
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
    const refunded = await stopOrder(app.pdb, currentUser(request).id, orderId, nowSeconds());
    return ok(null, refunded ? NotaryMsg.refunded : NotaryMsg.stopped);
  });

  const bucket = app.files.bucket('notary');
  const office = app.config.issuer.notaryOffice; // NOTARY_OFFICE (lib/config-shared.ts)
  app.get(NotaryPaths.documentData, verified, async (request, reply) => {
    const { orderId } = parseInput(NotaryOrderIdBody, request.query);
    reply.headers(noStore);
    return ok(await documentData(db, app.files.bucket('signatures'), currentUser(request).id, orderId));
  });

  // The gateway's upload of the four documents it printed and signed: the user's token names whose order, the
  // internal key that the PDFs come from the gateway (a user cannot upload documents of their own making).
  const fields: readonly string[] = NOTARY_DOCUMENTS.map((d) => documentField(d.type));
  app.post(
    NotaryPaths.submitDocuments,
    { preHandler: [internalOnly(app), app.requireUser, app.requireVerified] },
    async (request) => {
      if (!request.isMultipart()) throw new ApiError(ApiCode.BAD_REQUEST, NotaryMsg.documentsInvalid);
      const intake = await app.files.receive(request, {
        limits: {
          fileSize: NOTARY_DOCUMENT_MAX_BYTES,
          files: fields.length,
          fields: 2,
          fieldSize: 64,
          parts: 8,
        },
        tooLarge: Msg.fileTooLarge(NOTARY_DOCUMENT_MAX_BYTES),
        accept: (field, fileName) => fileName !== '' && fields.includes(field),
      });
      try {
        const { orderId } = parseInput(NotaryOrderIdBody, intake.fields);
        await storeDocuments(app.pdb, bucket, currentUser(request).id, orderId, intake.files, nowSeconds());
        return ok(null, NotaryMsg.documentsSigned);
      } finally {
        await intake.discard();
      }
    },
  );

  app.get(NotaryPaths.downDoc, { preHandler: app.requireUser }, async (request, reply) => {
    const { orderId, type } = parseInput(NotaryDownQuery, request.query);
    const doc = await documentRow(db, currentUser(request).id, orderId, type);
    const downUrl = signedFileUrl(
      app.downloads,
      NotaryPaths.file,
      NOTARY_FILE_PURPOSE,
      Number(doc.id),
      nowSeconds(),
      app.config.downloadUrlTtlSeconds,
    );
    reply.headers(noStore);
    return ok({ downUrl });
  });

  registerSignedFileRoute(app, {
    prefix: NotaryPaths.file,
    purpose: NOTARY_FILE_PURPOSE,
    storage: bucket,
    notFound: NotaryMsg.documentNotFound,
    lookup: async (id) => {
      const doc = await findDocument(db, id);
      return (
        doc && { storage_key: doc.storage_key, file_size: Number(doc.file_size), mime: 'application/pdf' }
      );
    },
  });

  app.post(NotaryPaths.deCode, verified, async (request) => {
    const { orderId, code } = parseInput(DeCodeBody, request.body);
    await authorize(app.pdb, currentUser(request).id, orderId, code, nowSeconds());
    return ok(null, NotaryMsg.authorized);
  });

  app.post(NotaryPaths.pay, verified, async (request) => {
    const { orderId, payType } = parseInput(NotaryPayBody, request.body);
    const userId = currentUser(request).id;
    if (payType === 2 || payType === 3) return ok(await payWithProvider(app, userId, orderId, payType));
    const balance = await payWithPoints(app.pdb, userId, orderId, nowSeconds());
    return ok({ balance }, NotaryMsg.paid);
  });

  app.get(NotaryPaths.paysmsnews, { preHandler: app.requireUser }, async (request, reply) => {
    const { orderId } = parseInput(NotaryOrderIdBody, request.query);
    reply.headers(noStore);
    return ok(await payNews(db, currentUser(request).id, orderId));
  });

  app.post(NotaryPaths.requestPaper, { preHandler: app.requireUser }, async (request) => {
    const { orderId } = parseInput(NotaryOrderIdBody, request.body);
    await requestPaper(app.pdb, currentUser(request).id, orderId, nowSeconds());
    return ok(null, NotaryMsg.paperRequested);
  });

  // Public: counted against the client's budget of public lookups (the /queryAuthentication calls' 30 a minute).
  app.get(NotaryPaths.notarialCheck, async (request, reply) => {
    await countLookup(db, request.ip);
    const data = await notarialCheck(db, parseInput(NotarialCheckQuery, request.query), office);
    reply.headers(noStore);
    return ok(data);
  });
}
