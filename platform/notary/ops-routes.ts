/**
 * The notary office's queue in the operator console (contract `NotaryOpsPaths`, role `notary`: 403 无权访问 without
 * it; decision 034): the queue, one order (audited), its documents and certificate streamed (audited), the
 * authorised evidences streamed (audited, 403 before the user's step 3), and the decisions accept, return to a step,
 * terminate, issue (multipart: `id` and the signed certificate PDF as `certificate`). The rules are in
 * ops-service.ts, the files it reads in ops-files.ts; platform/app.ts registers these routes in its list of operator
 * routes (decision 060).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiCode, ok } from '../../contract/envelope.ts';
import { Msg } from '../../contract/messages.ts';
import { NOTARY_DOCUMENT_MAX_BYTES, NotaryMsg, type NotaryStepCode } from '../../contract/notary.ts';
import {
  NOTARY_AREA,
  NOTARY_OPS_ROLE,
  NotaryOpsIdBody,
  NotaryOpsMsg,
  NotaryOpsPaths,
  NotaryQueueQuery,
  NotaryReturnBody,
  NotaryShipBody,
  NotaryTerminateBody,
} from '../../contract/notary-office.ts';
import { ApiError, parseInput } from '../core/errors.ts';
import { writeAudit } from '../ops/audit.ts';
import { requireRole } from '../ops/auth.ts';
import { notaryOpsDetail, notaryQueue, notaryWaiting } from './ops-service.ts';
import { acceptOrder, issueCertificate, returnToStep, shipPaper, terminateOrder } from './ops-decisions.ts';
import { authorisedEvidence, documentById } from './ops-files.ts';

const ID_RE = /^[1-9]\d{0,14}$/;

/** Registers the office's calls (needs services and the operator auth plugin) and its console queue. */
export async function notaryOpsRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.pdb;
  const bucket = app.files.bucket('notary');
  const evidenceBucket = app.files.bucket('evidence');
  const guarded = { preHandler: app.requireOperator };
  app.opsQueues.add({
    area: NOTARY_AREA,
    role: NOTARY_OPS_ROLE,
    waiting: (limit) => notaryWaiting(db, limit),
  });

  const streamPdf = (reply: FastifyReply, size: number, name: string) =>
    reply
      .header('content-length', String(size))
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(name)}`);

  app.get(NotaryOpsPaths.queue, guarded, async (request) => {
    requireRole(request, NOTARY_OPS_ROLE);
    return ok(await notaryQueue(db, parseInput(NotaryQueueQuery, request.query)));
  });

  app.get(NotaryOpsPaths.detail, guarded, async (request) => {
    const operator = requireRole(request, NOTARY_OPS_ROLE);
    const { id } = parseInput(NotaryOpsIdBody, request.query);
    const data = await notaryOpsDetail(db, id);
    await writeAudit(db, {
      operatorId: operator.id,
      area: NOTARY_AREA,
      action: 'view',
      subject: data.order.orderNo,
      userId: data.order.userId,
    });
    return ok(data);
  });

  app.get<{ Params: { docId: string } }>(`${NotaryOpsPaths.file}:docId`, guarded, async (request, reply) => {
    const operator = requireRole(request, NOTARY_OPS_ROLE);
    const doc = ID_RE.test(request.params.docId)
      ? await documentById(db, Number(request.params.docId))
      : undefined;
    if (!doc) throw new ApiError(ApiCode.NOT_FOUND, NotaryMsg.documentNotFound, 404);
    await writeAudit(db, {
      operatorId: operator.id,
      area: NOTARY_AREA,
      action: 'document',
      subject: String(doc.order_id),
      remark: `type ${doc.doc_type}`,
    });
    streamPdf(reply, Number(doc.file_size), `notary-${doc.order_id}-${doc.doc_type}.pdf`).type(
      'application/pdf',
    );
    return reply.send(bucket.get(doc.storage_key));
  });

  app.get<{ Params: { orderId: string; evidenceId: string } }>(
    `${NotaryOpsPaths.evidence}:orderId/:evidenceId`,
    guarded,
    async (request, reply) => {
      const operator = requireRole(request, NOTARY_OPS_ROLE);
      const { orderId, evidenceId } = request.params;
      if (!ID_RE.test(orderId) || !ID_RE.test(evidenceId))
        throw new ApiError(ApiCode.NOT_FOUND, NotaryOpsMsg.notFound, 404);
      const ev = await authorisedEvidence(db, Number(orderId), Number(evidenceId));
      await writeAudit(db, {
        operatorId: operator.id,
        area: NOTARY_AREA,
        action: 'evidence',
        subject: ev.orderNo,
        userId: ev.userId,
        remark: ev.baoquan,
      });
      streamPdf(reply, Number(ev.file_size), ev.file_name || ev.baoquan).type('application/octet-stream');
      return reply.send(evidenceBucket.get(ev.storage_key));
    },
  );

  app.post(NotaryOpsPaths.accept, guarded, async (request) => {
    const operator = requireRole(request, NOTARY_OPS_ROLE);
    const { id } = parseInput(NotaryOpsIdBody, request.body);
    await acceptOrder({ pdb: app.pdb, operatorId: operator.id, id });
    return ok(null, NotaryOpsMsg.accepted);
  });

  app.post(NotaryOpsPaths.returnStep, guarded, async (request) => {
    const operator = requireRole(request, NOTARY_OPS_ROLE);
    const { id, step, remark } = parseInput(NotaryReturnBody, request.body);
    await returnToStep(
      { pdb: app.pdb, operatorId: operator.id, id },
      bucket,
      step as NotaryStepCode,
      remark ?? '',
    );
    return ok(null, NotaryOpsMsg.returned);
  });

  app.post(NotaryOpsPaths.terminate, guarded, async (request) => {
    const operator = requireRole(request, NOTARY_OPS_ROLE);
    const { id, remark } = parseInput(NotaryTerminateBody, request.body);
    await terminateOrder({ pdb: app.pdb, operatorId: operator.id, id }, remark ?? '');
    return ok(null, NotaryOpsMsg.terminated);
  });

  app.post(NotaryOpsPaths.ship, guarded, async (request) => {
    const operator = requireRole(request, NOTARY_OPS_ROLE);
    const { id, courierNumber } = parseInput(NotaryShipBody, request.body);
    await shipPaper({ pdb: app.pdb, operatorId: operator.id, id }, courierNumber);
    return ok(null, NotaryOpsMsg.shipped);
  });

  app.post(NotaryOpsPaths.issue, guarded, async (request) => {
    const operator = requireRole(request, NOTARY_OPS_ROLE);
    if (!request.isMultipart()) throw new ApiError(ApiCode.BAD_REQUEST, NotaryOpsMsg.certificateRequired);
    const intake = await app.files.receive(request, {
      limits: { fileSize: NOTARY_DOCUMENT_MAX_BYTES, files: 1, fields: 2, fieldSize: 64, parts: 4 },
      tooLarge: Msg.fileTooLarge(NOTARY_DOCUMENT_MAX_BYTES),
      accept: (field, fileName) => fileName !== '' && field === 'certificate',
    });
    try {
      const { id } = parseInput(NotaryOpsIdBody, intake.fields);
      await issueCertificate({ pdb: app.pdb, operatorId: operator.id, id }, bucket, intake.files[0]);
      return ok(null, NotaryOpsMsg.issued);
    } finally {
      await intake.discard();
    }
  });
}
