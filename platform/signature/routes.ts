/**
 * Signature seal calls (contract `SignaturePaths`; spec 01 §2.7, §3 Signature, §5, §7):
 * - `POST /api/signature/listing` → Signature[] of the caller, newest first;
 * - `POST /api/signature/upload` multipart `{name, isDefault, file}` (our path; the spec does not show one): the name
 *   is checked first (签章名称不能为空), then the image: present (请上传签章图片), at most 10 MB
 *   (上传签章图片大小不能超过 10MB!, the stream stops at the limit) and a PNG by its magic bytes
 *   (上传签章图片只能是 png 格式!, whatever the file name says);
 * - `POST /api/signature/setDefault {id}`, `POST /api/signature/del {id}`;
 * - `GET /api/signature/image/:id?exp=&sig=` streams the PNG: the URL in `pic_url` is signed and expires
 *   (config DOWNLOAD_URL_TTL_SECONDS), so only whoever was handed the list can load it.
 * Ids of another user answer 404 签章不存在. The rules are in service.ts.
 */
import type { FastifyInstance } from 'fastify';
import { ApiCode, ok } from '../../contract/envelope.ts';
import { Msg } from '../../contract/messages.ts';
import {
  type Signature,
  SIGNATURE_MAX_BYTES,
  SignatureFields,
  SignatureMsg,
  SignaturePaths,
} from '../../contract/signature.ts';
import { IdBody } from '../../contract/validators.ts';
import { currentUser } from '../account/auth.ts';
import { ApiError, parseInput } from '../core/errors.ts';
import { formatBeijing, nowSeconds } from '../core/time.ts';
import type { SignatureRow } from './schema.ts';
import { registerSignedFileRoute, signedFileUrl } from '../files/signed-files.ts';
import { sniffType } from '../files/temp.ts';
import { addSeal, deleteSeal, findSeal, listSeals, setDefaultSeal } from './service.ts';

/** Signature purpose of seal image URLs. */
const SEAL_PURPOSE = 'seal';

/** Registers the signature routes (needs the services and auth plugins). */
export async function signatureRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.pdb;
  const storage = app.files.bucket('signatures');
  const ttl = app.config.downloadUrlTtlSeconds;

  function toSignature(r: SignatureRow, now: number): Signature {
    const id = Number(r.id);
    return {
      id,
      name: r.name,
      pic_url: signedFileUrl(app.downloads, SignaturePaths.signatureImage, SEAL_PURPOSE, id, now, ttl),
      is_default: r.is_default ? '1' : '0',
      add_time: formatBeijing(Number(r.created_at)),
    };
  }

  app.post(SignaturePaths.signatureListing, { preHandler: app.requireUser }, async (request) => {
    const rows = await listSeals(db, currentUser(request).id);
    const now = nowSeconds();
    return ok(rows.map((r) => toSignature(r, now)));
  });

  app.post(SignaturePaths.signatureUpload, { preHandler: app.requireUser }, async (request) => {
    const user = currentUser(request);
    if (!request.isMultipart()) throw new ApiError(ApiCode.BAD_REQUEST, SignatureMsg.imageRequired);
    const intake = await app.files.receive(request, {
      limits: { fileSize: SIGNATURE_MAX_BYTES, files: 1, fields: 10, fieldSize: 4096, parts: 12 },
      tooLarge: SignatureMsg.tooLarge,
      // a form sent without choosing a file carries an empty, nameless part
      accept: (_field, fileName) => fileName !== '',
    });
    try {
      const text = parseInput(SignatureFields, intake.fields);
      const file = intake.files[0];
      if (!file || file.size === 0) throw new ApiError(ApiCode.BAD_REQUEST, SignatureMsg.imageRequired);
      if ((await sniffType(file.path))?.ext !== 'png')
        throw new ApiError(ApiCode.BAD_REQUEST, SignatureMsg.pngOnly);
      const now = nowSeconds();
      const seal = { name: text.name ?? '', isDefault: text.isDefault === '1', file };
      const row = await addSeal(app.pdb, storage, user.id, seal, now);
      request.log.info({ userId: user.id, sealId: row.id, size: file.size }, 'signature seal added');
      return ok(toSignature(row, now), Msg.added);
    } finally {
      await intake.discard();
    }
  });

  app.post(SignaturePaths.signatureSetDefault, { preHandler: app.requireUser }, async (request) => {
    const { id } = parseInput(IdBody, request.body);
    await setDefaultSeal(app.pdb, currentUser(request).id, id);
    return ok(null, SignatureMsg.defaultSet);
  });

  app.post(SignaturePaths.signatureDel, { preHandler: app.requireUser }, async (request) => {
    const { id } = parseInput(IdBody, request.body);
    await deleteSeal(db, storage, currentUser(request).id, id, request.log);
    return ok(null, SignatureMsg.deleted);
  });

  registerSignedFileRoute(app, {
    prefix: SignaturePaths.signatureImage,
    purpose: SEAL_PURPOSE,
    storage,
    notFound: SignatureMsg.sealNotFound,
    cacheControl: 'private, max-age=300',
    lookup: async (id) => {
      const row = await findSeal(db, id);
      return row && { storage_key: row.storage_key, file_size: row.file_size, mime: 'image/png' };
    },
  });
}
