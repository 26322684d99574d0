/**
 * Ledger benchmark (`npm run bench:ledger`): on a temp SQLite database (WAL, synchronous=NORMAL, as the platform
 * opens it), appends 1,000,000 leaves (BENCH_LEAVES overrides) with the ledger's own `appendLeaf` inside
 * `withLedgerTransaction`, BENCH_BATCH appends per transaction (default 1000; the platform itself commits one append
 * per evidence save, which is measured separately below). Records look like real ones (canonical JSON ≈ 230 bytes).
 * Prints:
 *   - appends per second overall, for the first 10k and the last 10k leaves;
 *   - appends per second with one transaction per append (the save path) at the full size, over 2,000 appends;
 *   - at the full size: STH (root + Ed25519 signature) time, and p50/p95 of inclusion-proof and consistency-proof
 *     generation over 1,000 random leaves / sizes (each proof verified once with the pure functions);
 *   - the database size (after a WAL checkpoint) and bytes per leaf.
 * Foreign keys are switched off on this bench database only: there are no evidence rows behind the leaves.
 * Figures, not pass/fail: it exits non-zero only when a proof does not verify.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase } from '../platform/db/database.ts';
import {
  appendLeaf,
  consistencyProof,
  inclusionProof,
  ownerRef,
  rootHash,
  withLedgerTransaction,
} from '../platform/ledger/ledger.ts';
import { LedgerSigner, TreeHeads } from '../platform/ledger/signer.ts';
import { leafHash, verifyConsistency, verifyInclusion, verifySth } from '../platform/ledger/verify.ts';
import { canonicalJson } from '../platform/ledger/canonical.ts';

const N = Number(process.env.BENCH_LEAVES ?? 1_000_000);
const BATCH = Number(process.env.BENCH_BATCH ?? 1000);
const SAMPLES = 1000;
const SINGLE = 2000;
const WINDOW = 10_000;
if (!Number.isSafeInteger(N) || N < 2) throw new Error('BENCH_LEAVES must be an integer ≥ 2');
if (!Number.isSafeInteger(BATCH) || BATCH < 1) throw new Error('BENCH_BATCH must be a positive integer');

const print = (line = '') => process.stdout.write(`${line}\n`);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (ns: bigint) => Number(ns) / 1e6;
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

/** A record shaped like an evidence's (what the leaf input really is). */
function record(i: number) {
  return {
    baoquan: `BQ20250101${String(i).padStart(20, '0')}`,
    sha256: createHash('sha256').update(String(i)).digest('hex'),
    size: 1000 + (i % 100_000),
    fileType: 1 + (i % 5),
    ownerRef: ownerRef(1 + (i % 1000)),
    savedAt: 1_735_689_600 + i,
  };
}

/** Deterministic pseudo-random integers in [0, n). */
let seed = 20250101;
const rand = (n: number) => {
  seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
  return Math.floor((seed / 2 ** 32) * n);
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cz-bench-ledger-'));
const file = path.join(dir, 'ledger.sqlite');
const pdb = openDatabase({ dialect: 'sqlite', file });
try {
  await migrateToLatest(pdb);
  await sql`pragma foreign_keys = off`.execute(pdb.db);
  print(`ledger bench: ${fmt(N)} leaves, ${BATCH} appends per transaction, SQLite at ${file}`);
  print(`record example: ${canonicalJson(record(0))} (${Buffer.byteLength(canonicalJson(record(0)))} bytes)`);

  // --- appends ---
  const start = process.hrtime.bigint();
  let firstWindow = 0;
  let lastWindowStart = 0n;
  const lastFrom = N - WINDOW;
  for (let i = 0; i < N;) {
    const end = Math.min(N, i + BATCH);
    if (i <= lastFrom && end > lastFrom && lastWindowStart === 0n) lastWindowStart = process.hrtime.bigint();
    await withLedgerTransaction(pdb, async (trx) => {
      for (let j = i; j < end; j++) await appendLeaf(trx, j + 1, record(j), 1_735_689_600 + j);
    });
    i = end;
    if (firstWindow === 0 && i >= WINDOW) firstWindow = ms(process.hrtime.bigint() - start);
    if (i % 100_000 === 0 || i === N) {
      const s = ms(process.hrtime.bigint() - start) / 1000;
      process.stderr.write(`  ${fmt(i)} leaves, ${s.toFixed(1)} s, ${fmt(i / s)}/s\n`);
    }
  }
  const totalMs = ms(process.hrtime.bigint() - start);
  const lastMs = ms(process.hrtime.bigint() - lastWindowStart);
  const window = Math.min(WINDOW, N);
  print();
  print(
    `appends (batched ${BATCH}/transaction): ${fmt(N / (totalMs / 1000))}/s overall (${(totalMs / 1000).toFixed(1)} s)`,
  );
  print(
    `  first ${fmt(window)}: ${fmt(window / (firstWindow / 1000))}/s    last ${fmt(window)}: ${fmt(Math.min(WINDOW, N) / (lastMs / 1000))}/s`,
  );

  // --- one transaction per append (the evidence save path) ---
  const singleStart = process.hrtime.bigint();
  for (let i = N; i < N + SINGLE; i++) {
    await withLedgerTransaction(pdb, (trx) => appendLeaf(trx, i + 1, record(i), 1_735_689_600 + i));
  }
  const singleMs = ms(process.hrtime.bigint() - singleStart);
  const size = N + SINGLE;
  print(
    `appends (one transaction each, at ${fmt(N)}): ${fmt(SINGLE / (singleMs / 1000))}/s over ${fmt(SINGLE)}`,
  );

  // --- STH ---
  const signer = await LedgerSigner.open(dir);
  const heads = new TreeHeads(pdb.db, signer);
  let t = process.hrtime.bigint();
  const sth = await heads.current();
  const sthMs = ms(process.hrtime.bigint() - t);
  t = process.hrtime.bigint();
  await heads.current();
  const cachedMs = ms(process.hrtime.bigint() - t);
  if (!verifySth(sth, signer.publicKey.pem)) throw new Error('STH does not verify');
  print();
  print(
    `at ${fmt(size)} leaves: STH (root from stored nodes + Ed25519) ${sthMs.toFixed(2)} ms, cached ${cachedMs.toFixed(2)} ms`,
  );

  // --- inclusion proofs ---
  const incl: number[] = [];
  let checked = 0;
  for (let k = 0; k < SAMPLES; k++) {
    const index = rand(size);
    t = process.hrtime.bigint();
    const proof = await inclusionProof(pdb.db, index, size);
    incl.push(ms(process.hrtime.bigint() - t));
    if (k % 100 === 0) {
      const row = await pdb.db
        .selectFrom('ledger_leaves')
        .select('record_json')
        .where('leaf_index', '=', index)
        .executeTakeFirstOrThrow();
      if (!verifyInclusion(leafHash(row.record_json), index, size, proof, sth.rootHash))
        throw new Error(`inclusion proof of ${index} does not verify`);
      checked++;
    }
  }
  print(
    `inclusion proof (${SAMPLES} random leaves): p50 ${pct(incl, 50).toFixed(3)} ms, p95 ${pct(incl, 95).toFixed(3)} ms (${checked} verified)`,
  );

  // --- consistency proofs ---
  const cons: number[] = [];
  for (let k = 0; k < SAMPLES; k++) {
    const first = 1 + rand(size - 1);
    t = process.hrtime.bigint();
    const proof = await consistencyProof(pdb.db, first, size);
    cons.push(ms(process.hrtime.bigint() - t));
    if (
      k % 100 === 0 &&
      !verifyConsistency(first, size, await rootHash(pdb.db, first), sth.rootHash, proof)
    ) {
      throw new Error(`consistency proof ${first} → ${size} does not verify`);
    }
  }
  print(
    `consistency proof (${SAMPLES} random first sizes → ${fmt(size)}): p50 ${pct(cons, 50).toFixed(3)} ms, p95 ${pct(cons, 95).toFixed(3)} ms`,
  );

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
