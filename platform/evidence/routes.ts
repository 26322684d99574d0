/**
 * Evidence calls (paths: contract `EvidencePaths`, `EvidenceKindPaths`; spec 01 §2.3, §2.4, §3, §7): save a file
 * (multipart, streamed), a hash (issue 3) or user data (issue 3), the per-kind lists and labels, label change,
 * deletion of the stored data, the certificate view, owner / extraction-code / batch downloads, the signed file route
 * that streams the original bytes and the package authorization the gateway asks before it builds a ZIP. Envelope
 * answers use HTTP 200; only `GET /api/file/:baoquan` and `GET /api/file/:baoquan/authorize` answer 403/404 with an
 * envelope, because a browser or the gateway fetches them as files.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ApiCode,
  BATCH_MAX_ITEMS,
  CodeDownloadBody,
  DelDataBody,
  EvidenceKindPaths,
  EvidenceListQuery,
  EvidencePaths,
  LabelSaveBody,
  Msg,
  OwnerDownloadBody,
  SaveEvidenceFields,
  SaveHashBody,
  SavePropertyFields,
  ok,
  type BatchDownloadData,
  type DelDataData,
  type DownloadData,
  type LabelSaveData,
  type PackageAuthorization,
} from '../../contract/index.ts';
import { currentUser } from '../account/auth.ts';
import { EXTRACT_CODE_POLICY, clearFailures, isThrottled, recordFailure } from '../core/attempts.ts';
import { safeEqual } from '../core/crypto.ts';
import { ApiError, parseInput } from '../core/errors.ts';
import { nowSeconds } from '../core/time.ts';
import type { EvidenceKind, EvidenceRow } from '../db/schema.ts';
import { formatBeijingDate } from './certificate.ts';
import { BATCH_ZIP_PATH, contentDisposition, FILE_ROUTE_PREFIX, packagePath } from './download.ts';
import { detectFileType, typeFromName } from './filetype.ts';
import { deleteEvidenceData, setLabel, sweepDeletedData } from './lifecycle.ts';
import {
  normaliseTyped,
  normaliseUpload,
  PROPERTY_FILE_NAME,
  PROPERTY_MIME,
  type NormalisedData,
} from './property.ts';
import {
  buildView,
  discardTemp,
  findByBaoquan,
  findOwned,
  findOwnedMany,
  hasStoredBytes,
  listEvidence,
  listKinds,
  listLabels,
  saveEvidence,
} from './service.ts';
import { receiveToTemp, type ReceivedFile } from './upload.ts';

const ViewQuery = z.object({ baoquan: z.string().trim().min(1).max(64) });
const FileParams = z.object({ baoquan: z.string().min(1).max(64) });
const FileQuery = z.object({ exp: z.string().optional(), sig: z.string().optional() });
const AuthorizeQuery = FileQuery.extend({ purpose: z.string().optional() });
const LabelsQuery = z.object({ v: z.string().optional() });
const BatchBody = z.object({
  dataIdStr: z.preprocess(
    (v) => (Array.isArray(v) ? v.join(',') : v == null ? '' : String(v)),
    z.string().max(BATCH_MAX_ITEMS * 24, Msg.batchTooMany(BATCH_MAX_ITEMS)),
  ),
});

/** Largest user-data file accepted (bytes), below MAX_UPLOAD_BYTES: 100 000 rows of text fit easily. */
export const PROPERTY_MAX_UPLOAD_BYTES = 200 * 1024 * 1024;
/** Largest typed `fields`/`rows` multipart field (bytes); urlencoded and JSON bodies are capped by bodyLimit. */
const PROPERTY_MAX_FIELD_BYTES = 16 * 1024 * 1024;

/** Longest file name kept (characters); longer names are cut, keeping the extension. */
const MAX_FILE_NAME = 200;
function cleanFileName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const n = name.replace(/[\u0000-\u001f\u007f/\\]/g, '_').trim() || 'file';
  if (n.length <= MAX_FILE_NAME) return n;
  const dot = n.lastIndexOf('.');
  const ext = dot > 0 && n.length - dot <= 16 ? n.slice(dot) : '';
  return n.slice(0, MAX_FILE_NAME - ext.length) + ext;
}

/** Maps a multipart stream failure to the envelope answer (too large, cut off) or rethrows it. */
function uploadFailure(request: FastifyRequest, err: unknown, maxBytes: number): never {
  if (err instanceof ApiError) throw err;
  const code = (err as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE')
    throw new ApiError(ApiCode.PAYLOAD_TOO_LARGE, Msg.fileTooLarge(maxBytes));
  if (code === 'FST_MP_PREMATURE_CLOSE' || !request.raw.complete) {
    request.log.info({ err }, 'upload cut off by the client; nothing kept');
    throw new ApiError(ApiCode.BAD_REQUEST, Msg.uploadInterrupted);
  }
  throw err;
}

/** Registers the evidence routes on `app` (needs the services and auth plugins). */
export async function evidenceRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.pdb;
  const { maxUploadBytes, downloadUrlTtlSeconds } = app.config;
  const propertyMaxBytes = Math.min(maxUploadBytes, PROPERTY_MAX_UPLOAD_BYTES);

  // Finish deletions a crash interrupted (lifecycle.ts): bytes of rows marked deleted go before we serve.
  app.addHook('onReady', async () => {
    const purged = await sweepDeletedData(db, app.storage, nowSeconds(), (err, id) =>
      app.log.warn({ err, id }, 'could not remove the data of a deleted evidence; retried at next start'),
    );
    if (purged) app.log.warn({ purged }, 'removed the stored data of evidences deleted before a crash');
  });

  /**
   * The two download URLs of an evidence the caller may download (spec 01 §4, issue 3): `downUrl` of the original
   * ('' for hash evidence, which has none) and `packageUrl` of the ZIP.
   * @throws ApiError 404 `evidenceDeleted` when the owner deleted the data, `evidenceMissing` when bytes are absent
   */
  async function downloadData(ev: EvidenceRow): Promise<DownloadData> {
    if (ev.deleted_at !== null) throw new ApiError(ApiCode.NOT_FOUND, Msg.evidenceDeleted);
    const now = nowSeconds();
    const packageUrl = app.downloads.packageUrl(ev.baoquan, now, downloadUrlTtlSeconds);
    if (ev.kind === 'hash') return { downUrl: '', packageUrl };
    if (!(await hasStoredBytes(app.storage, ev))) throw new ApiError(ApiCode.NOT_FOUND, Msg.evidenceMissing);
    return { downUrl: app.downloads.url(ev.baoquan, now, downloadUrlTtlSeconds), packageUrl };
  }

  app.post(EvidencePaths.save, { preHandler: [app.requireUser, app.requireVerified] }, async (request) => {
    const user = currentUser(request);
    if (!request.isMultipart()) throw new ApiError(ApiCode.BAD_REQUEST, Msg.fileRequired);
    const fields: Record<string, string> = {};
    let received: ReceivedFile | null = null;
    let fileName = '';
    try {
      const parts = request.parts({
        limits: { fileSize: maxUploadBytes, files: 1, fields: 20, fieldSize: 64 * 1024, parts: 30 },
      });
      for await (const part of parts) {
        if (part.type === 'file') {
          received = await receiveToTemp(part.file, app.tmpDir);
          fileName = cleanFileName(part.filename);
          // busboy stops at the limit and marks the stream truncated: what we hold is not the whole file
          if (part.file.truncated)
            throw new ApiError(ApiCode.PAYLOAD_TOO_LARGE, Msg.fileTooLarge(maxUploadBytes));
        } else if (typeof part.value === 'string') {
          fields[part.fieldname] = part.value;
        }
      }
      if (!received) throw new ApiError(ApiCode.BAD_REQUEST, Msg.fileRequired);
      if (received.size === 0) throw new ApiError(ApiCode.BAD_REQUEST, Msg.fileEmpty);
      const text = parseInput(SaveEvidenceFields, fields);
      const type = await detectFileType(received.path, received.isText);
      const title = text.title ?? (cleanFileName(fileName).slice(0, 100) || received.sha256.slice(0, 16));
      const saved = await saveEvidence(app.pdb, app.storage, {
        userId: user.id,
        title,
        label: text.label ?? '',
        fileName,
        file: received,
        type,
      });
      request.log.info(
        { baoquan: saved.baoquan, size: received.size, fileType: type.fileType },
        'evidence saved',
      );
      return ok(saved, Msg.evidenceSaved);
    } catch (err) {
      uploadFailure(request, err, maxUploadBytes);
    } finally {
      // After a successful save the temp file has been moved away; otherwise it must not stay behind.
      await discardTemp(received);
    }
  });

  // Hash evidence (issue 3): the file never reaches us; we record the submitted SHA-256 only.
  app.post(
    EvidenceKindPaths.saveHash,
    { preHandler: [app.requireUser, app.requireVerified] },
    async (request) => {
      const user = currentUser(request);
      const body = parseInput(SaveHashBody, request.body);
      const fileName = body.fileName ? cleanFileName(body.fileName) : '';
      const saved = await saveEvidence(app.pdb, app.storage, {
        userId: user.id,
        title: body.title ?? (fileName || body.hash.slice(0, 16)),
        label: body.label ?? '',
        fileName,
        file: { path: null, size: body.fileSize ?? 0, sha256: body.hash },
        type: { fileType: typeFromName(fileName), mime: '' },
        kind: 'hash',
      });
      request.log.info({ baoquan: saved.baoquan }, 'hash evidence saved');
      return ok(saved, Msg.evidenceSaved);
    },
  );

  // User-data evidence (issue 3): a CSV/XLSX upload, or fields and rows typed on the page.
  app.post(
    EvidenceKindPaths.saveProperty,
    { preHandler: [app.requireUser, app.requireVerified] },
    async (request) => {
      const user = currentUser(request);
      const fields: Record<string, string> = {};
      let received: ReceivedFile | null = null;
      let normalised: NormalisedData | null = null;
      let uploadName = '';
      let rawUploadName = '';
      try {
        if (request.isMultipart()) {
          const parts = request.parts({
            limits: {
              fileSize: propertyMaxBytes,
              files: 1,
              fields: 20,
              fieldSize: PROPERTY_MAX_FIELD_BYTES,
              parts: 30,
            },
          });
          for await (const part of parts) {
            if (part.type === 'file') {
              received = await receiveToTemp(part.file, app.tmpDir);
              rawUploadName = part.filename ?? '';
              uploadName = cleanFileName(rawUploadName);
              if (part.file.truncated)
                throw new ApiError(ApiCode.PAYLOAD_TOO_LARGE, Msg.fileTooLarge(propertyMaxBytes));
            } else if (typeof part.value === 'string') {
              fields[part.fieldname] = part.value;
            }
          }
        } else {
          for (const [k, v] of Object.entries((request.body ?? {}) as Record<string, unknown>)) {
            if (typeof v === 'string') fields[k] = v;
            else if (Array.isArray(v)) fields[k] = JSON.stringify(v);
          }
        }
        const text = parseInput(SavePropertyFields, fields);
        // An empty, nameless file part (a form submitted without choosing a file) counts as no file.
        if (received && received.size === 0 && rawUploadName === '') {
          await discardTemp(received);
          received = null;
        }
        if (received) normalised = await normaliseUpload(received, app.tmpDir);
        else if (fields.fields !== undefined && fields.rows !== undefined)
          normalised = await normaliseTyped(fields.fields, fields.rows, app.tmpDir);
        else if (fields.fields !== undefined) throw new ApiError(ApiCode.BAD_REQUEST, Msg.propertyNoRows);
        else throw new ApiError(ApiCode.BAD_REQUEST, Msg.propertyDataRequired);
        const fromName = uploadName.replace(/\.[0-9A-Za-z]{1,8}$/, '').slice(0, 100);
        const saved = await saveEvidence(app.pdb, app.storage, {
          userId: user.id,
          title: text.title ?? (fromName || '用户数据'),
          label: text.label ?? '',
          fileName: PROPERTY_FILE_NAME,
          file: normalised,
          type: { fileType: 1, mime: PROPERTY_MIME },
          kind: 'property',
          extras: { data_lines: normalised.lines, data_fields: JSON.stringify(normalised.fields) },
        });
        request.log.info(
          { baoquan: saved.baoquan, rows: normalised.lines, fields: normalised.fields.length },
          'user-data evidence saved',
        );
        return ok(saved, Msg.evidenceSaved);
      } catch (err) {
        uploadFailure(request, err, propertyMaxBytes);
      } finally {
        await discardTemp(received);
        await discardTemp(normalised);
      }
    },
  );

  app.get(EvidencePaths.list, { preHandler: app.requireUser }, async (request) => {
    const q = parseInput(EvidenceListQuery, request.query);
    return ok(await listEvidence(db, currentUser(request).id, q, listKinds(q.v)));
  });

  app.get(EvidenceKindPaths.hashList, { preHandler: app.requireUser }, async (request) => {
    const q = parseInput(EvidenceListQuery, request.query);
    return ok(await listEvidence(db, currentUser(request).id, q, ['hash']));
  });

  // Labels of file, app and user-data evidence (`v=property` or `v=file` narrows); hash labels have their own call.
  app.get(EvidencePaths.labels, { preHandler: app.requireUser }, async (request) => {
    const { v } = parseInput(LabelsQuery, request.query);
    const kinds: EvidenceKind[] =
      v === 'property' ? ['property'] : v === 'file' ? ['file', 'app'] : ['file', 'app', 'property'];
    return ok(await listLabels(db, currentUser(request).id, kinds));
  });

  app.get(EvidenceKindPaths.hashLabels, { preHandler: app.requireUser }, async (request) =>
    ok(await listLabels(db, currentUser(request).id, ['hash'])),
  );

  app.post(EvidenceKindPaths.labelSave, { preHandler: app.requireUser }, async (request) => {
    const { dataId, label } = parseInput(LabelSaveBody, request.body);
    if (!(await setLabel(db, dataId, currentUser(request).id, label ?? ''))) {
      throw new ApiError(ApiCode.NOT_FOUND, Msg.evidenceNotFound);
    }
    const data: LabelSaveData = { id: dataId, label: label ?? '' };
    return ok(data, Msg.modified);
  });

  const delData = async (request: FastifyRequest) => {
    const { dataId } = parseInput(DelDataBody, request.method === 'GET' ? request.query : request.body);
    const user = currentUser(request);
    const deletedAt = await deleteEvidenceData(db, app.storage, dataId, user.id, nowSeconds());
    if (deletedAt === null) throw new ApiError(ApiCode.NOT_FOUND, Msg.evidenceNotFound);
    request.log.info({ id: dataId }, 'evidence data deleted by its owner');
    const data: DelDataData = { id: dataId, deletedAt: formatBeijingDate(deletedAt) };
    return ok(data, Msg.evidenceDataDeleted);
  };
  app.get(EvidenceKindPaths.delData, { preHandler: app.requireUser }, delData);
  app.post(EvidenceKindPaths.delData, { preHandler: app.requireUser }, delData);

  // Public: the certificate link is the secret. A token, when present and live, marks the owner.
  app.get(EvidencePaths.view, async (request) => {
    const { baoquan } = parseInput(ViewQuery, request.query);
    const ev = await findByBaoquan(db, baoquan);
    if (!ev) throw new ApiError(ApiCode.NOT_FOUND, Msg.evidenceNotFound);
    await app.identify(request);
    return ok(await buildView(app.storage, ev, request.user?.id ?? null));
  });

  app.post(EvidencePaths.ownerDownload, { preHandler: app.requireUser }, async (request) => {
    const { dataId } = parseInput(OwnerDownloadBody, request.body);
    const ev = await findOwned(db, dataId, currentUser(request).id);
    if (!ev) throw new ApiError(ApiCode.NOT_FOUND, Msg.evidenceNotFound);
    return ok(await downloadData(ev));
  });

  app.post(EvidencePaths.codeDownload, async (request) => {
    const { code, baoquan } = parseInput(CodeDownloadBody, request.body);
    const subject = `${request.ip}|${baoquan}`;
    if (await isThrottled(db, EXTRACT_CODE_POLICY, subject)) {
      throw new ApiError(ApiCode.TOO_MANY_REQUESTS, Msg.tooManyRequests);
    }
    const ev = await findByBaoquan(db, baoquan);
    if (!ev) throw new ApiError(ApiCode.NOT_FOUND, Msg.evidenceNotFound);
    const owner = await db
      .selectFrom('users')
      .select('extract_code')
      .where('id', '=', ev.user_id)
      .executeTakeFirst();
    if (!owner || !safeEqual(owner.extract_code, code)) {
      await recordFailure(db, EXTRACT_CODE_POLICY, subject);
      throw new ApiError(ApiCode.BAD_REQUEST, Msg.extractCodeWrong);
    }
    await clearFailures(db, EXTRACT_CODE_POLICY, subject);
    return ok(await downloadData(ev));
  });

  app.post(EvidenceKindPaths.downloadBatch, { preHandler: app.requireUser }, async (request) => {
    const { dataIdStr } = parseInput(BatchBody, request.body);
    const tokens = dataIdStr
      .split(',')
      .map((t) => t.trim())
      .filter((t) => t !== '');
    if (tokens.length === 0) throw new ApiError(ApiCode.BAD_REQUEST, Msg.selectEvidenceToDownload);
    const ids = [...new Set(tokens.filter((t) => /^\d{1,15}$/.test(t)).map(Number))].filter((n) => n > 0);
    if (ids.length > BATCH_MAX_ITEMS)
      throw new ApiError(ApiCode.BAD_REQUEST, Msg.batchTooMany(BATCH_MAX_ITEMS));
    const rows = new Map((await findOwnedMany(db, ids, currentUser(request).id)).map((r) => [r.id, r]));
    const exp = nowSeconds() + downloadUrlTtlSeconds;
    const list: BatchDownloadData['list'] = [];
    const items: string[] = [];
    for (const id of ids) {
      const ev = rows.get(id);
      // unknown, foreign and deleted ids are skipped; hash evidence has a package (proof + certificate) but no bytes
      if (!ev || ev.deleted_at !== null) continue;
      if (ev.kind !== 'hash' && !(await hasStoredBytes(app.storage, ev))) continue;
      const item = app.downloads.batchItem(ev.baoquan, exp);
      const sig = item.slice(item.lastIndexOf('.') + 1);
      list.push({
        id: ev.id,
        baoquan: ev.baoquan,
        title: ev.title,
        packageUrl: `${packagePath(ev.baoquan)}?exp=${exp}&sig=${sig}`,
      });
      items.push(item);
    }
    if (list.length === 0) throw new ApiError(ApiCode.BAD_REQUEST, Msg.noDownloadFiles);
    const data: BatchDownloadData = { list, batchUrl: `${BATCH_ZIP_PATH}?items=${items.join(',')}` };
    return ok(data);
  });

  app.get(`${FILE_ROUTE_PREFIX}:baoquan`, async (request, reply) => {
    const { baoquan } = parseInput(FileParams, request.params);
    const { exp, sig } = parseInput(FileQuery, request.query);
    if (!app.downloads.verify(baoquan, exp, sig, nowSeconds())) {
      throw new ApiError(ApiCode.FORBIDDEN, Msg.downloadLinkInvalid, 403);
    }
    const ev = await findByBaoquan(db, baoquan);
    if (ev && ev.deleted_at !== null) throw new ApiError(ApiCode.NOT_FOUND, Msg.evidenceDeleted, 404);
    if (!ev || !(await hasStoredBytes(app.storage, ev))) {
      throw new ApiError(ApiCode.NOT_FOUND, Msg.evidenceMissing, 404);
    }
    return reply
      .header('content-type', ev.mime)
      .header('content-length', String(ev.file_size))
      .header('content-disposition', contentDisposition(ev.file_name))
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .send(app.storage.openRead(ev.storage_key));
  });

  // The gateway asks this before it streams /attestation/<baoquan>/package.zip (or each batch item): it never holds
  // the key. HTTP 403 + envelope for a bad/expired signature or deleted data, 404 when a file's bytes are missing.
  app.get(`${FILE_ROUTE_PREFIX}:baoquan/authorize`, async (request) => {
    const { baoquan } = parseInput(FileParams, request.params);
    const { exp, sig, purpose } = parseInput(AuthorizeQuery, request.query);
    const now = nowSeconds();
    if (purpose !== 'package' || !app.downloads.verifyPackage(baoquan, exp, sig, now)) {
      throw new ApiError(ApiCode.FORBIDDEN, Msg.downloadLinkInvalid, 403);
    }
    const ev = await findByBaoquan(db, baoquan);
    if (!ev) throw new ApiError(ApiCode.FORBIDDEN, Msg.downloadLinkInvalid, 403);
    if (ev.deleted_at !== null) throw new ApiError(ApiCode.FORBIDDEN, Msg.evidenceDeleted, 403);
    const hashOnly = ev.kind === 'hash';
    if (!hashOnly && !(await hasStoredBytes(app.storage, ev))) {
      throw new ApiError(ApiCode.NOT_FOUND, Msg.evidenceMissing, 404);
    }
    const data: PackageAuthorization = {
      baoquan: ev.baoquan,
      fileName: hashOnly ? null : ev.file_name,
      kind: ev.kind,
      title: ev.title,
      downUrl: hashOnly ? null : app.downloads.url(ev.baoquan, now, downloadUrlTtlSeconds),
    };
    return ok(data);
  });
}
