/**
 * Evidence events (docs/decisions/059-evidence-events.md): a row in `evidence_events` written in the same transaction
 * as the change it reports — an evidence saved, or what its certificate shows changed — so there is no event without
 * its change and no change without its event; consumers take them in order, each event going to one taker of a
 * consumer at most once.
 *
 * Order: every writer holds the ledger's write lock (`withLedgerTransaction`: SQLite `BEGIN IMMEDIATE`, PostgreSQL an
 * advisory lock shared by every process), so ids are allocated and committed in one order. A cursor that moved past
 * id N can therefore never miss a lower id committed later, which an id from a sequence alone would allow on
 * PostgreSQL (two transactions commit in the other order than they drew their ids).
 */
import type { Kysely } from 'kysely';
import type { EventKind, TakenEvent } from '../../contract/events.ts';
import type { Database } from '../db/schema.ts';
import { ledgerTransactions } from '../ledger/transaction.ts';
import type { EvidenceEventRow } from './schema.ts';

/** Events older than this are pruned (seconds: 7 days); a consumer away longer misses them. */
export const EVENT_RETENTION_SECONDS = 7 * 24 * 3600;
/** Rows one prune statement deletes, and how many statements one prune runs at most. */
const PRUNE_BATCH = 1000;
const PRUNE_BATCHES = 20;
/** Tries of a take whose cursor another taker moved first. */
const TAKE_ATTEMPTS = 5;

/** What changed, for {@link recordEvidenceEvent}. */
export interface NewEvidenceEvent {
  kind: EventKind;
  evidenceId: number;
  baoquan: string;
}

/**
 * Writes `event` inside `trx`, which must be the transaction of `withLedgerTransaction` (ledger/transaction.ts)
 * that also writes the change: the event commits with it or not at all, in the ledger lock's order (module comment).
 * The writer calls `signalEventsCommitted()` (signal.ts) once the transaction has committed.
 * @param now unix seconds
 * @throws Error when `trx` is not a ledger transaction (a programming error); database errors
 */
export async function recordEvidenceEvent(
  trx: Kysely<Database>,
  event: NewEvidenceEvent,
  now: number,
): Promise<void> {
  if (!ledgerTransactions.has(trx)) {
    throw new Error('evidence events are written inside withLedgerTransaction (decision 059)');
  }
  await trx
    .insertInto('evidence_events')
    .values({ kind: event.kind, evidence_id: event.evidenceId, baoquan: event.baoquan, created_at: now })
    .execute();
}

/**
 * Takes up to `max` events after `consumer`'s cursor, oldest first, and moves the cursor past them. The cursor moves
 * by a conditional update (`where last_id = <what this take read>`), so two takers of one consumer — in this process
 * or another — never get the same event: the one whose update finds the cursor moved reads again. At most once: an
 * event taken by a process that then dies is not taken again. A consumer's first take creates its cursor at 0 (every
 * event still kept).
 * @param max at least 1
 * @returns the events, or [] when none is new (or when other takers kept moving the cursor first
 *   {@link TAKE_ATTEMPTS} times)
 */
export async function takeEvents(
  db: Kysely<Database>,
  consumer: string,
  max: number,
  now: number = Math.floor(Date.now() / 1000),
): Promise<TakenEvent[]> {
  for (let attempt = 0; attempt < TAKE_ATTEMPTS; attempt++) {
    const cursor = await db
      .selectFrom('event_cursors')
      .select('last_id')
      .where('consumer', '=', consumer)
      .executeTakeFirst();
    if (!cursor) {
      await db
        .insertInto('event_cursors')
        .values({ consumer, last_id: 0, updated_at: now })
        .onConflict((oc) => oc.column('consumer').doNothing())
        .execute();
      continue;
    }
    const from = Number(cursor.last_id);
    const rows = await db
      .selectFrom('evidence_events')
      .select(['id', 'kind', 'evidence_id', 'baoquan', 'created_at'])
      .where('id', '>', from)
      .orderBy('id')
      .limit(max)
      .execute();
    if (rows.length === 0) return [];
    const moved = await db
      .updateTable('event_cursors')
      .set({ last_id: rows[rows.length - 1]!.id, updated_at: now })
      .where('consumer', '=', consumer)
      .where('last_id', '=', from)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 1) {
      return rows.map((r: EvidenceEventRow) => ({
        id: Number(r.id),
        kind: r.kind,
        evidenceId: Number(r.evidence_id),
        baoquan: r.baoquan,
        createdAt: Number(r.created_at),
      }));
    }
  }
  return [];
}

/**
 * Deletes events created more than `retentionSeconds` before `now`, at most 20,000 a run (the `events.prune` task
 * runs again soon enough for the rest).
 * @param now unix seconds
 * @returns how many were deleted
 */
export async function pruneEvents(
  db: Kysely<Database>,
  now: number = Math.floor(Date.now() / 1000),
  retentionSeconds: number = EVENT_RETENTION_SECONDS,
): Promise<number> {
  const before = now - retentionSeconds;
  let deleted = 0;
  for (let batch = 0; batch < PRUNE_BATCHES; batch++) {
    const ids = await db
      .selectFrom('evidence_events')
      .select('id')
      .where('created_at', '<', before)
      .orderBy('id')
      .limit(PRUNE_BATCH)
      .execute();
    if (ids.length === 0) break;
    const r = await db
      .deleteFrom('evidence_events')
      .where(
        'id',
        'in',
        ids.map((row) => row.id),
      )
      .executeTakeFirst();
    deleted += Number(r.numDeletedRows);
    if (ids.length < PRUNE_BATCH) break;
  }
  return deleted;
}
