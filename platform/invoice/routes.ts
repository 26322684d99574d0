/**
 * The invoice area's user calls (contract `InvoicePaths`; spec 02 §7 "Orders, payment and invoices", all
 * form-encoded; docs/decisions/022-invoices.md):
 * - `GET /api/User/riseList` → InvoiceHead[]; `POST /api/User/addInvoice` (新增成功, at most 5: 最多保存 5 个发票抬头信息),
 *   `/editInvoice` (修改成功), `/delInvoice` (已删除该条发票抬头);
 * - `POST /api/User/invoicePreview {ids, money?}` → InvoicePreview (money recomputed from the orders);
 * - `POST /api/User/invoiceAsk {ids, userInvoiceId, userAddressId, remark, money?}` → `{id}` (提交成功);
 * - `POST /api/user/invoiceList`, `/api/User/invoiceDetail {id}`, `/api/user/checkFail {id}`;
 * - `POST /api/User/invoiceFile {id, fileId}` → `{downUrl}`, and `GET /api/User/invoiceFile/:fileId?exp=&sig=`
 *   streaming it (files/signed-files.ts; the URL expires after DOWNLOAD_URL_TTL_SECONDS).
 * The finance queue is ops-routes.ts, registered with the other operator routes by platform/app.ts (decision 060).
 * The rules are in head-service.ts and service.ts.
 */
import type { FastifyInstance } from 'fastify';
import { ok } from '../../contract/envelope.ts';
import {
  InvoiceAskBody,
  InvoiceFileBody,
  InvoiceHeadBody,
  InvoiceListQuery,
  InvoiceMsg,
  InvoicePaths,
  InvoicePreviewBody,
} from '../../contract/invoice.ts';
import { IdBody } from '../../contract/validators.ts';
import { currentUser } from '../account/auth.ts';
import { parseInput } from '../core/errors.ts';
import { nowSeconds } from '../core/time.ts';
import { registerSignedFileRoute, signedFileUrl } from '../files/signed-files.ts';
import { addHead, deleteHead, editHead, listHeads } from './head-service.ts';
import { askInvoice, previewInvoice } from './service.ts';
import {
  listApplications,
  ownedApplicationDetail,
  ownedFile,
  rejectionReason,
  storedInvoiceFile,
} from './applications.ts';

/** Signature purpose of the owner's invoice file URLs. */
const INVOICE_FILE_PURPOSE = 'invoice';

/** Registers the invoice area's user routes (needs the services and auth plugins). */
export async function invoiceRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.pdb;
  const userOnly = { preHandler: app.requireUser };
  const noStore = { 'cache-control': 'private, no-store' };

  app.get(InvoicePaths.riseList, userOnly, async (request, reply) => {
    reply.headers(noStore);
    return ok(await listHeads(db, currentUser(request).id));
  });

  app.post(InvoicePaths.addInvoice, userOnly, async (request) => {
    const b = parseInput(InvoiceHeadBody, request.body);
    return ok(await addHead(app.pdb, currentUser(request).id, b, nowSeconds()), InvoiceMsg.headAdded);
  });

  app.post(InvoicePaths.editInvoice, userOnly, async (request) => {
    const { id } = parseInput(IdBody, request.body);
    const b = parseInput(InvoiceHeadBody, request.body);
    return ok(await editHead(db, currentUser(request).id, id, b, nowSeconds()), InvoiceMsg.headEdited);
  });

  app.post(InvoicePaths.delInvoice, userOnly, async (request) => {
    const { id } = parseInput(IdBody, request.body);
    await deleteHead(db, currentUser(request).id, id);
    return ok(null, InvoiceMsg.headDeleted);
  });

  app.post(InvoicePaths.invoicePreview, userOnly, async (request, reply) => {
    const b = parseInput(InvoicePreviewBody, request.body);
    reply.headers(noStore);
    return ok(await previewInvoice(db, currentUser(request).id, b, Date.now()));
  });

  app.post(InvoicePaths.invoiceAsk, userOnly, async (request) => {
    const b = parseInput(InvoiceAskBody, request.body);
    return ok(await askInvoice(app.pdb, currentUser(request).id, b, nowSeconds()), InvoiceMsg.asked);
  });

  app.post(InvoicePaths.invoiceList, userOnly, async (request, reply) => {
    const q = parseInput(InvoiceListQuery, request.body);
    reply.headers(noStore);
    return ok(await listApplications(db, currentUser(request).id, q));
  });

  app.post(InvoicePaths.invoiceDetail, userOnly, async (request, reply) => {
    const { id } = parseInput(IdBody, request.body);
    reply.headers(noStore);
    return ok(await ownedApplicationDetail(db, currentUser(request).id, id));
  });

  app.post(InvoicePaths.checkFail, userOnly, async (request, reply) => {
    const { id } = parseInput(IdBody, request.body);
    reply.headers(noStore);
    return ok(await rejectionReason(db, currentUser(request).id, id));
  });

  app.post(InvoicePaths.invoiceFile, userOnly, async (request, reply) => {
    const { id, fileId } = parseInput(InvoiceFileBody, request.body);
    const f = await ownedFile(db, currentUser(request).id, id, fileId);
    const ttl = app.config.downloadUrlTtlSeconds;
    const downUrl = signedFileUrl(
      app.downloads,
      InvoicePaths.invoiceFileStream,
      INVOICE_FILE_PURPOSE,
      Number(f.id),
      nowSeconds(),
      ttl,
    );
    reply.headers(noStore);
    return ok({ downUrl });
  });

  registerSignedFileRoute(app, {
    prefix: InvoicePaths.invoiceFileStream,
    purpose: INVOICE_FILE_PURPOSE,
    storage: app.files.bucket('invoices'),
    notFound: InvoiceMsg.fileNotFound,
    lookup: (fileId) => storedInvoiceFile(db, fileId),
  });
}
