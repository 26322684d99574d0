/**
 * Capture calls (decision 037; contract `CapturePaths`): the owner queues a web capture and reads their jobs; a
 * gateway's capture worker (header `x-internal-key`) claims a job, completes it with the WACZ (multipart, streamed to
 * a temp file like an evidence upload) or fails it. Envelopes with HTTP 200, except 409 for a worker that lost its
 * job.
 */
import type { FastifyInstance } from 'fastify';
import { ApiCode, ok } from '../../contract/envelope.ts';
import {
  CaptureJobQuery,
  CaptureJobsQuery,
  CaptureMsg,
  CapturePaths,
  ClaimCaptureBody,
  CompleteCaptureFields,
  CreateProcessCaptureBody,
  CreateWebCaptureBody,
  FailCaptureBody,
} from '../../contract/capture.ts';
import { EvidenceMsg } from '../../contract/evidence.ts';
import { Msg } from '../../contract/messages.ts';
import { currentUser } from '../account/auth.ts';
import { ApiError, parseInput } from '../core/errors.ts';
import { internalOnly } from '../core/internal-key.ts';
import { nowSeconds } from '../core/time.ts';
import { fileUploadLimits } from '../evidence/save.ts';
import { captureArtefactRoutes } from './artefact-routes.ts';
import { captureOf, createProcessCapture, createWebCapture, listCaptures } from './service.ts';
import { claimCapture, completeCapture, failCapture } from './worker-jobs.ts';

/** Largest `meta` text part of a completion (bytes). */
const MAX_META_BYTES = 256 * 1024;

/** Registers the capture routes on `app`, and the artefacts' (needs the services and auth plugins). */
export async function captureRoutes(app: FastifyInstance): Promise<void> {
  await captureArtefactRoutes(app);
  const { db } = app.pdb;
  const storage = app.files.bucket('evidence');
  const internal = { preHandler: internalOnly(app) };

  app.post(
    CapturePaths.createWeb,
    { preHandler: [app.requireUser, app.requireVerified] },
    async (request) => {
      const body = parseInput(CreateWebCaptureBody, request.body);
      const job = await createWebCapture(db, currentUser(request).id, body, nowSeconds());
      request.log.info({ captureJob: job.id, urls: job.urls.length }, 'capture queued');
      return ok(job, CaptureMsg.queued);
    },
  );

  app.post(
    CapturePaths.createProcess,
    { preHandler: [app.requireUser, app.requireVerified] },
    async (request) => {
      const body = parseInput(CreateProcessCaptureBody, request.body);
      const job = await createProcessCapture(db, currentUser(request).id, body, nowSeconds());
      request.log.info({ captureJob: job.id, steps: body.steps.length }, 'process capture queued');
      return ok(job, CaptureMsg.queued);
    },
  );

  app.get(CapturePaths.jobs, { preHandler: app.requireUser }, async (request) => {
    const { kind } = parseInput(CaptureJobsQuery, request.query);
    return ok(await listCaptures(db, currentUser(request).id, kind));
  });

  app.get(CapturePaths.job, { preHandler: app.requireUser }, async (request) => {
    const { id } = parseInput(CaptureJobQuery, request.query);
    return ok(await captureOf(db, currentUser(request).id, id));
  });

  app.post(CapturePaths.claim, internal, async (request) => {
    const { worker, leaseSeconds } = parseInput(ClaimCaptureBody, request.body);
    return ok(await claimCapture(app.pdb, worker, leaseSeconds, nowSeconds()));
  });

  app.post(CapturePaths.fail, internal, async (request) => {
    const { jobId, worker, error } = parseInput(FailCaptureBody, request.body);
    return ok(await failCapture(db, jobId, worker, error, nowSeconds()));
  });

  app.post(CapturePaths.complete, internal, async (request) => {
    if (!request.isMultipart()) throw new ApiError(ApiCode.BAD_REQUEST, EvidenceMsg.fileRequired);
    const intake = await app.files.receive(request, {
      limits: { ...fileUploadLimits(app.config.maxUploadBytes), fieldSize: MAX_META_BYTES },
      tooLarge: Msg.fileTooLarge(app.config.maxUploadBytes),
      accept: (field) => field === 'wacz',
    });
    try {
      const { jobId, worker } = parseInput(CompleteCaptureFields, intake.fields);
      const wacz = intake.files[0];
      if (!wacz || wacz.size === 0) throw new ApiError(ApiCode.BAD_REQUEST, EvidenceMsg.fileRequired);
      const job = await completeCapture(
        app.pdb,
        storage,
        jobId,
        worker,
        wacz,
        intake.fields.meta ?? null,
        nowSeconds(),
      );
      request.log.info({ captureJob: job.id, baoquan: job.baoquan, size: wacz.size }, 'capture preserved');
      return ok(job);
    } finally {
      await intake.discard();
    }
  });
}
