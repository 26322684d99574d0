/**
 * The ledger at scale on both databases (decision 032, for `npm run bench`; its parts also serve
 * bench/ledger.ts): a fresh database opened and migrated as the platform does (SQLite: a temp file, WAL,
 * synchronous=NORMAL; PostgreSQL: a fresh database on TEST_PG_URL's server with the server's defaults, i.e. a commit
 * returns once its WAL is flushed to disk; dropped at the end), filled with N leaves (bench/support/ledger-fill.ts),
 * then through the ledger's own `appendLeaf` inside `withLedgerTransaction`:
 *   - {@link BATCHED} appends, {@link BATCH} per transaction;
 *   - {@link SINGLE} appends with one transaction each, one after the other (one client saving alone: bounded by a
 *     commit's latency);
 *   - {@link CONCURRENT_APPENDS} appends with one `withLedgerTransaction` each from {@link CONCURRENT_SAVES} callers at once, as
 *     evidence saves of many users arrive (the ledger's group commit puts those that wait into one transaction): the
 *     figure the ledger's goal (≥ 5,000/s, decision 032) is read against;
 * then at the final size the signed tree head (with its C2SP checkpoint) and {@link SAMPLES} inclusion and
 * consistency proofs at random (every 100th verified with the pure functions of platform/ledger/verify.ts against the
 * STH's root), and as many C2SP tile reads (the partial tiles of that size, full level-0 and level-1 tiles).
 */
import { percentile } from './stats.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { migrateToLatest, openDatabase, type PlatformDb } from '../../platform/db/database.ts';
import type { Database } from '../../platform/db/schema.ts';
import { appendLeaf, withLedgerTransaction } from '../../platform/ledger/ledger.ts';
import { createTestDatabase } from '../../tests/support/platform.ts';
import { benchLeaf, fillLedger } from './ledger-fill.ts';
import { measureSth, sampleProofs, sampleTiles } from './ledger-reads.ts';

/** Appends per transaction in the batched measurement, and how many are measured. */
const BATCH = 1000;
const BATCHED = 20_000;
/** Appends measured with one transaction each (sequential, then concurrent). */
const SINGLE = 2000;
/** Saves in flight at once in the concurrent measurement. */
export const CONCURRENT_SAVES = 64;
/**
 * Appends measured in the concurrent measurement: with 64 in flight, 2,000 made only ~30 group transactions and the
 * figure swung by half between runs (4,180–8,584/s on SQLite at 100,000 leaves); 10,000 make ~160.
 */
export const CONCURRENT_APPENDS = 10_000;
/** Random proofs of each kind. */
const SAMPLES = 1000;

export type LedgerDialect = 'SQLite' | 'PostgreSQL';

const elapsedMs = (since: number) => performance.now() - since;

/** Appends the bench leaf `i` ({@link benchLeaf}) in `trx`. @throws unless it lands at position `i` */
async function appendBenchLeaf(trx: Kysely<Database>, i: number): Promise<void> {
  const { evidenceId, record, createdAt } = benchLeaf(i);
  const { leafIndex } = await appendLeaf(trx, evidenceId, record, createdAt);
  if (leafIndex !== i) throw new Error(`leaf ${i} was appended at ${leafIndex}`);
}

/**
 * Appends the bench leaves [from, to), `batch` per `withLedgerTransaction`; `onBatch` hears the leaves done so far
 * and the milliseconds since the start after each transaction. @returns the milliseconds it took
 */
export async function appendBatched(
  pdb: PlatformDb,
  from: number,
  to: number,
  batch: number,
  onBatch?: (done: number, ms: number) => void,
): Promise<number> {
  const start = performance.now();
  for (let i = from; i < to;) {
    const end = Math.min(to, i + batch);
    await withLedgerTransaction(pdb, async (trx) => {
      for (let j = i; j < end; j++) await appendBenchLeaf(trx, j);
    });
    i = end;
    onBatch?.(i, elapsedMs(start));
  }
  return elapsedMs(start);
}

/** Appends the bench leaves [from, from + count), one `withLedgerTransaction` each. @returns appends per second */
export async function appendOnePerTransaction(pdb: PlatformDb, from: number, count: number): Promise<number> {
  const start = performance.now();
  for (let i = from; i < from + count; i++) {
    await withLedgerTransaction(pdb, (trx) => appendBenchLeaf(trx, i));
  }
  return count / (elapsedMs(start) / 1000);
}

/**
 * Appends the bench leaves [from, from + count), one `withLedgerTransaction` each, `concurrency` of them in flight at
 * once (each caller starts its next save when its last one resolved).
 * @returns appends per second
 * @throws unless the leaves took exactly the positions [from, from + count), each leaf once
 */
export async function appendConcurrently(
  pdb: PlatformDb,
  from: number,
  count: number,
  concurrency: number,
): Promise<number> {
  const positions: number[] = [];
  let next = from;
  const start = performance.now();
  const caller = async () => {
    while (next < from + count) {
      const { evidenceId, record, createdAt } = benchLeaf(next++);
      const { leafIndex } = await withLedgerTransaction(pdb, (trx) =>
        appendLeaf(trx, evidenceId, record, createdAt),
      );
      positions.push(leafIndex);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, caller));
  const perSecond = count / (elapsedMs(start) / 1000);
  positions.sort((a, b) => a - b);
  if (positions.length !== count || positions.some((p, i) => p !== from + i))
    throw new Error(`concurrent appends did not take the positions ${from}..${from + count - 1}`);
  return perSecond;
}

/** What {@link measureLedger} measured. */
export interface LedgerFigures {
  dialect: LedgerDialect;
  leaves: number;
  /** Seconds to fill and self-check the log of `leaves` leaves. */
  fillSeconds: number;
  /** Appends per second, {@link BATCH} per transaction, after the fill. */
  batchedPerSecond: number;
  batch: number;
  /** Appends per second with one transaction each, one after the other, after those. */
  singlePerSecond: number;
  /** Appends per second with one transaction each, {@link CONCURRENT_SAVES} at once, after those. */
  concurrentPerSecond: number;
  /** The tree size the STH and proofs were measured at. */
  size: number;
  sthMs: number;
  /** Milliseconds per proof, p50 and p99. */
  inclusion: { p50: number; p99: number };
  consistency: { p50: number; p99: number };
  /** Milliseconds per tile read (full level-0/1 tiles and the partial ones). */
  tiles: { p50: number; p99: number };
}

/** Opens a fresh, migrated database of `dialect` as the platform does. @returns it and how to dispose of it */
async function freshDatabase(dialect: LedgerDialect, dir: string) {
  if (dialect === 'SQLite') {
    const file = path.join(dir, 'ledger.sqlite');
    const pdb = openDatabase({ dialect: 'sqlite', file });
    return { pdb, file, drop: async () => undefined };
  }
  const database = await createTestDatabase();
  return {
    pdb: openDatabase({ dialect: 'postgres', url: database.url }),
    file: undefined,
    drop: database.drop,
  };
}

/**
 * Fills a fresh `dialect` database with `leaves` leaves and measures as described above; `log` hears progress.
 * @throws when the fill's self-check, an append's position or a proof fails
 */
export async function measureLedger(
  dialect: LedgerDialect,
  leaves: number,
  log: (line: string) => void = () => undefined,
): Promise<LedgerFigures> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cz-bench-ledger-'));
  const { pdb, file, drop } = await freshDatabase(dialect, dir);
  try {
    await migrateToLatest(pdb);
    const fillStart = performance.now();
    await fillLedger(pdb, leaves, file);
    const fillSeconds = elapsedMs(fillStart) / 1000;
    log(
      `${dialect}: ledger filled with ${leaves.toLocaleString('en')} leaves in ${fillSeconds.toFixed(1)} s`,
    );
    const batchedMs = await appendBatched(pdb, leaves, leaves + BATCHED, BATCH);
    const singlePerSecond = await appendOnePerTransaction(pdb, leaves + BATCHED, SINGLE);
    const concurrentPerSecond = await appendConcurrently(
      pdb,
      leaves + BATCHED + SINGLE,
      CONCURRENT_APPENDS,
      CONCURRENT_SAVES,
    );
    const { sth, ms: sthMs } = await measureSth(pdb, dir);
    const size = leaves + BATCHED + SINGLE + CONCURRENT_APPENDS;
    if (sth.treeSize !== size) throw new Error(`STH of ${sth.treeSize} leaves, ${size} expected`);
    const proofs = await sampleProofs(pdb.db, sth, SAMPLES);
    const tiles = await sampleTiles(pdb.db, sth.treeSize, SAMPLES);
    const p50p99 = (xs: number[]) => ({ p50: percentile(xs, 50), p99: percentile(xs, 99) });
    return {
      dialect,
      leaves,
      fillSeconds,
      batchedPerSecond: BATCHED / (batchedMs / 1000),
      batch: BATCH,
      singlePerSecond,
      concurrentPerSecond,
      size,
      sthMs,
      inclusion: p50p99(proofs.inclusion),
      consistency: p50p99(proofs.consistency),
      tiles: p50p99(tiles),
    };
  } finally {
    await pdb.close();
    await drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Prints the ledger rows of `npm run bench`: appends/s (one transaction per save, {@link CONCURRENT_SAVES} saves at
 * once: goal ≥ 5,000/s; one client alone for information) and proof p99 (≤ 5 ms).
 */
export function printLedgerRows(ledgers: LedgerFigures[], print: (line: string) => void): void {
  print('');
  print(
    `| ledger | leaves | appends/s, 1,000 per transaction | appends/s, one transaction each, one client | ` +
      `appends/s, one transaction each, ${CONCURRENT_SAVES} saves at once | ` +
      `inclusion proof ms p50/p99 | consistency proof ms p50/p99 | tile read ms p50/p99 |`,
  );
  print(`|---|---|---|---|---|---|---|---|`);
  const count = (n: number) => Math.round(n).toLocaleString('en');
  const proofs = ({ p50, p99 }: { p50: number; p99: number }) =>
    `${p50.toFixed(2)}/${p99.toFixed(2)} ≤ 5 ms ${p99 <= 5 ? 'PASS' : 'MISS'}`;
  for (const l of ledgers) {
    print(
      `| ${l.dialect} | ${count(l.leaves)} (filled in ${l.fillSeconds.toFixed(0)} s) | ${count(l.batchedPerSecond)} | ` +
        `${count(l.singlePerSecond)} | ` +
        `${count(l.concurrentPerSecond)} ≥ 5,000/s ${l.concurrentPerSecond >= 5000 ? 'PASS' : 'MISS'} | ` +
        `${proofs(l.inclusion)} | ${proofs(l.consistency)} | ${proofs(l.tiles)} |`,
    );
  }
}
