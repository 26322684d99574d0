/**
 * Receiving a KYC submission (spec 02 §3 submit payloads, §5): the multipart body of `companyAuthorize` /
 * `perAuthorize` is read by the platform's intake (files/intake.ts); each image part streams to a temp file under the
 * kind's byte limit (3 MB personal, 20 MB enterprise: the spec's message when over), text parts are collected. The
 * payload is then checked with the contract schema (contract/kyc.ts), images by their first bytes, and an
 * "unchanged" image (a value starting with http) must name an image the user really has. Stored in one per-user
 * transaction: profile, image rows and files, and the user's new state; replaced files are removed after the commit.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { ApiCode } from '../../contract/envelope.ts';
import {
  checkKycImage,
  isUnchangedImage,
  KYC_IMAGE_RULES,
  KYC_IMAGE_SNIFF_BYTES,
  type KycImageUpload,
} from '../../contract/kyc-images.ts';
import { ApiError } from '../core/errors.ts';
import { nowSeconds } from '../core/time.ts';
import { withUserTransaction } from '../core/transactions.ts';
import type { UsersTable } from '../account/schema.ts';
import { receiveMultipart } from '../files/intake.ts';
import { newObjectKey, StagedPuts } from '../files/staged.ts';
import type { FileBucket } from '../files/storage.ts';
import { discardTemp, readHead, type ReceivedFile } from '../files/temp.ts';
import { assertIdNumberFree, idTaken, isIdKeyViolation } from './id-number.ts';
import { KYC_IMAGE_FIELDS, type KycKind } from './profile.ts';

/** Text fields and received image files of one submission. */
export interface ReceivedSubmission {
  fields: Record<string, string>;
  files: Map<string, { file: ReceivedFile; fileName: string; mime?: string }>;
}

/** Releases every temp file of `s`. */
export async function discardSubmission(s: ReceivedSubmission | null): Promise<void> {
  if (!s) return;
  await Promise.all([...s.files.values()].map((f) => discardTemp(f.file)));
}

/**
 * Reads the multipart body with the platform's intake: image parts of `kind` to temp files (at most the kind's limit
 * each; the first part of a field wins), other and nameless file parts drained and ignored, text parts collected (at
 * most 40, 4 KiB each).
 * @throws ApiError 413 with the kind's "too large" message, ApiError 400 on a cut-off body; the multipart errors of
 *   @fastify/multipart
 */
export async function receiveSubmission(
  request: FastifyRequest,
  kind: KycKind,
  tmpDir: string,
): Promise<ReceivedSubmission> {
  const rule = KYC_IMAGE_RULES[kind];
  const imageFields = new Set(KYC_IMAGE_FIELDS[kind].map((f) => f.field));
  const intake = await receiveMultipart(request, tmpDir, {
    limits: { fileSize: rule.maxBytes, files: 6, fields: 40, fieldSize: 4096, parts: 50 },
    tooLarge: rule.tooLarge,
    accept: (field, fileName) => fileName !== '' && imageFields.has(field),
  });
  return {
    fields: intake.fields,
    files: new Map(intake.files.map((f) => [f.field, { file: f, fileName: f.fileName }])),
  };
}

/**
 * Validates `s` against `schema` (an async contract schema whose image fields accept an upload or an http string).
 * Unchanged images must exist among `storedFields`.
 * @returns the parsed text fields (images removed)
 * @throws ApiError 400 with the first message
 */
export async function validateSubmission<S extends z.ZodType>(
  s: ReceivedSubmission,
  kind: KycKind,
  schema: S,
  storedFields: Set<string>,
): Promise<Record<string, string>> {
  const values: Record<string, unknown> = { ...s.fields };
  for (const { field } of KYC_IMAGE_FIELDS[kind]) {
    const got = s.files.get(field);
    if (got) {
      const upload: KycImageUpload = {
        head: await readHead(got.file.path, KYC_IMAGE_SNIFF_BYTES),
        size: got.file.size,
        fileName: got.fileName,
      };
      values[field] = upload;
      const check = await checkKycImage(kind, upload);
      if (check.ok && !check.unchanged) got.mime = check.mime;
    }
  }
  const r = await schema.safeParseAsync(values);
  if (!r.success) throw new ApiError(ApiCode.BAD_REQUEST, r.error.issues[0]?.message ?? '参数错误');
  for (const { field, missing } of KYC_IMAGE_FIELDS[kind]) {
    if (!s.files.has(field) && (!isUnchangedImage(s.fields[field]) || !storedFields.has(field)))
      throw new ApiError(ApiCode.BAD_REQUEST, missing);
  }
  const text: Record<string, string> = {};
  const imageNames = new Set(KYC_IMAGE_FIELDS[kind].map((f) => f.field));
  for (const [k, v] of Object.entries(r.data as Record<string, unknown>)) {
    if (!imageNames.has(k) && (typeof v === 'string' || typeof v === 'number')) text[k] = String(v);
  }
  return text;
}

/** What a stored submission changes on the user row. */
export type UserKycUpdate = Partial<Pick<UsersTable, 'account_type' | 'auth_type' | 'user_name'>>;

/**
 * Stores a validated submission: profile (fields JSON, kind, auth type, submitted now, `idKey` — the personal ID
 * number's index key of id-number.ts, null for an enterprise), new images (row + file) replacing the field's old
 * ones, and the user → userStatus '2' (under review), check_remark cleared.
 * @throws ApiError 400 KycMsg-like "not editable" when the user is no longer at userStatus 1 or 4 (a concurrent
 *   submission won); ApiError 400 该身份证号已被其他账号认证 when the number is live on another account (also when a
 *   concurrent submission of it won); storage or database errors after removing the files it stored
 */
export async function storeSubmission(
  app: FastifyInstance,
  storage: FileBucket,
  userId: number,
  kind: KycKind,
  authType: number,
  text: Record<string, string>,
  s: ReceivedSubmission,
  userUpdate: UserKycUpdate,
  idKey: string | null = null,
): Promise<void> {
  const now = nowSeconds();
  const staged = new StagedPuts(storage);
  const replaced: string[] = [];
  try {
    await withUserTransaction(app.pdb, userId, async (trx) => {
      const u = await trx
        .selectFrom('users')
        .select('user_status')
        .where('id', '=', userId)
        .executeTakeFirst();
      if (!u || (u.user_status !== '1' && u.user_status !== '4'))
        throw new ApiError(ApiCode.BAD_REQUEST, NOT_EDITABLE);
      if (idKey) await assertIdNumberFree(trx, idKey, userId);
      const profile = {
        kind,
        auth_type: authType,
        fields_json: JSON.stringify(text),
        submitted_at: now,
        reviewed_at: null,
        id_key: idKey,
      };
      const existing = await trx
        .selectFrom('kyc_profiles')
        .select('user_id')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (existing)
        await trx.updateTable('kyc_profiles').set(profile).where('user_id', '=', userId).execute();
      else
        await trx
          .insertInto('kyc_profiles')
          .values({ user_id: userId, ...profile })
          .execute();
      // images of fields the kind does not have (a switch between personal and enterprise) go too
      const keep = new Set(KYC_IMAGE_FIELDS[kind].map((f) => f.field).filter((f) => !s.files.has(f)));
      const old = await trx.selectFrom('kyc_images').selectAll().where('user_id', '=', userId).execute();
      for (const row of old.filter((r) => !keep.has(r.field))) {
        await trx.deleteFrom('kyc_images').where('id', '=', row.id).execute();
        replaced.push(row.storage_key);
      }
      for (const [field, { file, mime }] of s.files) {
        const key = newObjectKey();
        await trx
          .insertInto('kyc_images')
          .values({
            user_id: userId,
            field,
            storage_key: key,
            mime: mime ?? 'application/octet-stream',
            file_size: file.size,
            created_at: now,
          })
          .execute();
        await staged.put(file.path, key);
      }
      await trx
        .updateTable('users')
        .set({ ...userUpdate, user_status: '2', check_remark: '' })
        .where('id', '=', userId)
        .execute();
    });
  } catch (err) {
    await staged.discard();
    throw isIdKeyViolation(err) ? idTaken() : err;
  }
  await Promise.all(
    replaced.map((k) =>
      storage.delete(k).catch((err: unknown) => app.log.warn({ err }, 'replaced KYC image left behind')),
    ),
  );
}

/** Answer when a submission arrives while the form is not editable (userStatus 2 or 3). Ours. */
export const NOT_EDITABLE = '当前认证状态不可修改资料';
