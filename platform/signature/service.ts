/**
 * Signature seals (spec 01 §2.7, §3 Signature, §5): a user's seal PNGs in the `signatures` bucket of `app.files`
 * (`${dataDir}/signatures/<xx>/<random>` locally) with their rows. At most one default per user: setting one clears
 * the others in the same per-user transaction. A user keeps at most `MAX_SEALS` seals (our limit; the spec shows
 * none). A row is committed only with its file in place; a deleted seal's file is removed after the commit. Every
 * query is scoped to the owner: another user's ids read as not found.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { ApiCode } from '../../contract/envelope.ts';
import { MAX_SEALS, SignatureMsg } from '../../contract/signature.ts';
import { ApiError } from '../core/errors.ts';
import { withUserTransaction } from '../core/transactions.ts';
import type { PlatformDb } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { SignatureRow } from './schema.ts';
import { newObjectKey } from '../files/staged.ts';
import type { FileBucket } from '../files/storage.ts';
import type { ReceivedFile } from '../files/temp.ts';

const notFound = () => new ApiError(ApiCode.NOT_FOUND, SignatureMsg.sealNotFound);

/** The row of seal `id` if it belongs to `userId`. */
function findOwnedSeal(db: Kysely<Database>, userId: number, id: number) {
  return db
    .selectFrom('signatures')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** The seals of `userId`, newest first. */
export function listSeals(db: Kysely<Database>, userId: number): Promise<SignatureRow[]> {
  return db
    .selectFrom('signatures')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** The row of seal `id` whoever owns it (the signed image route has checked the URL's signature). */
export function findSeal(db: Kysely<Database>, id: number): Promise<SignatureRow | undefined> {
  return db.selectFrom('signatures').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A new seal: its name, whether it becomes the default, and the checked PNG in the temp area. */
export interface NewSeal {
  name: string;
  isDefault: boolean;
  file: ReceivedFile;
}

/**
 * Adds a seal for `userId`: the row and the file in one per-user transaction (the file is removed again if the
 * transaction fails).
 * @param now unix seconds
 * @returns the new row
 * @throws ApiError 400 `SignatureMsg.tooMany` at MAX_SEALS seals
 */
export async function addSeal(
  pdb: PlatformDb,
  storage: FileBucket,
  userId: number,
  seal: NewSeal,
  now: number,
): Promise<SignatureRow> {
  const key = newObjectKey();
  let stored = false;
  try {
    return await withUserTransaction(pdb, userId, async (trx) => {
      const { n } = await trx
        .selectFrom('signatures')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      if (Number(n) >= MAX_SEALS) throw new ApiError(ApiCode.BAD_REQUEST, SignatureMsg.tooMany(MAX_SEALS));
      if (seal.isDefault) {
        await trx.updateTable('signatures').set({ is_default: 0 }).where('user_id', '=', userId).execute();
      }
      const inserted = await trx
        .insertInto('signatures')
        .values({
          user_id: userId,
          name: seal.name,
          storage_key: key,
          file_size: seal.file.size,
          is_default: seal.isDefault ? 1 : 0,
          created_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await storage.putFile(seal.file.path, key);
      stored = true;
      return inserted;
    });
  } catch (err) {
    if (stored) await storage.delete(key).catch(() => undefined);
    throw err;
  }
}

/** Makes seal `id` of `userId` the one default. @throws ApiError 404 when it is not theirs */
export async function setDefaultSeal(pdb: PlatformDb, userId: number, id: number): Promise<void> {
  await withUserTransaction(pdb, userId, async (trx) => {
    if (!(await findOwnedSeal(trx, userId, id))) throw notFound();
    await trx.updateTable('signatures').set({ is_default: 0 }).where('user_id', '=', userId).execute();
    await trx.updateTable('signatures').set({ is_default: 1 }).where('id', '=', id).execute();
  });
}

/**
 * Deletes seal `id` of `userId`, then its file (a file left behind is logged, not an error).
 * @throws ApiError 404 when it is not theirs
 */
export async function deleteSeal(
  db: Kysely<Database>,
  storage: FileBucket,
  userId: number,
  id: number,
  log: FastifyBaseLogger,
): Promise<void> {
  const row = await findOwnedSeal(db, userId, id);
  if (!row) throw notFound();
  const r = await db
    .deleteFrom('signatures')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (Number(r.numDeletedRows) === 0) throw notFound();
  await storage.delete(row.storage_key).catch((err: unknown) => {
    log.warn({ err, sealId: id }, 'seal file left behind after delete');
  });
}
