/**
 * A large ledger without appending it leaf by leaf (decision 032; bench/support/ledger-compare.ts, bench/ledger.ts):
 * fills an empty, migrated platform database with N leaves shaped like evidence records ({@link record}) plus exactly
 * the `ledger_nodes` rows the real append path (`appendLeaf`, which follows `appendPlan`) would have written, computed
 * in memory with the ledger's own `leafHash` / `nodeHash` and inserted in large batches:
 *   - SQLite: one prepared statement per table in transactions of {@link CHUNK} leaves, through a better-sqlite3
 *     connection of its own on the same file (the platform's handle hides its driver; synchronous=OFF there), then
 *     a WAL checkpoint;
 *   - PostgreSQL: `insert … select * from unnest(…)` of {@link CHUNK} rows, the next chunk hashed while the previous
 *     one is written, then `vacuum analyze` (what autovacuum would have done by then).
 * There are no evidence rows behind the leaves: the fill unlinks the leaves from `evidences` first
 * ({@link unlinkEvidences}; throw-away bench databases only). It then checks itself ({@link checkFill}): from the
 * stored leaf hashes, apart from the platform's code, every stored node, and the RFC 9162 root of the first m leaves
 * for m = N and a few other sizes against `rootHash` (which folds the stored nodes). Throws when anything differs.
 */
import { createHash } from 'node:crypto';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import type { PlatformDb } from '../../platform/db/database.ts';
import { canonicalJson } from '../../platform/ledger/canonical.ts';
import { ownerRef, rootHash, treeSize, type LedgerRecord } from '../../platform/ledger/ledger.ts';
import { appendPlan } from '../../platform/ledger/tree.ts';
import { leafHash, nodeHash } from '../../platform/ledger/verify.ts';

/** Leaves hashed and written per batch (PostgreSQL: 5 arrays of this many elements per statement). */
const CHUNK = 10_000;
/** Leaf hashes read back per query by the self-check. */
const READ_PAGE = 100_000;
/** Tree sizes besides N whose roots the self-check compares. */
const CHECKED_SIZES = 8;
/** created_at / savedAt of leaf 0, unix seconds (2025-01-01). */
const EPOCH = 1_735_689_600;

/** A record shaped like an evidence's (what the leaf input really is): canonical JSON ≈ 240 bytes. */
export function record(i: number): LedgerRecord {
  return {
    baoquan: `BQ20250101${String(i).padStart(20, '0')}`,
    sha256: createHash('sha256').update(String(i)).digest('hex'),
    size: 1000 + (i % 100_000),
    fileType: 1 + (i % 5),
    ownerRef: ownerRef(1 + (i % 1000)),
    savedAt: EPOCH + i,
  };
}

/** What the benches pass to `appendLeaf` for the leaf at 0-based `i`, and what the fill stores for it. */
export function benchLeaf(i: number): { evidenceId: number; record: LedgerRecord; createdAt: number } {
  return { evidenceId: i + 1, record: record(i), createdAt: EPOCH + i };
}

/** Deterministic pseudo-random integers in [0, n), the same sequence for the same seed. */
export function randomInts(seed = 20250101): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (Math.imul(s, 1_103_515_245) + 12_345) >>> 0;
    return Math.floor((s / 2 ** 32) * n);
  };
}

/**
 * Lets leaves exist without evidence rows in this bench database: SQLite switches foreign keys off for `pdb`'s
 * connection; PostgreSQL drops the foreign-key constraints of ledger_leaves (for every connection, for good).
 */
export async function unlinkEvidences(pdb: PlatformDb): Promise<void> {
  if (pdb.dialect === 'sqlite') {
    await sql`pragma foreign_keys = off`.execute(pdb.db);
    return;
  }
  const { rows } = await sql<{ conname: string }>`select conname from pg_constraint
    where conrelid = 'ledger_leaves'::regclass and contype = 'f'`.execute(pdb.db);
  for (const { conname } of rows) {
    await sql`alter table ledger_leaves drop constraint ${sql.id(conname)}`.execute(pdb.db);
  }
}

/** The rows of one chunk, by column. */
interface Chunk {
  leafIndex: number[];
  leafHash: string[];
  evidenceId: number[];
  recordJson: string[];
  createdAt: number[];
  level: number[];
  idx: number[];
  hash: string[];
}

/**
 * The rows appending leaves [from, to) writes, given `frontier`: per level, the latest complete node (the left
 * sibling the next append at that level reads), updated in place.
 */
function chunkRows(from: number, to: number, frontier: { index: number; hash: string }[]): Chunk {
  const c: Chunk = {
    leafIndex: [],
    leafHash: [],
    evidenceId: [],
    recordJson: [],
    createdAt: [],
    level: [],
    idx: [],
    hash: [],
  };
  for (let i = from; i < to; i++) {
    const leaf = benchLeaf(i);
    const json = canonicalJson(leaf.record);
    let cur = leafHash(json);
    c.leafIndex.push(i);
    c.leafHash.push(cur);
    c.evidenceId.push(leaf.evidenceId);
    c.recordJson.push(json);
    c.createdAt.push(leaf.createdAt);
    const { siblings, created } = appendPlan(i);
    const chain = [{ index: i, hash: cur }];
    created.forEach((node, k) => {
      const left = frontier[k];
      if (left?.index !== siblings[k]!.index) throw new Error(`fill: no sibling ${k}:${siblings[k]!.index}`);
      cur = nodeHash(left.hash, cur);
      c.level.push(node.level);
      c.idx.push(node.index);
      c.hash.push(cur);
      chain.push({ index: node.index, hash: cur });
    });
    chain.forEach((node, level) => (frontier[level] = node));
  }
  return c;
}

/**
 * Fills the empty ledger of `pdb` (migrated) with `leaves` leaves and their nodes as described above, and checks it.
 * @param sqliteFile on SQLite, the file `pdb` was opened on (required there)
 * @throws when the ledger is not empty, or the stored tree differs from the one computed here
 */
export async function fillLedger(pdb: PlatformDb, leaves: number, sqliteFile?: string): Promise<void> {
  if (!Number.isSafeInteger(leaves) || leaves < 1)
    throw new RangeError('fill: leaves must be a positive integer');
  if ((await treeSize(pdb.db)) !== 0) throw new Error('fill: the ledger is not empty');
  await unlinkEvidences(pdb);
  const frontier: { index: number; hash: string }[] = [];
  const chunks = function* () {
    for (let i = 0; i < leaves; i += CHUNK) yield chunkRows(i, Math.min(leaves, i + CHUNK), frontier);
  };
  if (pdb.dialect === 'sqlite') {
    if (!sqliteFile) throw new Error('fill: the SQLite file is required');
    fillSqlite(sqliteFile, chunks());
  } else {
    let writing: Promise<unknown> = Promise.resolve();
    for (const c of chunks()) {
      await writing;
      writing = Promise.all([
        sql`insert into ledger_leaves (leaf_index, leaf_hash, evidence_id, record_json, created_at)
          select * from unnest(${c.leafIndex}::bigint[], ${c.leafHash}::text[], ${c.evidenceId}::bigint[],
            ${c.recordJson}::text[], ${c.createdAt}::bigint[])`.execute(pdb.db),
        c.level.length > 0 &&
          sql`insert into ledger_nodes (level, idx, hash)
            select * from unnest(${c.level}::integer[], ${c.idx}::bigint[], ${c.hash}::text[])`.execute(
            pdb.db,
          ),
      ]);
    }
    await writing;
    await sql`vacuum analyze ledger_leaves, ledger_nodes`.execute(pdb.db);
  }
  await checkFill(pdb, leaves);
}

function fillSqlite(file: string, chunks: Iterable<Chunk>): void {
  const raw = new SqliteDatabase(file);
  try {
    raw.pragma('foreign_keys = off');
    raw.pragma('busy_timeout = 5000');
    // setup, not the measured path: the platform's own connection keeps synchronous=NORMAL (fill 29 → 21 s at 1M)
    raw.pragma('synchronous = off');
    raw.pragma('cache_size = -262144');
    const leaf = raw.prepare(
      'insert into ledger_leaves (leaf_index, leaf_hash, evidence_id, record_json, created_at) values (?, ?, ?, ?, ?)',
    );
    const node = raw.prepare('insert into ledger_nodes (level, idx, hash) values (?, ?, ?)');
    const write = raw.transaction((c: Chunk) => {
      c.leafIndex.forEach((index, k) =>
        leaf.run(index, c.leafHash[k], c.evidenceId[k], c.recordJson[k], c.createdAt[k]),
      );
      c.level.forEach((level, k) => node.run(level, c.idx[k], c.hash[k]));
    });
    for (const c of chunks) write(c);
    raw.pragma('wal_checkpoint(truncate)');
  } finally {
    raw.close();
  }
}

/**
 * The self-check, from the stored leaf hashes up, with node:crypto rather than the ledger's code: reads back the N
 * leaf hashes (N rows, so exactly positions 0..N−1), computes every complete subtree level by level, compares every
 * stored node with it (and that no other node is stored), then compares RFC 9162 §2.1.1 MTH(D[0:m]) =
 * H(0x01 ‖ MTH(D[0:k]) ‖ MTH(D[k:m])) for m = N and a few other sizes with `rootHash`, the platform's read path.
 */
async function checkFill(pdb: PlatformDb, n: number): Promise<void> {
  const fail = (what: string) => new Error(`fill: ${what}`);
  const leaves = Buffer.alloc(n * 32);
  let leafRows = 0;
  for (let from = 0; from < n; from += READ_PAGE) {
    const rows = await pdb.db
      .selectFrom('ledger_leaves')
      .select(['leaf_index', 'leaf_hash'])
      .where('leaf_index', '>=', from)
      .where('leaf_index', '<', from + READ_PAGE)
      .execute();
    for (const r of rows) leaves.write(r.leaf_hash, Number(r.leaf_index) * 32, 'hex');
    leafRows += rows.length;
  }
  if (leafRows !== n) throw fail(`${leafRows} of ${n} leaves stored`);

  const h = (a: Buffer, b: Buffer) =>
    createHash('sha256')
      .update(Buffer.from([1]))
      .update(a)
      .update(b)
      .digest();
  const levels = [leaves];
  for (let prev = leaves; prev.length >= 64;) {
    const next = Buffer.alloc(Math.floor(prev.length / 64) * 32);
    for (let k = 0; k < next.length; k += 32)
      h(prev.subarray(2 * k, 2 * k + 32), prev.subarray(2 * k + 32, 2 * k + 64)).copy(next, k);
    levels.push((prev = next));
  }

  let expectedNodes = 0;
  let nodeRows = 0;
  for (let level = 1; level < levels.length; level++) {
    const hashes = levels[level]!;
    expectedNodes += hashes.length / 32;
    for (let from = 0; from < hashes.length / 32; from += READ_PAGE) {
      const rows = await pdb.db
        .selectFrom('ledger_nodes')
        .select(['idx', 'hash'])
        .where('level', '=', level)
        .where('idx', '>=', from)
        .where('idx', '<', from + READ_PAGE)
        .execute();
      for (const { idx, hash } of rows) {
        const i = Number(idx) * 32;
        if (hash !== hashes.toString('hex', i, i + 32)) throw fail(`node ${level}:${idx} is wrong`);
      }
      nodeRows += rows.length;
    }
  }
  const { nodes } = await pdb.db
    .selectFrom('ledger_nodes')
    .select((eb) => eb.fn.countAll<number>().as('nodes'))
    .executeTakeFirstOrThrow();
  if (nodeRows !== expectedNodes || Number(nodes) !== expectedNodes) {
    throw fail(`${nodeRows} expected nodes found among ${Number(nodes)} stored, ${expectedNodes} expected`);
  }

  const mth = (start: number, size: number): Buffer => {
    const level = Math.log2(size);
    if (Number.isInteger(level)) return levels[level]!.subarray((start / size) * 32, (start / size + 1) * 32);
    let k = 1;
    while (k * 2 < size) k *= 2;
    return h(mth(start, k), mth(start + k, size - k));
  };
  const rand = randomInts(n);
  for (const size of [n, ...Array.from({ length: CHECKED_SIZES }, () => 1 + rand(n))]) {
    const [expected, stored] = [mth(0, size).toString('hex'), await rootHash(pdb.db, size)];
    if (stored !== expected) throw fail(`root of ${size} leaves is ${stored}, ${expected} expected`);
  }
}
