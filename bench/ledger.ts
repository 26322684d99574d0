/**
 * Ledger benchmark (`npm run bench:ledger`): on a temp SQLite database (WAL, synchronous=NORMAL, as the platform
 * opens it), appends 1,000,000 leaves (BENCH_LEAVES overrides) with the ledger's own `appendLeaf` inside
 * `withLedgerTransaction`, BENCH_BATCH appends per transaction (default 1000; the platform itself commits one append
 * per evidence save, which is measured separately below). Records look like real ones (canonical JSON ≈ 230 bytes).
 * Prints:
 *   - appends per second overall, for the first 10k and the last 10k leaves;
 *   - appends per second with one transaction per append (the save path) at the full size, over 2,000 appends, from
 *     one client and from 64 saves at once (the ledger's group commit);
 *   - at the full size: STH (root + Ed25519 signature) time, and p50/p95 of inclusion-proof and consistency-proof
 *     generation over 1,000 random leaves / sizes (each proof verified once with the pure functions);
 *   - the database size (after a WAL checkpoint) and bytes per leaf.
 * Foreign keys are switched off on this bench database only: there are no evidence rows behind the leaves. The
 * records, appends, STH and proof sampling are those of `npm run bench`'s ledger rows (bench/support/ledger-fill.ts,
 * bench/support/ledger-compare.ts), which fill their log instead of appending it.
 * Figures, not pass/fail: it exits non-zero only when a proof does not verify.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase } from '../platform/db/database.ts';
import { canonicalJson } from '../platform/ledger/canonical.ts';
import {
  appendBatched,
  appendConcurrently,
  appendOnePerTransaction,
  CONCURRENT_APPENDS,
  CONCURRENT_SAVES,
} from './support/ledger-compare.ts';
import { measureSth, sampleProofs } from './support/ledger-reads.ts';
import { percentile } from './support/stats.ts';
import { record, unlinkEvidences } from './support/ledger-fill.ts';
import { benchNumber } from './support/environment.ts';

const N = benchNumber('BENCH_LEAVES', 1_000_000);
const BATCH = benchNumber('BENCH_BATCH', 1000);
const SAMPLES = 1000;
const SINGLE = 2000;
const WINDOW = 10_000;
if (!Number.isSafeInteger(N) || N < 2) throw new Error('BENCH_LEAVES must be an integer ≥ 2');
if (!Number.isSafeInteger(BATCH) || BATCH < 1) throw new Error('BENCH_BATCH must be a positive integer');

const print = (line = '') => process.stdout.write(`${line}\n`);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cz-bench-ledger-'));
const file = path.join(dir, 'ledger.sqlite');
const pdb = openDatabase({ dialect: 'sqlite', file });
try {
  await migrateToLatest(pdb);
  await unlinkEvidences(pdb);
  print(`ledger bench: ${fmt(N)} leaves, ${BATCH} appends per transaction, SQLite at ${file}`);
  print(`record example: ${canonicalJson(record(0))} (${Buffer.byteLength(canonicalJson(record(0)))} bytes)`);

  // --- appends ---
  const window = Math.min(WINDOW, N);
  let firstWindow = 0;
  let lastWindowStart = 0;
  const totalMs = await appendBatched(pdb, 0, N, BATCH, (done, ms) => {
    if (done <= N - window) lastWindowStart = ms;
    if (firstWindow === 0 && done >= window) firstWindow = ms;
    if (done % 100_000 === 0 || done === N) {
      process.stderr.write(
        `  ${fmt(done)} leaves, ${(ms / 1000).toFixed(1)} s, ${fmt(done / (ms / 1000))}/s\n`,
      );
    }
  });
  print();
  print(
    `appends (batched ${BATCH}/transaction): ${fmt(N / (totalMs / 1000))}/s overall (${(totalMs / 1000).toFixed(1)} s)`,
  );
  print(
    `  first ${fmt(window)}: ${fmt(window / (firstWindow / 1000))}/s    last ${fmt(window)}: ${fmt(window / ((totalMs - lastWindowStart) / 1000))}/s`,
  );

  // --- one transaction per append (the evidence save path), one client, then many saves at once ---
  const single = await appendOnePerTransaction(pdb, N, SINGLE);
  print(`appends (one transaction each, one client, at ${fmt(N)}): ${fmt(single)}/s over ${fmt(SINGLE)}`);
  const concurrent = await appendConcurrently(pdb, N + SINGLE, CONCURRENT_APPENDS, CONCURRENT_SAVES);
  const size = N + SINGLE + CONCURRENT_APPENDS;
  print(
    `appends (one transaction each, ${CONCURRENT_SAVES} saves at once, group commit): ${fmt(concurrent)}/s over ${fmt(CONCURRENT_APPENDS)}`,
  );

  // --- STH ---
  const { sth, ms: sthMs, cachedMs } = await measureSth(pdb, dir);
  print();
  print(
    `at ${fmt(size)} leaves: STH (root from stored nodes + Ed25519) ${sthMs.toFixed(2)} ms, cached ${cachedMs.toFixed(2)} ms`,
  );

  // --- proofs ---
  const proofs = await sampleProofs(pdb.db, sth, SAMPLES);
  const p50p95 = (xs: number[]) =>
    `p50 ${percentile(xs, 50).toFixed(3)} ms, p95 ${percentile(xs, 95).toFixed(3)} ms`;
  print(
    `inclusion proof (${SAMPLES} random leaves): ${p50p95(proofs.inclusion)} (${proofs.verified} verified)`,
  );
  print(`consistency proof (${SAMPLES} random first sizes → ${fmt(size)}): ${p50p95(proofs.consistency)}`);

  // --- size ---
  await sql`pragma wal_checkpoint(truncate)`.execute(pdb.db);
  const bytes = fs.statSync(file).size + (fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0);
  print(
    `database: ${(bytes / 1024 / 1024).toFixed(1)} MiB (${fmt(bytes / size)} bytes per leaf, leaves + nodes + indexes)`,
  );
} finally {
  await pdb.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
