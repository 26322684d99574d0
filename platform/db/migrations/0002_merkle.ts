/**
 * The Merkle ledger (RFC 9162 §2.1; docs/decisions/005-ledger.md). Replaces the hash chain of 0001_initial:
 * - `ledger_leaves` (leaf_index PK 0-based, leaf_hash unique, evidence_id unique → evidences, record_json, created_at):
 *   one leaf per evidence, leaf_hash = SHA-256(0x00 ‖ UTF-8 record_json), the evidence's chainhash;
 * - `ledger_nodes` ((level, idx) PK, hash): the hash of every complete subtree of two or more leaves, the node at
 *   (L, i) covering leaves [i·2^L, (i+1)·2^L); written once by the append that completes it, never changed;
 * - the chain's rows of `ledger_entries` become leaves in seq order (leaf_index = seq − 1), their leaf input being the
 *   stored record_json as it is, so every existing evidence keeps its record but gets a NEW chainhash (its leaf hash);
 * - `ledger_leaves.legacy_entry_hash` keeps the chain's entry_hash of those rows (unique, null for new leaves), so a
 *   chain hash printed on an old certificate still finds its entry in the explorer;
 * - `ledger_entries` becomes a read-only view over `ledger_leaves` (seq = leaf_index + 1, entry_hash = leaf_hash) for
 *   readers of the chain; new code reads `ledger_leaves`.
 * Hashes are 64 lower-case hex; times unix seconds. Self-contained on purpose (a migration must not change when the
 * ledger code does): the hashing is inlined.
 */
import { createHash } from 'node:crypto';
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../dialect.ts';

/** Rows per INSERT while copying (5 parameters a leaf: well under SQLite's variable limit). */
const COPY_PAGE = 500;

const sha256 = (...parts: Buffer[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};
const leafOf = (recordJson: string) => sha256(Buffer.from([0]), Buffer.from(recordJson, 'utf8'));
const nodeOf = (left: Buffer, right: Buffer) => sha256(Buffer.from([1]), left, right);

const VIEW_SQL = sql`create view ledger_entries as
  select leaf_index + 1 as seq, evidence_id, leaf_hash as entry_hash, record_json, created_at from ledger_leaves`;

/** The migration for `dialect` (SQLite stores the node table WITHOUT ROWID). */
export function merkleLedger(dialect: Dialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('ledger_leaves')
        // on SQLite an INTEGER PRIMARY KEY is the rowid itself: no second index for the position
        .addColumn('leaf_index', dialect === 'sqlite' ? 'integer' : 'bigint', (c) => c.primaryKey())
        .addColumn('leaf_hash', 'char(64)', (c) => c.notNull().unique())
        .addColumn('evidence_id', 'bigint', (c) => c.notNull().unique().references('evidences.id'))
        .addColumn('record_json', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('legacy_entry_hash', 'char(64)', (c) => c.unique())
        .execute();
      let nodes = db.schema
        .createTable('ledger_nodes')
        .addColumn('level', 'integer', (c) => c.notNull())
        .addColumn('idx', 'bigint', (c) => c.notNull())
        .addColumn('hash', 'char(64)', (c) => c.notNull())
        .addPrimaryKeyConstraint('ledger_nodes_pk', ['level', 'idx']);
      if (dialect === 'sqlite') nodes = nodes.modifyEnd(sql`without rowid`);
      await nodes.execute();

      // Copy the chain into the tree, in seq order, with the frontier (latest node per level) in memory.
      const frontier: Buffer[] = [];
      let index = 0;
      for (;;) {
        const rows: {
          seq: number;
          evidence_id: number;
          entry_hash: string;
          record_json: string;
          created_at: number;
        }[] = await db
          .selectFrom('ledger_entries')
          .select(['seq', 'evidence_id', 'entry_hash', 'record_json', 'created_at'])
          .where('seq', '>', index)
          .orderBy('seq')
          .limit(COPY_PAGE)
          .execute();
        if (rows.length === 0) break;
        const leaves = [];
        const created = [];
        for (const r of rows) {
          if (Number(r.seq) !== index + 1) throw new Error(`ledger_entries: seq ${index + 1} is missing`);
          // the new leaf and the nodes it completes; frontier[level] is the left sibling at each level
          const chain = [leafOf(r.record_json)];
          leaves.push({
            leaf_index: index,
            leaf_hash: chain[0]!.toString('hex'),
            evidence_id: r.evidence_id,
            record_json: r.record_json,
            created_at: r.created_at,
            legacy_entry_hash: r.entry_hash,
          });
          for (let i = index, level = 0; i % 2 === 1; i = (i - 1) / 2, level++) {
            const node = nodeOf(frontier[level]!, chain[level]!);
            chain.push(node);
            created.push({ level: level + 1, idx: (i - 1) / 2, hash: node.toString('hex') });
          }
          chain.forEach((h, level) => (frontier[level] = h));
          index++;
        }
        await db.insertInto('ledger_leaves').values(leaves).execute();
        for (let i = 0; i < created.length; i += COPY_PAGE) {
          await db
            .insertInto('ledger_nodes')
            .values(created.slice(i, i + COPY_PAGE))
            .execute();
        }
      }
      await db.schema.dropTable('ledger_entries').execute();
      await VIEW_SQL.execute(db);
    },

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await sql`drop view if exists ledger_entries`.execute(db);
      await db.schema
        .createTable('ledger_entries')
        .addColumn('seq', 'bigint', (c) => c.primaryKey())
        .addColumn('evidence_id', 'bigint', (c) => c.notNull().unique().references('evidences.id'))
        .addColumn('prev_hash', 'char(64)', (c) => c.notNull().unique())
        .addColumn('record_hash', 'char(64)', (c) => c.notNull())
        .addColumn('entry_hash', 'char(64)', (c) => c.notNull().unique())
        .addColumn('record_json', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      // the chain of 0001_initial: entry_hash = SHA-256(prev_hash ‖ SHA-256(record_json)), genesis 64 zeros
      let prev = Buffer.alloc(32);
      let from = 0;
      for (;;) {
        const rows: { leaf_index: number; evidence_id: number; record_json: string; created_at: number }[] =
          await db
            .selectFrom('ledger_leaves')
            .select(['leaf_index', 'evidence_id', 'record_json', 'created_at'])
            .where('leaf_index', '>=', from)
            .orderBy('leaf_index')
            .limit(COPY_PAGE)
            .execute();
        if (rows.length === 0) break;
        const entries = rows.map((r) => {
          const record = sha256(Buffer.from(r.record_json, 'utf8'));
          const entry = sha256(prev, record);
          const row = {
            seq: Number(r.leaf_index) + 1,
            evidence_id: r.evidence_id,
            prev_hash: prev.toString('hex'),
            record_hash: record.toString('hex'),
            entry_hash: entry.toString('hex'),
            record_json: r.record_json,
            created_at: r.created_at,
          };
          prev = entry;
          return row;
        });
        await db.insertInto('ledger_entries').values(entries).execute();
        from = Number(rows[rows.length - 1]!.leaf_index) + 1;
      }
      await db.schema.dropTable('ledger_nodes').execute();
      await db.schema.dropTable('ledger_leaves').execute();
    },
  };
}
