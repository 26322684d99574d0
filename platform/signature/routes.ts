/**
 * Signature seal calls (issue 4; contract `AccountAreaPaths`; spec 01 §2.7, §3 Signature, §5, §7):
 * - `POST /api/signature/listing` → Signature[] of the caller, newest first;
 * - `POST /api/signature/upload` multipart `{name, isDefault, file}` (our path; the spec does not show one): the name
 *   is checked first (签章名称不能为空), then the image: present (请上传签章图片), at most 10 MB
 *   (上传签章图片大小不能超过 10MB!, the stream stops at the limit) and a PNG by its magic bytes
 *   (上传签章图片只能是 png 格式!, whatever the file name says);
 * - `POST /api/signature/setDefault {id}`, `POST /api/signature/del {id}`;
 * - `GET /api/signature/image/:id?exp=&sig=` streams the PNG: the URL in `pic_url` is signed and expires
 *   (config DOWNLOAD_URL_TTL_SECONDS), so only whoever was handed the list can load it.
 * At most one default per user: setting one clears the others in the same per-user transaction. Ids of another
 * user answer 404 签章不存在. A user keeps at most {@link MAX_SEALS} seals (our limit; the spec shows none).
 * The bytes live in `${dataDir}/signatures/<xx>/<random>`; a row is committed only with its file in place, and a
 * deleted seal's file is removed after the commit.
 */
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fileTypeFromFile } from 'file-type';
import type { Kysely } from 'kysely';
import {
  AccountAreaMsg,
  AccountAreaPaths,
  ApiCode,
  IdBody,
  Msg,
  SIGNATURE_MAX_BYTES,
  SignatureFields,
  SignatureMsg,
  ok,
  type Signature,
} from '../../contract/index.ts';
import { currentUser } from '../account/auth.ts';
import { randomCrockford } from '../core/crypto.ts';
import { ApiError, parseInput } from '../core/errors.ts';
import { registerSignedFileRoute, signedFileUrl } from '../core/signed-files.ts';
import { formatBeijing, nowSeconds } from '../core/time.ts';
import { withUserTransaction } from '../core/transactions.ts';
import type { Database, SignatureRow } from '../db/schema.ts';
import { discardTemp } from '../evidence/service.ts';
import { LocalDirectoryStorage } from '../evidence/storage.ts';
import { receiveToTemp, type ReceivedFile } from '../evidence/upload.ts';

/** Most seals one user keeps (our limit against abuse; the spec shows none). */
export const MAX_SEALS = 20;
/** Path prefix of the seal image route. */
export const SEAL_IMAGE_PREFIX = '/api/signature/image/';
const SEAL_PURPOSE = 'seal';

/** The row of seal `id` if it belongs to `userId`. */
function findOwnedSeal(db: Kysely<Database>, userId: number, id: number) {
  return db
    .selectFrom('signatures')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Registers the signature routes (needs the services and auth plugins). */
export async function signatureRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.pdb;
  const storage = new LocalDirectoryStorage(path.join(app.config.dataDir, 'signatures'));
  const ttl = app.config.downloadUrlTtlSeconds;

  function toSignature(r: SignatureRow, now: number): Signature {
    const id = Number(r.id);
    return {
      id,
      name: r.name,
      pic_url: signedFileUrl(app, SEAL_IMAGE_PREFIX, SEAL_PURPOSE, id, now, ttl),
      is_default: r.is_default ? '1' : '0',
      add_time: formatBeijing(Number(r.created_at)),
    };
  }

  app.post(AccountAreaPaths.signatureListing, { preHandler: app.requireUser }, async (request) => {
    const rows = await db
      .selectFrom('signatures')
      .selectAll()
      .where('user_id', '=', currentUser(request).id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    const now = nowSeconds();
    return ok(rows.map((r) => toSignature(r, now)));
  });

  /** Reads the multipart upload: text fields, and the image into a temp file (null when no file was chosen). */
  async function receiveSeal(request: FastifyRequest) {
    const fields: Record<string, string> = {};
    let received: ReceivedFile | null = null;
    let tooLarge = false;
    try {
      const parts = request.parts({
        limits: { fileSize: SIGNATURE_MAX_BYTES, files: 1, fields: 10, fieldSize: 4096, parts: 12 },
      });
      for await (const part of parts) {
        if (part.type === 'file') {
          if (!part.filename) {
            // a form sent without choosing a file carries an empty, nameless part
            part.file.resume();
            continue;
          }
          received = await receiveToTemp(part.file, app.tmpDir);
          tooLarge = part.file.truncated;
        } else if (typeof part.value === 'string') {
          fields[part.fieldname] = part.value;
        }
      }
    } catch (err) {
      await discardTemp(received);
      // @fastify/multipart throws when the stream hits the size limit (throwFileSizeLimit)
      if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
        throw new ApiError(ApiCode.PAYLOAD_TOO_LARGE, SignatureMsg.tooLarge);
      throw err;
    }
    return { fields, received, tooLarge };
  }

  app.post(AccountAreaPaths.signatureUpload, { preHandler: app.requireUser }, async (request) => {
    const user = currentUser(request);
    if (!request.isMultipart()) throw new ApiError(ApiCode.BAD_REQUEST, SignatureMsg.imageRequired);
    const { fields, received, tooLarge } = await receiveSeal(request);
    try {
      const text = parseInput(SignatureFields, fields);
      if (!received || received.size === 0)
        throw new ApiError(ApiCode.BAD_REQUEST, SignatureMsg.imageRequired);
      if (tooLarge) throw new ApiError(ApiCode.PAYLOAD_TOO_LARGE, SignatureMsg.tooLarge);
      const type = await fileTypeFromFile(received.path);
      if (type?.ext !== 'png') throw new ApiError(ApiCode.BAD_REQUEST, SignatureMsg.pngOnly);
      const key = `${randomCrockford(2)}/${randomCrockford(26)}`;
      const now = nowSeconds();
      let stored = false;
      try {
        const row = await withUserTransaction(app.pdb, user.id, async (trx) => {
          const { n } = await trx
            .selectFrom('signatures')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('user_id', '=', user.id)
            .executeTakeFirstOrThrow();
          if (Number(n) >= MAX_SEALS) throw new ApiError(ApiCode.BAD_REQUEST, `最多保存${MAX_SEALS}个签章`);
          if (text.isDefault === '1') {
            await trx
              .updateTable('signatures')
              .set({ is_default: 0 })
              .where('user_id', '=', user.id)
              .execute();
          }
          const inserted = await trx
            .insertInto('signatures')
            .values({
              user_id: user.id,
              name: text.name ?? '',
              storage_key: key,
              file_size: received.size,
              is_default: text.isDefault === '1' ? 1 : 0,
              created_at: now,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
          await storage.putFile(received.path, key);
          stored = true;
          return inserted;
        });
        request.log.info({ userId: user.id, sealId: row.id, size: received.size }, 'signature seal added');
        return ok(toSignature(row, now), Msg.added);
      } catch (err) {
        if (stored) await storage.remove(key).catch(() => undefined);
        throw err;
      }
    } finally {
      await discardTemp(received);
    }
  });

  app.post(AccountAreaPaths.signatureSetDefault, { preHandler: app.requireUser }, async (request) => {
    const user = currentUser(request);
    const { id } = parseInput(IdBody, request.body);
    await withUserTransaction(app.pdb, user.id, async (trx) => {
      if (!(await findOwnedSeal(trx, user.id, id)))
        throw new ApiError(ApiCode.NOT_FOUND, AccountAreaMsg.sealNotFound);
      await trx.updateTable('signatures').set({ is_default: 0 }).where('user_id', '=', user.id).execute();
      await trx.updateTable('signatures').set({ is_default: 1 }).where('id', '=', id).execute();
    });
    return ok(null, '设置成功');
  });

  app.post(AccountAreaPaths.signatureDel, { preHandler: app.requireUser }, async (request) => {
    const user = currentUser(request);
    const { id } = parseInput(IdBody, request.body);
    const row = await findOwnedSeal(db, user.id, id);
    if (!row) throw new ApiError(ApiCode.NOT_FOUND, AccountAreaMsg.sealNotFound);
    const r = await db
      .deleteFrom('signatures')
      .where('id', '=', id)
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    if (Number(r.numDeletedRows) === 0) throw new ApiError(ApiCode.NOT_FOUND, AccountAreaMsg.sealNotFound);
    await storage.remove(row.storage_key).catch((err: unknown) => {
      request.log.warn({ err, sealId: id }, 'seal file left behind after delete');
    });
    return ok(null, '删除成功');
  });

  registerSignedFileRoute(app, {
    prefix: SEAL_IMAGE_PREFIX,
    purpose: SEAL_PURPOSE,
    storage,
    notFound: AccountAreaMsg.sealNotFound,
    cacheControl: 'private, max-age=300',
    lookup: async (id) => {
      const row = await db.selectFrom('signatures').selectAll().where('id', '=', id).executeTakeFirst();
      return row && { storage_key: row.storage_key, file_size: row.file_size, mime: 'image/png' };
    },
  });
}
