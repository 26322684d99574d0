/**
 * The finance queue of invoice applications in the operator console (contract `InvoiceOpsPaths`, role `finance`: 403
 * 无权访问 without it; docs/decisions/022-invoices.md): the queue, one application, submit to finance, issue
 * (multipart files of an electronic invoice through the shared intake, or the courier number of a paper one), reject
 * with a reason, and the issued files streamed to the operator. Every call but the queue writes an audit entry (area
 * `invoice`); the queue is plugged into the console home. The rules are in ops-service.ts; platform/app.ts registers
 * these routes in its list of operator routes (decision 060).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiCode, ok } from '../../contract/envelope.ts';
import {
  INVOICE_FILE_FIELDS,
  INVOICE_FILE_MAX_BYTES,
  INVOICE_OPS_ROLE,
  InvoiceMsg,
  InvoiceOpsIdBody,
  InvoiceOpsPaths,
  InvoiceQueueQuery,
  InvoiceRejectBody,
} from '../../contract/invoice.ts';
import { Msg } from '../../contract/messages.ts';
import { ApiError, parseInput } from '../core/errors.ts';
import type { Intake } from '../files/intake.ts';
import { writeAudit } from '../ops/audit.ts';
import { requireRole } from '../ops/auth.ts';
import {
  INVOICE_AREA,
  invoiceOpsDetail,
  invoiceQueue,
  invoiceWaiting,
  issueInvoice,
  rejectApplication,
  submitToFinance,
} from './ops-service.ts';
import { storedInvoiceFile } from './applications.ts';

const FILE_FIELDS: readonly string[] = INVOICE_FILE_FIELDS;

/** Registers the finance queue's calls (needs services and the operator auth plugin) and the console queue. */
export async function invoiceOpsRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.pdb;
  const bucket = app.files.bucket('invoices');
  const guarded = { preHandler: app.requireOperator };
  app.opsQueues.add({
    area: INVOICE_AREA,
    role: INVOICE_OPS_ROLE,
    waiting: (limit) => invoiceWaiting(db, limit),
  });

  /** The multipart body of an issue: one file per field of INVOICE_FILE_FIELDS, each at most 10 MB. */
  async function receiveIssue(request: FastifyRequest): Promise<Intake> {
    let repeated = false;
    const seen = new Set<string>();
    let intake: Intake;
    try {
      intake = await app.files.receive(request, {
        limits: {
          fileSize: INVOICE_FILE_MAX_BYTES,
          files: FILE_FIELDS.length + 2,
          fields: 10,
          fieldSize: 4096,
          parts: 20,
        },
        tooLarge: Msg.fileTooLarge(INVOICE_FILE_MAX_BYTES),
        // a file input left empty sends a nameless part: not a file
        accept: (field, fileName) => {
          if (fileName === '' || !FILE_FIELDS.includes(field)) return false;
          if (seen.has(field)) repeated = true;
          seen.add(field);
          return true;
        },
      });
    } catch (err) {
      if ((err as { code?: string }).code === 'FST_FILES_LIMIT')
        throw new ApiError(ApiCode.BAD_REQUEST, InvoiceMsg.tooManyFiles);
      throw err;
    }
    if (repeated) {
      await intake.discard();
      throw new ApiError(ApiCode.BAD_REQUEST, InvoiceMsg.fileFieldRepeated);
    }
    return intake;
  }

  app.get(InvoiceOpsPaths.queue, guarded, async (request) => {
    requireRole(request, INVOICE_OPS_ROLE);
    const { status, page } = parseInput(InvoiceQueueQuery, request.query);
    return ok(await invoiceQueue(db, status, page));
  });

  app.get(InvoiceOpsPaths.detail, guarded, async (request) => {
    const operator = requireRole(request, INVOICE_OPS_ROLE);
    const { id } = parseInput(InvoiceOpsIdBody, request.query);
    const data = await invoiceOpsDetail(db, id);
    await writeAudit(db, {
      operatorId: operator.id,
      area: INVOICE_AREA,
      action: 'view',
      subject: data.detail.order_no,
      userId: data.userId,
    });
    return ok(data);
  });

  app.post(InvoiceOpsPaths.submit, guarded, async (request) => {
    const operator = requireRole(request, INVOICE_OPS_ROLE);
    const { id } = parseInput(InvoiceOpsIdBody, request.body);
    await submitToFinance({ pdb: app.pdb, operatorId: operator.id, id });
    return ok(null, InvoiceMsg.submittedToFinance);
  });

  app.post(InvoiceOpsPaths.issue, guarded, async (request) => {
    const operator = requireRole(request, INVOICE_OPS_ROLE);
    const intake = request.isMultipart() ? await receiveIssue(request) : null;
    try {
      const fields = (intake?.fields ?? request.body ?? {}) as Record<string, unknown>;
      const { id } = parseInput(InvoiceOpsIdBody, fields);
      await issueInvoice({ pdb: app.pdb, operatorId: operator.id, id }, bucket, fields, intake?.files ?? []);
      request.log.info({ operator: operator.username, id }, 'invoice issued');
      return ok(null, InvoiceMsg.issued);
    } finally {
      await intake?.discard();
    }
  });

  app.post(InvoiceOpsPaths.reject, guarded, async (request) => {
    const operator = requireRole(request, INVOICE_OPS_ROLE);
    const { id, remark } = parseInput(InvoiceRejectBody, request.body);
    await rejectApplication({ pdb: app.pdb, operatorId: operator.id, id }, remark);
    return ok(null, InvoiceMsg.rejected);
  });

  app.get<{ Params: { fileId: string } }>(
    `${InvoiceOpsPaths.file}:fileId`,
    guarded,
    async (request, reply) => {
      const operator = requireRole(request, INVOICE_OPS_ROLE);
      const fileId = /^[1-9]\d{0,14}$/.test(request.params.fileId) ? Number(request.params.fileId) : 0;
      const f = fileId ? await storedInvoiceFile(db, fileId) : undefined;
      if (!f) throw new ApiError(ApiCode.NOT_FOUND, InvoiceMsg.fileNotFound, 404);
      await writeAudit(db, {
        operatorId: operator.id,
        area: INVOICE_AREA,
        action: 'file',
        subject: String(fileId),
      });
      reply
        .header('content-type', f.mime)
        .header('content-length', String(f.file_size))
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff');
      return reply.send(bucket.get(f.storage_key));
    },
  );
}
