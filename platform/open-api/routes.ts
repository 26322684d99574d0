/**
 * The open API's routes (contract/open-api.ts `OpenApiPaths`; decision 038): preserve a file
 * (raw bytes) or a hash with optional device fields, read one's evidence, and the credentials' state `/newMobile`
 * shows. Signed calls are checked in platform/open-api/signed-request.ts; the saves are the evidence area's own
 * (evidence/save.ts), so an API upload is stored, ledgered and listed like any other.
 *
 * Order of an upload: headers checked (no body read on a refusal), the body streamed into the temp area while hashed
 * (at most MAX_UPLOAD_BYTES), the signature checked against that digest and the nonce recorded, then the save — so a
 * forged, replayed or oversize upload leaves no row and no file.
 *
 * In this scope every answer's HTTP status equals its envelope code (partner systems read the status).
 */
import { createHash } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { API_BODY_LIMIT_BYTES, fail, ok, type ApiCodeValue } from '../../contract/envelope.ts';
import { Msg } from '../../contract/messages.ts';
import {
  DEVICE_FIELD_NAMES,
  type DeviceFields,
  OpenApiMsg,
  OpenApiPaths,
  type OpenApiState,
  OpenEvidenceView,
  OpenFileQuery,
  OpenHashBody,
  type OpenSaveData,
} from '../../contract/open-api.ts';
import { formatBeijing } from '../../contract/time.ts';
import { SaveHashBody } from '../../contract/evidence.ts';
import { currentUser } from '../account/auth.ts';
import { ApiError, parseInput, requestErrorMessage } from '../core/errors.ts';
import { formatBeijingDate } from '../evidence/certificate.ts';
import { deviceOf, findByBaoquan } from '../evidence/lookup.ts';
import { saveHashEvidence, saveUploadedFile, type SaveAs, type Saved } from '../evidence/save.ts';
import type { EvidenceExtras } from '../evidence/service.ts';
import { discardTemp, receiveToTemp, TooManyBytesError, type ReceivedFile } from '../files/temp.ts';
import { maskedSecurityKey } from '../kyc/security-key.ts';
import { checkSignedHeaders, completeSignature, openApiError } from './signed-request.ts';

/** SHA-256 of no bytes: what a GET signs as its body hash. */
const EMPTY_SHA256 = createHash('sha256').digest('hex');

/** The certificate page of `baoquan`, relative to the site. */
function certificatePath(baoquan: string): string {
  return `/attestation/${encodeURIComponent(baoquan)}`;
}

/** The device fields of `fields` as evidence columns; null when none was given (not app evidence). */
function deviceExtras(fields: DeviceFields): EvidenceExtras | null {
  const v = (k: keyof DeviceFields) => fields[k]?.trim() || null;
  if (!DEVICE_FIELD_NAMES.some((k) => v(k))) return null;
  return {
    app_type: v('appType'),
    config_name: v('configName'),
    config_model_name: v('configModelName'),
    config_version: v('configVersion'),
    config_processor: v('configProcessor'),
    config_core: v('configCore'),
  };
}

/** The open API's answer to a save. */
function saved(s: Saved, kind: OpenSaveData['kind']): ReturnType<typeof ok<OpenSaveData>> {
  const { id, baoquan, filehash, chainhash } = s.data;
  return ok({ id, baoquan, kind, filehash, chainhash, certificateUrl: certificatePath(baoquan) });
}

/** The raw JSON body kept by this scope's parser, for the body hash. */
interface RawJson {
  raw: Buffer;
}

/** Registers the open API (needs the services and auth plugins). */
export async function openApiRoutes(app: FastifyInstance): Promise<void> {
  const { maxUploadBytes } = app.config;
  const deps = { pdb: app.pdb, storage: app.files.bucket('evidence') };

  // The browser session's view of the credentials (for /newMobile): no signature, the usual envelope.
  app.get(OpenApiPaths.state, { preHandler: app.requireUser }, async (request) => {
    const user = currentUser(request);
    const profile = await app.pdb.db
      .selectFrom('kyc_profiles')
      .select(['app_id', 'security_key', 'security_key_sealed'])
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    const enterprise = user.user_status === '3' && user.account_type === 2;
    const appId = (enterprise && profile?.app_id) || '';
    const state: OpenApiState = {
      enterprise,
      appId,
      signingReady: appId !== '' && app.apiKeys.unseal(appId, profile?.security_key_sealed) !== null,
      securityKeyMasked: appId ? maskedSecurityKey(profile?.security_key) : '',
    };
    return ok(state);
  });

  await app.register(async function signed(scope) {
    scope.setErrorHandler((err: FastifyError | ApiError, request, reply) => {
      if (err instanceof ApiError) {
        const status = err.code >= 400 && err.code < 600 ? err.code : 400;
        return reply.code(status).send(fail(err.code, err.msg));
      }
      const status = err.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        request.log.info({ err }, 'open API: bad request');
        return reply.code(status).send(fail(status as ApiCodeValue, requestErrorMessage(err)));
      }
      request.log.error({ err }, 'open API: unhandled error');
      return reply.code(500).send(fail(500, Msg.serverError));
    });
    // JSON kept as bytes: the signature covers them exactly as sent. Files arrive as raw bytes, read in the handler.
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: API_BODY_LIMIT_BYTES },
      (_request, body, done) => done(null, { raw: body as Buffer } satisfies RawJson),
    );
    scope.addContentTypeParser('application/octet-stream', (_request, _payload, done) => done(null));

    scope.post(OpenApiPaths.file, async (request, reply) => {
      const pending = await checkSignedHeaders(app, request);
      if (!/^application\/octet-stream\s*(;|$)/i.test(request.headers['content-type'] ?? '')) {
        throw openApiError(400, OpenApiMsg.octetStream);
      }
      if (Number(request.headers['content-length']) > maxUploadBytes) {
        throw openApiError(413, Msg.fileTooLarge(maxUploadBytes));
      }
      const received = await receiveBody(request, app.tmpDir, maxUploadBytes);
      try {
        const userId = await completeSignature(app, pending, received.sha256);
        const q = parseInput(OpenFileQuery, request.query);
        const extras = deviceExtras(q);
        const as: SaveAs | undefined = extras ? { kind: 'app', extras } : undefined;
        const intake = {
          fields: { ...(q.title ? { title: q.title } : {}), ...(q.label ? { label: q.label } : {}) },
          files: [{ ...received, field: 'file', fileName: q.fileName ?? '' }],
          discard: async () => discardTemp(received),
        };
        const s = await saveUploadedFile(deps, userId, intake, as);
        request.log.info({ ...s.log, appId: pending.appId }, 'open API: evidence saved');
        reply.code(200);
        return saved(s, extras ? 'app' : 'file');
      } finally {
        await discardTemp(received);
      }
    });

    scope.post(OpenApiPaths.hash, async (request) => {
      const pending = await checkSignedHeaders(app, request);
      const raw = (request.body as RawJson | undefined)?.raw;
      if (!raw) throw openApiError(400, Msg.invalidJson);
      const userId = await completeSignature(app, pending, createHash('sha256').update(raw).digest('hex'));
      const body = parseInput(OpenHashBody, parseJson(raw));
      const hashBody = parseInput(SaveHashBody, {
        hash: body.hash,
        // the pages ask for a title; an API caller may leave it to the file's name or the hash (as uploads do)
        title: body.title?.trim() || body.fileName?.trim() || body.hash.slice(0, 16).toLowerCase(),
        label: body.label,
        fileName: body.fileName,
        fileSize: body.fileSize,
      });
      const s = await saveHashEvidence(deps, userId, hashBody, deviceExtras(body) ?? undefined);
      request.log.info({ ...s.log, appId: pending.appId }, 'open API: hash evidence saved');
      return saved(s, 'hash');
    });

    scope.get<{ Params: { baoquan: string } }>(OpenApiPaths.view, async (request) => {
      const pending = await checkSignedHeaders(app, request);
      const userId = await completeSignature(app, pending, EMPTY_SHA256);
      const ev = await findByBaoquan(app.pdb.db, request.params.baoquan.slice(0, 64));
      if (!ev || Number(ev.user_id) !== userId) throw openApiError(404, OpenApiMsg.notFound);
      const view: OpenEvidenceView = {
        baoquan: ev.baoquan,
        kind: ev.kind,
        title: ev.title,
        label: ev.label,
        fileName: ev.file_name,
        fileSize: Number(ev.file_size),
        fileType: ev.file_type,
        saveTime: formatBeijing(Number(ev.created_at)),
        filehash: ev.sha256,
        chainhash: ev.chainhash,
        leafIndex: Number(ev.leaf_index),
        deletedAt: ev.deleted_at === null ? null : formatBeijingDate(Number(ev.deleted_at)),
        certificateUrl: certificatePath(ev.baoquan),
        ...deviceOf(ev),
      };
      return ok(OpenEvidenceView.parse(view));
    });
  });
}

/** JSON.parse of the body, or ApiError 400 with the platform's message for malformed JSON. */
function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    throw openApiError(400, Msg.invalidJson);
  }
}

/**
 * The request's raw body received into the temp area (hashed on the way), at most `maxBytes`.
 * @throws ApiError 413 past `maxBytes`, 400 `Msg.uploadInterrupted` for a body cut off
 */
async function receiveBody(request: FastifyRequest, tmpDir: string, maxBytes: number): Promise<ReceivedFile> {
  try {
    return await receiveToTemp(request.raw, tmpDir, maxBytes);
  } catch (err) {
    if (err instanceof TooManyBytesError) throw openApiError(413, Msg.fileTooLarge(maxBytes));
    if (!request.raw.complete) {
      request.log.info({ err }, 'open API: upload cut off by the client; nothing kept');
      throw openApiError(400, Msg.uploadInterrupted);
    }
    throw err;
  }
}
