/**
 * Evidence download calls (contract `EvidencePaths`; spec 01 §2.4, §4, §7): the owner's and the extraction-code
 * downloads, batch download, the signed file route that streams the original bytes, and the package authorization
 * the gateway asks before it builds a ZIP. Envelope answers use HTTP 200; only `GET /api/file/:baoquan` and
 * `GET /api/file/:baoquan/authorize` answer 403/404 with an envelope, because a browser or the gateway fetches them
 * as files. The rules are in download-service.ts.
 */
import type { FastifyInstance } from 'fastify';
import { ok } from '../../contract/envelope.ts';
import {
  BatchDownloadBody,
  CodeDownloadBody,
  EvidenceFileParams,
  EvidencePaths,
  OwnerDownloadBody,
  PackageAuthorizeQuery,
  SignedUrlQuery,
} from '../../contract/evidence.ts';
import { currentUser } from '../account/auth.ts';
import { parseInput } from '../core/errors.ts';
import { nowSeconds } from '../core/time.ts';
import { contentDisposition, FILE_ROUTE_PREFIX } from './download.ts';
import {
  authorizePackage,
  batchDownload,
  batchIds,
  codeDownload,
  ownerDownload,
  servableFile,
  type DownloadDeps,
} from './download-service.ts';

/** Registers the evidence download routes on `app` (needs the services and auth plugins). */
export async function evidenceDownloadRoutes(app: FastifyInstance): Promise<void> {
  const deps: DownloadDeps = {
    db: app.pdb.db,
    storage: app.files.bucket('evidence'),
    signer: app.downloads,
    ttlSeconds: app.config.downloadUrlTtlSeconds,
  };

  app.post(EvidencePaths.ownerDownload, { preHandler: app.requireUser }, async (request) => {
    const { dataId } = parseInput(OwnerDownloadBody, request.body);
    return ok(await ownerDownload(deps, dataId, currentUser(request).id, nowSeconds()));
  });

  app.post(EvidencePaths.codeDownload, async (request) => {
    const { code, baoquan } = parseInput(CodeDownloadBody, request.body);
    return ok(await codeDownload(deps, { code, baoquan, ip: request.ip }, nowSeconds()));
  });

  app.post(EvidencePaths.downloadBatch, { preHandler: app.requireUser }, async (request) => {
    const { dataIdStr } = parseInput(BatchDownloadBody, request.body);
    const ids = batchIds(dataIdStr);
    return ok(await batchDownload(deps, ids, currentUser(request).id, nowSeconds()));
  });

  app.get(`${FILE_ROUTE_PREFIX}:baoquan`, async (request, reply) => {
    const { baoquan } = parseInput(EvidenceFileParams, request.params);
    const { exp, sig } = parseInput(SignedUrlQuery, request.query);
    const ev = await servableFile(deps, { baoquan, exp, sig }, nowSeconds());
    return reply
      .header('content-type', ev.mime)
      .header('content-length', String(ev.file_size))
      .header('content-disposition', contentDisposition(ev.file_name))
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .send(deps.storage.get(ev.storage_key));
  });

  // The gateway asks this before it streams /attestation/<baoquan>/package.zip (or each batch item): it never holds
  // the key. HTTP 403 + envelope for a bad/expired signature or deleted data, 404 when a file's bytes are missing.
  app.get(`${FILE_ROUTE_PREFIX}:baoquan/authorize`, async (request) => {
    const { baoquan } = parseInput(EvidenceFileParams, request.params);
    const q = parseInput(PackageAuthorizeQuery, request.query);
    return ok(await authorizePackage(deps, { baoquan, ...q }, nowSeconds()));
  });
}
