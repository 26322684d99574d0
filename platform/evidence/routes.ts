/**
 * Evidence calls (contract `EvidencePaths`; spec 01 §2.1–2.4, §3, §7): save a file (multipart, streamed), a hash or
 * user data, the per-kind lists and labels, label change, deletion of the stored data, and the certificate view.
 * Every answer is an envelope with HTTP 200. The downloads are in download-routes.ts; the work is in save.ts,
 * service.ts and lifecycle.ts.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiCode, ok } from '../../contract/envelope.ts';
import {
  DelDataBody,
  type DelDataData,
  EvidenceLabelsQuery,
  EvidenceListQuery,
  EvidenceMsg,
  EvidencePaths,
  EvidenceViewQuery,
  LabelSaveBody,
  type LabelSaveData,
  SaveHashBody,
} from '../../contract/evidence.ts';
import { Msg } from '../../contract/messages.ts';
import { currentUser } from '../account/auth.ts';
import { ApiError, parseInput } from '../core/errors.ts';
import { nowSeconds } from '../core/time.ts';
import { formatBeijingDate } from './certificate.ts';
import { deleteEvidenceData, setLabel, sweepDeletedData } from './lifecycle.ts';
import {
  fileUploadLimits,
  PROPERTY_MAX_UPLOAD_BYTES,
  propertyFieldsOf,
  propertyUploadLimits,
  saveHashEvidence,
  savePropertyEvidence,
  saveUploadedFile,
  type Saved,
} from './save.ts';
import { buildView, findByBaoquan } from './service.ts';
import { labelKinds, listEvidence, listKinds, listLabels } from './list.ts';

/** Registers the evidence routes on `app` (needs the services and auth plugins). */
export async function evidenceRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.pdb;
  const { maxUploadBytes } = app.config;
  const propertyMaxBytes = Math.min(maxUploadBytes, PROPERTY_MAX_UPLOAD_BYTES);
  const storage = app.files.bucket('evidence');
  const deps = { pdb: app.pdb, storage };
  const verified = { preHandler: [app.requireUser, app.requireVerified] };

  // Finish deletions a crash interrupted (lifecycle.ts): bytes of rows marked deleted go before we serve.
  app.addHook('onReady', async () => {
    const purged = await sweepDeletedData(db, storage, nowSeconds(), (err, id) =>
      app.log.warn({ err, id }, 'could not remove the data of a deleted evidence; retried at next start'),
    );
    if (purged) app.log.warn({ purged }, 'removed the stored data of evidences deleted before a crash');
  });

  /** Logs a saved evidence and answers it. */
  function answer(request: FastifyRequest, saved: Saved, what: string) {
    request.log.info(saved.log, what);
    return ok(saved.data, EvidenceMsg.preserved);
  }

  app.post(EvidencePaths.save, verified, async (request) => {
    const user = currentUser(request);
    if (!request.isMultipart()) throw new ApiError(ApiCode.BAD_REQUEST, EvidenceMsg.fileRequired);
    const intake = await app.files.receive(request, {
      limits: fileUploadLimits(maxUploadBytes),
      tooLarge: Msg.fileTooLarge(maxUploadBytes),
    });
    try {
      return answer(request, await saveUploadedFile(deps, user.id, intake), 'evidence saved');
    } finally {
      // After a successful save the temp file has been moved away; otherwise it must not stay behind.
      await intake.discard();
    }
  });

  // Hash evidence: the file never reaches us; we record the submitted SHA-256 only.
  app.post(EvidencePaths.saveHash, verified, async (request) => {
    const body = parseInput(SaveHashBody, request.body);
    return answer(
      request,
      await saveHashEvidence(deps, currentUser(request).id, body),
      'hash evidence saved',
    );
  });

  // User-data evidence: a CSV/XLSX upload, or fields and rows typed on the page.
  app.post(EvidencePaths.saveProperty, verified, async (request) => {
    const user = currentUser(request);
    const intake = request.isMultipart()
      ? await app.files.receive(request, {
          limits: propertyUploadLimits(propertyMaxBytes),
          tooLarge: Msg.fileTooLarge(propertyMaxBytes),
        })
      : { fields: propertyFieldsOf(request.body), files: [], discard: async () => undefined };
    try {
      const saved = await savePropertyEvidence(deps, user.id, intake, app.tmpDir);
      return answer(request, saved, 'user-data evidence saved');
    } finally {
      await intake.discard();
    }
  });

  app.get(EvidencePaths.list, { preHandler: app.requireUser }, async (request) => {
    const q = parseInput(EvidenceListQuery, request.query);
    return ok(await listEvidence(app.pdb, currentUser(request).id, q, listKinds(q.v)));
  });

  app.get(EvidencePaths.hashList, { preHandler: app.requireUser }, async (request) => {
    const q = parseInput(EvidenceListQuery, request.query);
    return ok(await listEvidence(app.pdb, currentUser(request).id, q, ['hash']));
  });

  app.get(EvidencePaths.labels, { preHandler: app.requireUser }, async (request) => {
    const { v } = parseInput(EvidenceLabelsQuery, request.query);
    return ok(await listLabels(db, currentUser(request).id, labelKinds(v)));
  });

  app.get(EvidencePaths.hashLabels, { preHandler: app.requireUser }, async (request) =>
    ok(await listLabels(db, currentUser(request).id, ['hash'])),
  );

  app.post(EvidencePaths.labelSave, { preHandler: app.requireUser }, async (request) => {
    const { dataId, label } = parseInput(LabelSaveBody, request.body);
    if (!(await setLabel(db, dataId, currentUser(request).id, label ?? ''))) {
      throw new ApiError(ApiCode.NOT_FOUND, EvidenceMsg.evidenceNotFound);
    }
    const data: LabelSaveData = { id: dataId, label: label ?? '' };
    return ok(data, Msg.modified);
  });

  const delData = async (request: FastifyRequest) => {
    const { dataId } = parseInput(DelDataBody, request.method === 'GET' ? request.query : request.body);
    const deletedAt = await deleteEvidenceData(
      app.pdb,
      storage,
      dataId,
      currentUser(request).id,
      nowSeconds(),
    );
    if (deletedAt === null) throw new ApiError(ApiCode.NOT_FOUND, EvidenceMsg.evidenceNotFound);
    request.log.info({ id: dataId }, 'evidence data deleted by its owner');
    const data: DelDataData = { id: dataId, deletedAt: formatBeijingDate(deletedAt) };
    return ok(data, EvidenceMsg.evidenceDataDeleted);
  };
  app.get(EvidencePaths.delData, { preHandler: app.requireUser }, delData);
  app.post(EvidencePaths.delData, { preHandler: app.requireUser }, delData);

  // Public: the certificate link is the secret. A token, when present and live, marks the owner.
  app.get(EvidencePaths.view, async (request) => {
    const { baoquan, sth } = parseInput(EvidenceViewQuery, request.query);
    const ev = await findByBaoquan(db, baoquan);
    if (!ev) throw new ApiError(ApiCode.NOT_FOUND, EvidenceMsg.evidenceNotFound);
    await app.identify(request);
    const view = await buildView(storage, ev, request.user?.id ?? null);
    // read after the evidence row, so the head covers its leaf
    return ok(sth ? { ...view, sth: await app.treeHeads.current() } : view);
  });
}
