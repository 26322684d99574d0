/**
 * What happens to an evidence after it is saved (spec 01 §2.4; docs/decisions/006-evidence-kinds.md): its label
 * changes, its stored data is deleted by the owner (the row and the ledger entry stay), and the start-up sweep
 * finishes deletions a crash interrupted.
 *
 * Deletion order (never a row claiming bytes that are gone): 1. `deleted_at` is set (committed), so from then on
 * nothing serves the bytes; 2. the bytes are removed from storage; 3. `purged_at` is set. A crash between 1 and 3
 * leaves at worst an orphan file of a row that says "deleted", which {@link sweepDeletedData} removes at start.
 */
import type { Kysely } from 'kysely';
import type { PlatformDb } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { EvidenceRow } from './schema.ts';
import { recordEvidenceEvent } from '../events/events.ts';
import { signalEventsCommitted } from '../events/signal.ts';
import type { FileBucket } from '../files/storage.ts';
import { withLedgerTransaction } from '../ledger/ledger.ts';

/** Rows the sweep handles per query. */
const SWEEP_PAGE = 500;

/**
 * Sets the label of evidence `id` when `userId` owns it ('' clears it).
 * @returns true when the evidence is the caller's (and was updated), false when it is not found or someone else's
 */
export async function setLabel(
  db: Kysely<Database>,
  id: number,
  userId: number,
  label: string,
): Promise<boolean> {
  const r = await db
    .updateTable('evidences')
    .set({ label })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Removes the bytes of a row marked deleted and records that they are gone. Storage errors propagate. */
async function purge(
  db: Kysely<Database>,
  storage: FileBucket,
  ev: Pick<EvidenceRow, 'id' | 'storage_key'>,
  now: number,
): Promise<void> {
  if (ev.storage_key !== '') await storage.delete(ev.storage_key);
  await db
    .updateTable('evidences')
    .set({ purged_at: now })
    .where('id', '=', ev.id)
    .where('purged_at', 'is', null)
    .execute();
}

/**
 * Deletes the stored data of evidence `id` if `userId` owns it, in the order of the module comment. Idempotent:
 * deleting again keeps the first date (and retries a purge that failed). The first deletion changes what the
 * certificate shows (its deletion date, no download): its `state-changed` event (platform/events; decision 059)
 * commits with `deleted_at`, in a ledger transaction as every event's (events.ts), and wakes the consumers.
 * @param now unix seconds
 * @returns `deletedAt` unix seconds, or null when the evidence is not found or someone else's
 */
export async function deleteEvidenceData(
  pdb: PlatformDb,
  storage: FileBucket,
  id: number,
  userId: number,
  now: number,
): Promise<number | null> {
  const { db } = pdb;
  const marked = await withLedgerTransaction(pdb, async (trx) => {
    const row = await trx
      .updateTable('evidences')
      .set({ deleted_at: now })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .returning('baoquan')
      .executeTakeFirst();
    if (row)
      await recordEvidenceEvent(trx, { kind: 'state-changed', evidenceId: id, baoquan: row.baoquan }, now);
    return row !== undefined;
  });
  if (marked) signalEventsCommitted();
  const ev = await db
    .selectFrom('evidences')
    .select(['id', 'storage_key', 'deleted_at', 'purged_at'])
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!ev || ev.deleted_at === null) return null;
  if (ev.purged_at === null) await purge(db, storage, ev, now);
  return ev.deleted_at;
}

/**
 * Start-up sweep: removes the bytes of every evidence marked deleted whose purge did not complete (a crash or a
 * storage error after `deleted_at` was set). Failures are logged through `onError` and retried on the next start.
 * @param now unix seconds
 * @returns how many evidences were purged
 */
export async function sweepDeletedData(
  db: Kysely<Database>,
  storage: FileBucket,
  now: number,
  onError: (err: unknown, id: number) => void = () => undefined,
): Promise<number> {
  let purged = 0;
  let afterId = 0;
  for (;;) {
    const rows = await db
      .selectFrom('evidences')
      .select(['id', 'storage_key'])
      .where('deleted_at', 'is not', null)
      .where('purged_at', 'is', null)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(SWEEP_PAGE)
      .execute();
    if (rows.length === 0) return purged;
    for (const ev of rows) {
      afterId = ev.id;
      try {
        await purge(db, storage, ev, now);
        purged++;
      } catch (err) {
        onError(err, ev.id);
      }
    }
  }
}
