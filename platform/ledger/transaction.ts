/**
 * The ledger's write transactions (docs/decisions/005-ledger.md "Group commit"): {@link withLedgerTransaction}
 * serializes appends against every other writer of the log (SQLite `BEGIN IMMEDIATE`, PostgreSQL a
 * transaction-scoped advisory lock, also across processes) and lets saves that arrive together share one
 * transaction; the state an append keeps per transaction ({@link LedgerTransaction}: the tree's right edge and the
 * rows held for one multi-row INSERT) and per database (the last committed right edge). ledger.ts appends.
 */
import { sql, type Insertable, type Kysely } from 'kysely';
import { sqliteImmediate } from '../core/transactions.ts';
import type { PlatformDb } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import type { LedgerLeavesTable, LedgerNodesTable } from './schema.ts';

/** Key of the PostgreSQL advisory lock that serializes appends ("CZLEDGER" as an int64-ish constant). */
const PG_LEDGER_LOCK_KEY = 7_190_733_110_001;

/** Most saves one ledger transaction carries (group commit, {@link withLedgerTransaction}). */
export const MAX_LEDGER_GROUP = 256;

/** A save waiting for its turn in {@link withLedgerTransaction}. */
interface PendingSave {
  fn: (trx: Kysely<Database>) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** The saves of one database waiting for a ledger transaction, and whether a transaction is running. */
interface SaveQueue {
  waiting: PendingSave[];
  running: boolean;
}

const saveQueues = new WeakMap<PlatformDb, SaveQueue>();

/**
 * Runs `fn` inside the one write transaction that may append to the ledger, serialized against every other append
 * (also across processes sharing the database): `fn`'s writes commit together or not at all, and its result is
 * returned once they are committed (durably: PostgreSQL's commit flushes the WAL; SQLite's WAL with
 * synchronous=FULL, platform/db/database.ts, survives a power loss). When `fn` throws, its writes are rolled back and the error rethrown.
 *
 * Group commit (decision 005): appends are serialized up to their commit, so one transaction per save caps the
 * ledger at one commit's latency per save (PostgreSQL on this machine: ~0.25 ms for a bare one-row insert, ~1 ms
 * for a save). Saves that arrive while a ledger transaction runs wait and then share the next one (at most
 * {@link MAX_LEDGER_GROUP}), each `fn` in a savepoint of its own, one after the other: a `fn` that throws rolls
 * back to its savepoint and rejects alone, the others commit. A lone save runs without savepoints, at once. If the
 * commit itself fails, every save of the group rejects with that error.
 * @throws what `fn` throws; a database error of the transaction (lock, commit)
 */
export function withLedgerTransaction<T>(
  pdb: PlatformDb,
  fn: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  let queue = saveQueues.get(pdb);
  if (!queue) {
    queue = { waiting: [], running: false };
    saveQueues.set(pdb, queue);
  }
  const q = queue;
  return new Promise<T>((resolve, reject) => {
    q.waiting.push({ fn, resolve: resolve as (value: unknown) => void, reject });
    if (!q.running) void drainSaves(pdb, q);
  });
}

/** Runs the waiting saves of `q`, a group per ledger transaction, until none waits. Never rejects. */
async function drainSaves(pdb: PlatformDb, q: SaveQueue): Promise<void> {
  q.running = true;
  try {
    while (q.waiting.length > 0) await runGroup(pdb, q.waiting.splice(0, MAX_LEDGER_GROUP));
  } finally {
    q.running = false;
  }
}

type Outcome = { ok: true; value: unknown } | { ok: false; err: unknown };

/**
 * The savepoint statements of a group: `first` opens the first save's savepoint, `next` releases the last one and
 * opens the next (one multi-statement simple query on PostgreSQL; SQLite runs statements one at a time, in process),
 * `rollback` undoes the current save and leaves its savepoint open, `release` ends the last.
 */
function savepointStatements(pdb: PlatformDb) {
  const name = 'ledger_save';
  return {
    first: sql.raw(`savepoint ${name}`),
    next:
      pdb.dialect === 'postgres'
        ? sql.raw(`release savepoint ${name}; savepoint ${name}`)
        : {
            execute: async (trx: Kysely<Database>) => {
              await sql.raw(`release savepoint ${name}`).execute(trx);
              await sql.raw(`savepoint ${name}`).execute(trx);
            },
          },
    rollback: sql.raw(`rollback to savepoint ${name}`),
    release: sql.raw(`release savepoint ${name}`),
  };
}

/** Runs `group` in one ledger transaction (see {@link withLedgerTransaction}) and settles each save. */
async function runGroup(pdb: PlatformDb, group: PendingSave[]): Promise<void> {
  const tx: LedgerTransaction = { pdb, edge: null, leaves: [], nodes: [] };
  const outcomes: Outcome[] = [];
  const body = async (trx: Kysely<Database>) => {
    ledgerTransactions.set(trx, tx);
    if (group.length === 1) {
      // a lone save: its error rolls the whole transaction back
      outcomes.push({ ok: true, value: await group[0]!.fn(trx) });
    } else {
      const marks = savepointStatements(pdb);
      let open = false;
      for (const save of group) {
        const edge = tx.edge;
        const held = [tx.leaves.length, tx.nodes.length] as const;
        // one round trip between two saves on PostgreSQL: the last one's release and the next one's savepoint
        await (open ? marks.next : marks.first).execute(trx);
        open = true;
        try {
          outcomes.push({ ok: true, value: await save.fn(trx) });
        } catch (err) {
          tx.edge = edge;
          tx.leaves.length = held[0];
          tx.nodes.length = held[1];
          await marks.rollback.execute(trx);
          outcomes.push({ ok: false, err });
        }
      }
      await marks.release.execute(trx);
    }
    await flushAppends(trx, tx);
  };
  try {
    if (pdb.dialect === 'postgres') {
      await pdb.db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(${PG_LEDGER_LOCK_KEY}::bigint)`.execute(trx);
        await body(trx);
      });
    } else {
      // SQLite: BEGIN IMMEDIATE takes the write lock up front, so reading the tree size and appending cannot
      // interleave with another writer.
      await sqliteImmediate(pdb, body);
    }
  } catch (err) {
    // Rolled back: a save that failed on its own keeps its error, the others get the transaction's.
    group.forEach((save, i) => {
      const outcome = outcomes[i];
      save.reject(outcome && !outcome.ok ? outcome.err : err);
    });
    return;
  }
  // Committed: the transaction's right edge is now the tree's (a rolled-back one never gets here).
  if (tx.edge) committedEdges.set(pdb, tx.edge);
  group.forEach((save, i) => {
    const outcome = outcomes[i]!;
    if (outcome.ok) save.resolve(outcome.value);
    else save.reject(outcome.err);
  });
}

/**
 * The right edge of a tree of `size` leaves: for each level L whose bit is set in `size`, the hash of the perfect
 * subtree there (node index (size >> L) − 1, RFC 9162 §2.1.1's decomposition of the tree). Appending leaf `size`
 * needs exactly the edge's nodes below the level of its carry (tree.ts `appendPlan`'s siblings) and replaces them
 * with one node; stored nodes never change, so an edge read once stays true for its size.
 */
export interface RightEdge {
  size: number;
  /** Hex hashes by level. */
  nodes: Map<number, string>;
}

/** A ledger transaction in progress: its database and the right edge after its own appends (null before any). */
export interface LedgerTransaction {
  pdb: PlatformDb;
  edge: RightEdge | null;
  /** Leaf rows appended in this transaction, written by {@link flushAppends} before it commits. */
  leaves: Insertable<LedgerLeavesTable>[];
  /** Node rows those appends completed, likewise. */
  nodes: Insertable<LedgerNodesTable>[];
}

/** Rows per multi-row INSERT of {@link flushAppends} (PostgreSQL allows 65,535 parameters a statement). */
const FLUSH_ROWS = 1000;

/**
 * Writes the leaf and node rows the transaction's appends held back, a multi-row INSERT per {@link FLUSH_ROWS}
 * rows, and forgets them. Rows are held so that a group of saves costs two statements for its ledger part instead
 * of one or two per save.
 */
async function flushAppends(trx: Kysely<Database>, tx: LedgerTransaction): Promise<void> {
  for (let i = 0; i < tx.leaves.length; i += FLUSH_ROWS) {
    await trx
      .insertInto('ledger_leaves')
      .values(tx.leaves.slice(i, i + FLUSH_ROWS))
      .execute();
  }
  for (let i = 0; i < tx.nodes.length; i += FLUSH_ROWS) {
    await trx
      .insertInto('ledger_nodes')
      .values(tx.nodes.slice(i, i + FLUSH_ROWS))
      .execute();
  }
  tx.leaves = [];
  tx.nodes = [];
}

/** The transactions of {@link withLedgerTransaction}, by the Kysely handle their `fn` receives. */
export const ledgerTransactions = new WeakMap<Kysely<Database>, LedgerTransaction>();
/**
 * The right edge after the last append this process committed, per database. An append whose transaction finds the
 * tree at that size (read under the ledger lock) takes its siblings from here instead of reading them; any other
 * size (another process appended, or none yet) reads the edge from the stored nodes once.
 */
export const committedEdges = new WeakMap<PlatformDb, RightEdge>();
