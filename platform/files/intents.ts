/**
 * Objects announced before they are stored (no orphan objects, decision 046): an evidence file is copied
 * into storage before the transaction that inserts its row (so the ledger's lock covers only the database work), and
 * a process killed after the copy and before the commit would leave an object no row names. Its key is therefore
 * written to `file_intents` (committed on its own) before the copy, and the transaction deletes the intent with the
 * row's insert: after a commit no intent remains, after a failure {@link withdrawObject} deletes object and intent,
 * and after a crash the intent outlives the process — the `files.sweep` job (platform/jobs) deletes the object of
 * every intent older than the longest upload and the intent with it. An object a row names is never deleted.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { BucketName, FileBucket, FileStorage } from './storage.ts';

/** An intent older than this (seconds) belongs to a process that died: its object is deleted. */
export const INTENT_TTL_SECONDS = 6 * 3600;

/** Writes the intent to store `key` in `bucket` (its own statement, committed at once). */
export async function announceObject(db: Kysely<Database>, bucket: BucketName, key: string): Promise<void> {
  await db
    .insertInto('file_intents')
    .values({ bucket, storage_key: key, created_at: Math.floor(Date.now() / 1000) })
    .execute();
}

/** Deletes the intent (inside the transaction that inserts the object's row, or after a failed save). */
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
    if (!(await namedByRow(db, i.bucket as BucketName, i.storage_key))) {
      await storage.bucket(i.bucket as BucketName).delete(i.storage_key);
      deleted++;
    }
    await clearIntent(db, i.bucket as BucketName, i.storage_key);
  }
  return deleted;
}

/**
 * Undoes the store of `key` announced in `bucketName` when its save failed (the copy or the transaction): deletes the
 * object unless a row names it (a commit whose acknowledgement was lost), then the intent. Never throws: when either
 * step fails, what is left (the intent, maybe the object) is the sweep's.
 */
export async function withdrawObject(
  db: Kysely<Database>,
  bucket: FileBucket,
  bucketName: BucketName,
  key: string,
): Promise<void> {
  try {
    if (!(await namedByRow(db, bucketName, key))) await bucket.delete(key);
    await clearIntent(db, bucketName, key);
  } catch {
    // left to files.sweep
  }
}

/** True when a row names `key` of `bucket` (only evidence objects have rows to check). */
async function namedByRow(db: Kysely<Database>, bucket: BucketName, key: string): Promise<boolean> {
  if (bucket !== 'evidence') return false;
  const row = await db.selectFrom('evidences').select('id').where('storage_key', '=', key).executeTakeFirst();
  return row !== undefined;
}
