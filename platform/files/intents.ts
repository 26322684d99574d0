/**
 * Objects announced before they are stored (issue 18: "no orphan objects"; decision 046): an evidence file is moved
 * into storage inside the transaction that inserts its row, so a process killed after the move and before the
 * commit would leave an object no row names. Its key is therefore written to `file_intents` (committed on its own)
 * before the transaction starts, and that transaction deletes the intent with the row's insert: after a commit no
 * intent remains, after a rollback the caller deletes object and intent, and after a crash the intent outlives the
 * process — the `files.sweep` job (platform/jobs) deletes the object of every intent older than the longest upload
 * and the intent with it.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { BucketName, FileStorage } from './storage.ts';

/** An intent older than this (seconds) belongs to a process that died: its object is deleted. */
export const INTENT_TTL_SECONDS = 6 * 3600;

/** Writes the intent to store `key` in `bucket` (its own statement, committed at once). */
export async function announceObject(db: Kysely<Database>, bucket: BucketName, key: string): Promise<void> {
  await db
    .insertInto('file_intents')
    .values({ bucket, storage_key: key, created_at: Math.floor(Date.now() / 1000) })
    .execute();
}

/** Deletes the intent (inside the transaction that inserts the object's row, or after a rollback). */
export async function clearIntent(db: Kysely<Database>, bucket: BucketName, key: string): Promise<void> {
  await db.deleteFrom('file_intents').where('bucket', '=', bucket).where('storage_key', '=', key).execute();
}

/**
 * Deletes the objects of intents older than `olderThanSeconds`, then the intents. A key that a row names (an intent
 * cleared late) is never deleted.
 * @returns how many objects were deleted
 */
export async function sweepIntents(
  db: Kysely<Database>,
  storage: FileStorage,
  olderThanSeconds = INTENT_TTL_SECONDS,
): Promise<number> {
  const before = Math.floor(Date.now() / 1000) - olderThanSeconds;
  const stale = await db
    .selectFrom('file_intents')
    .selectAll()
    .where('created_at', '<=', before)
    .limit(1000)
    .execute();
  let deleted = 0;
  for (const i of stale) {
    const named =
      i.bucket === 'evidence' &&
      (await db
        .selectFrom('evidences')
        .select('id')
        .where('storage_key', '=', i.storage_key)
        .executeTakeFirst());
    if (!named) {
      await storage.bucket(i.bucket as BucketName).delete(i.storage_key);
      deleted++;
    }
    await clearIntent(db, i.bucket as BucketName, i.storage_key);
  }
  return deleted;
}
