/**
 * The certificate page's remaining calls (contract `EvidencePaths`; spec 01 §2.1, §2.3, §6, §7; decision 027):
 * - `POST /api/share/downBaoquan {baoquan, code?}` → DownloadData: the package download of the share page, by the
 *   logged-in owner without a code or by anyone with the owner's extraction code (download-service.ts);
 * - `POST /api/share/getMpsInfo {baoquan}` → MobilePreviewInfo: the public facts a mobile preview page shows;
 * - `POST /api/data/downContract {dataId}` → CertificateDownloadData: the certificate PDF paths of one's own evidence
 *   (login required; another user's id answers 404).
 * Bad input answers code 400 with a Chinese message; every answer is an envelope with HTTP 200.
 */
import type { FastifyInstance } from 'fastify';
import { ApiCode, ok } from '../../contract/envelope.ts';
import { EvidenceMsg, EvidencePaths } from '../../contract/evidence.ts';
import {
  certificatePdfPath,
  MobileInfoBody,
  type MobilePreviewInfo,
  OwnerCertificateBody,
  ShareDownloadBody,
} from '../../contract/evidence-share.ts';
import { currentUser } from '../account/auth.ts';
import { ApiError, parseInput } from '../core/errors.ts';
import { formatBeijing, nowSeconds } from '../core/time.ts';
import { formatBeijingDate } from './certificate.ts';
import { certificateDownload, shareDownload, type DownloadDeps } from './download-service.ts';
import { findByBaoquan, findOwned, hasStoredBytes } from './service.ts';

/** Registers the share and certificate calls (needs the services and auth plugins). */
export async function evidenceShareRoutes(app: FastifyInstance): Promise<void> {
  const deps: DownloadDeps = {
    db: app.pdb.db,
    storage: app.files.bucket('evidence'),
    signer: app.downloads,
    ttlSeconds: app.config.downloadUrlTtlSeconds,
  };

  app.post(EvidencePaths.shareDownload, async (request, reply) => {
    const { baoquan, code } = parseInput(ShareDownloadBody, request.body);
    await app.identify(request);
    reply.header('cache-control', 'no-store');
    const viewerId = request.user?.id ?? null;
    return ok(await shareDownload(deps, { baoquan, code, ip: request.ip, viewerId }, nowSeconds()));
  });

  app.post(EvidencePaths.mobileInfo, async (request) => {
    const { baoquan } = parseInput(MobileInfoBody, request.body);
    const ev = await findByBaoquan(deps.db, baoquan);
    if (!ev) throw new ApiError(ApiCode.NOT_FOUND, EvidenceMsg.evidenceNotFound);
    const info: MobilePreviewInfo = {
      baoquan: ev.baoquan,
      title: ev.title,
      kind: ev.kind,
      fileType: ev.file_type,
      fileName: ev.file_name,
      fileSize: ev.file_size,
      filehash: ev.sha256,
      chainhash: ev.chainhash,
      saveTime: formatBeijing(ev.created_at),
      deletedAt: ev.deleted_at === null ? null : formatBeijingDate(ev.deleted_at),
      isDownload: (await hasStoredBytes(deps.storage, ev)) ? 1 : 0,
      certificateUrl: `/attestation/${encodeURIComponent(ev.baoquan)}`,
      pdfUrl: certificatePdfPath(ev.baoquan),
    };
    return ok(info);
  });

  app.post(EvidencePaths.ownerCertificate, { preHandler: app.requireUser }, async (request, reply) => {
    const { dataId } = parseInput(OwnerCertificateBody, request.body);
    const ev = await findOwned(deps.db, dataId, currentUser(request).id);
    if (!ev) throw new ApiError(ApiCode.NOT_FOUND, EvidenceMsg.evidenceNotFound);
    reply.header('cache-control', 'no-store');
    return ok(certificateDownload(ev.baoquan));
  });
}
