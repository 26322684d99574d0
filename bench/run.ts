/**
 * `npm run bench` (decision 032 and its restatement): the product measured side by side with references in the same
 * run, interleaved, and one table of ratios. Builds the bare reference app (bench/reference → build/bench-reference)
 * and, when missing, the product (`npm run build`); starts each as child processes on loopback (the product as `npm
 * start` does: embedded platform, background worker child, sandbox providers, demo account, default log level);
 * then, round after round, drives each row's product URL and reference URL with autocannon (10 connections, the
 * order alternating by round) and reads each server's CPU time from /proc.
 *
 * Rows (goal in brackets):
 * - pages: `/login` and `/queryAuthentication` vs a bare React Router page of the same `/login` document that reads a
 *   signed cookie session and sets its own CSRF cookie (bench/reference/app/routes/login-session.tsx; ≥ 0.85), each
 *   also against the plain bare page (no session, no CSRF; printed beside, no goal). The bare page is the product's
 *   `/login` document — the same top bar, form, footer and scripts — rendered by plain React Router components from
 *   constants, so that the ratio counts what a page pays beyond rendering. The certificate page, which reads its
 *   evidence from the platform, is the gateway's (`npm start` with UPSTREAM_URL) vs a bare page of the same document
 *   that makes the same call to the same platform process (bench/reference/app/routes/certificate.tsx; ≥ 0.85);
 * - `/api` through the gateway: a gateway process (`npm start` with UPSTREAM_URL) and a bare Fastify +
 *   `@fastify/http-proxy` (bench/reference/proxy.ts), both in front of the same platform process (`npm run
 *   start:platform`): CPU per proxied call of the gateway's process ≤ 1.1× the bare proxy's, and p99 added ≤ 1 ms at
 *   a fixed rate of half the bare proxy's capacity (bench/support/latency.ts);
 * - cost flat as data grows: the evidence list page, a no-match keyword search (`/api/data/getList`) and a certificate
 *   page of a demo account holding 100,000 evidences (10,000 with `--quick`) vs the same holding 100, each in its own
 *   product process, on SQLite and on PostgreSQL (a fresh database on TEST_PG_URL's server, dropped at the end;
 *   BENCH_POSTGRES=0 skips it), rows written straight into its database (bench/support/seed.ts) (≥ 0.9); then the
 *   same three reads of the 100,000 holder while a burst of 5,000 uploads (500 with `--quick`) is pre-rendered by its
 *   background worker, against their rate on the same data with the worker stopped (≥ 0.8; bench/support/burst.ts);
 * - certificate PDFs: the product's warm render of a certificate not yet rendered vs a bare puppeteer-core
 *   `page.pdf()` of the same print view in a reused page plus the same PAdES signature (≥ 0.95), then the same PDFs
 *   from the cache (p50 ≤ 5 ms; bench/support/pdf-compare.ts);
 * - uploads: a 512 MiB file (128 MiB with `--quick`) streamed through `/api` and through the no-JS form action vs the
 *   same client into a server that discards the body, and two through `/api` back to back against two into the
 *   discard server (each ≥ 0.5; the product's RSS growth ≤ 150 MB per GiB; bench/support/upload-compare.ts);
 * - ledger: on SQLite and on PostgreSQL (BENCH_POSTGRES=0 skips it), a fresh database opened and migrated as the
 *   platform does (SQLite WAL with synchronous=NORMAL; PostgreSQL's defaults: durable commits) holding 1,000,000
 *   leaves (100,000 with `--quick`; written straight in, bench/support/ledger-fill.ts), then the ledger's own appends:
 *   batched (1,000 per transaction), one transaction each from one client, and one transaction each from 64 saves at
 *   once as evidence saves of many users commit (group commit; ≥ 5,000/s), and inclusion
 *   and consistency proofs at random (p99 ≤ 5 ms; bench/support/ledger-compare.ts).
 *
 * Prints, per row: the median ratio of the rounds with its spread (min–max), both sides' median req/s, CPU ms per
 * request and p50/p99 latency, and the goal with PASS/MISS; every figure carries this run's stamp and a ratio of two
 * figures of different runs is refused (bench/support/stats.ts `assertSameRun`). First and last the machine: cores,
 * model, Node.js, load average before and after. `--quick` runs one short round (a few minutes).
 * `--only=pages,api,data,burst,pdf,upload,ledger` (any of them) runs those parts alone, for work on one of them;
 * docs/performance.md keeps a run of everything. Figures, not pass/fail: the exit code is 0 unless a server fails or
 * answers errors.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { login, uploadEvidence } from '../tests/support/pdf-whole.ts';
import { BENCH_SESSION_SECRET, startProduct, startScript, type Child } from './support/process.ts';
import { seedEvidences, seedEvidencesPostgres } from './support/seed.ts';
import { comparePdfs, printPdfRows } from './support/pdf-compare.ts';
import { compareUploads, printUploadRows } from './support/upload-compare.ts';
import { measureLedger, printLedgerRows, type LedgerDialect } from './support/ledger-compare.ts';
import { measureDuringBurst, printBurstRows } from './support/burst.ts';
import { holderReads, signedIn, type Holder } from './support/holders.ts';
import { apiRow, BENCH_INTERNAL_KEY, embeddedPlatformSigner, startSplit } from './support/api-compare.ts';
import { MiB } from './support/upload.ts';
import { measureRows, printRows, type Row } from './support/rows.ts';
import { machineLine } from './support/machine.ts';
import { createTestDatabase } from '../tests/support/platform.ts';
import { RUNTIME_FLAGS } from '../server/runtime-flags.ts';
import { benchSetting } from './support/environment.ts';

const quick = process.argv.includes('--quick');
/** The parts to run (`--only=`), all by default. */
const PARTS = ['pages', 'api', 'data', 'burst', 'pdf', 'upload', 'ledger'] as const;
const onlyArg = process.argv.find((a) => a.startsWith('--only='));
const parts = new Set(onlyArg ? onlyArg.slice('--only='.length).split(',') : PARTS);
for (const part of parts) {
  if (!(PARTS as readonly string[]).includes(part))
    throw new Error(`--only: unknown part ${part} (${PARTS.join(', ')})`);
}
/** Rounds per row and seconds per measurement (each side, each round). */
const ROUNDS = quick ? 1 : 3;
const SECONDS = quick ? 4 : 8;
const WARM_SECONDS = quick ? 1 : 2;
const CONNECTIONS = 10;
/** Certificate PDFs rendered per side in the PDF row. */
const PDF_COUNT = quick ? 6 : 20;
/** The upload rows' file size, bytes. */
const UPLOAD_BYTES = (quick ? 128 : 512) * MiB;
/** Evidences of the demo account in the "cost flat as data grows" rows: few, and many. */
const FEW_EVIDENCES = 100;
const MANY_EVIDENCES = quick ? 10_000 : 100_000;
/** Uploads of the burst whose pre-rendering the reads share the machine with. */
const BURST_UPLOADS = quick ? 500 : 5_000;
/** The databases of the data rows: SQLite always, PostgreSQL unless BENCH_POSTGRES=0 (TEST_PG_URL's server). */
const DATA_DIALECTS: LedgerDialect[] =
  benchSetting('BENCH_POSTGRES') === '0' ? ['SQLite'] : ['SQLite', 'PostgreSQL'];
/** Leaves in the ledger rows' logs before their appends are measured. */
const LEDGER_LEAVES = quick ? 100_000 : 1_000_000;
/** A keyword no seeded title or file name contains (3+ characters: the trigram index serves it). */
const NO_MATCH_KEYWORD = '不存在的关键字';
const root = path.resolve(import.meta.dirname, '..');
const print = (line: string) => process.stdout.write(`${line}\n`);

const started = performance.now();
const loadBefore = os.loadavg();
print(
  `${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), load average ` +
    `${loadBefore.map((l) => l.toFixed(2)).join(' ')} at the start`,
);

if (!existsSync(path.join(root, 'build/server/index.js'))) {
  print('building the product (npm run build)…');
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
}
print('building the reference page (bench/reference)…');
execFileSync(path.join(root, 'node_modules/.bin/react-router'), ['build', 'bench/reference'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});

const children: Child[] = [];
/** Databases and directories to remove at the end. */
const cleanups: (() => Promise<void> | void)[] = [];
try {
  // PDFs are rendered on first request here, so that the PDF row measures renders (PDF_RENDER_AHEAD=0).
  const product = await startProduct({ PDF_RENDER_AHEAD: '0', INTERNAL_API_KEY: BENCH_INTERNAL_KEY });
  children.push(product);
  // The reference runs with the product's runtime flags and NODE_ENV, so that only the code differs (without it,
  // React's development build: ~1.7x the CPU per page; every page ratio before 2026-11-29 read too high).
  // The split setup (a platform process with a gateway and a bare proxy before it) carries the `/api` row and the
  // certificate page row, whose reference page reads the evidence from the same platform.
  const split = parts.has('api') || parts.has('pages') ? await startSplit(children, cleanups) : null;
  const production = { NODE_ENV: 'production', ...(split ? { UPSTREAM_URL: split.platform.base } : {}) };
  const reference = await startScript('bench/reference/server.ts', production, '/', undefined, RUNTIME_FLAGS);
  children.push(reference);
  const token = await login(product.base);

  // The same product twice more per database, its demo account holding few and many evidences.
  const atFew = `the same at ${FEW_EVIDENCES} evidences`;
  const dataRows: Row[] = [];
  const manyHolders: [LedgerDialect, Holder][] = [];
  for (const dialect of parts.has('data') || parts.has('burst') ? DATA_DIALECTS : []) {
    const holders: Holder[] = [];
    for (const count of [FEW_EVIDENCES, MANY_EVIDENCES]) {
      let child: Child;
      let seconds: number;
      if (dialect === 'SQLite') {
        child = await startProduct();
        children.push(child);
        seconds = seedEvidences(child.dataDir!, count);
      } else {
        const database = await createTestDatabase();
        cleanups.push(database.drop);
        child = await startProduct({ DATABASE_URL: database.url });
        children.push(child);
        seconds = await seedEvidencesPostgres(database.url, count);
      }
      print(`${dialect}: seeded ${count.toLocaleString('en')} evidences in ${seconds.toFixed(1)} s`);
      holders.push(await signedIn(child, BENCH_SESSION_SECRET));
    }
    const [few, many] = holders as [Holder, Holder];
    manyHolders.push([dialect, many]);
    const at = `${MANY_EVIDENCES.toLocaleString('en')} evidences, ${dialect}`;
    const fewReads = holderReads(few, NO_MATCH_KEYWORD);
    if (parts.has('data')) {
      for (const [i, read] of holderReads(many, NO_MATCH_KEYWORD).entries()) {
        dataRows.push({
          name: `${read.name}, ${at}`,
          product: read.target,
          reference: { ...fewReads[i]!.target, label: atFew },
          goal: 0.9,
        });
      }
    }
  }

  // `/api`: a gateway alone and a bare proxy, in front of one platform process of their own.
  const apiRows: Row[] = split && parts.has('api') ? [apiRow(split)] : [];

  const sessionBare = {
    url: `${reference.base}/login-session`,
    pid: reference.pid,
    label: 'bare React Router page, same document, signed cookie session and CSRF cookie',
  };
  const plainBare = { url: `${reference.base}/login`, pid: reference.pid, label: 'the plain bare page' };
  const page = (name: string, url: string): Row => ({
    name,
    product: { url, pid: product.pid },
    reference: sessionBare,
    also: plainBare,
    goal: 0.85,
  });
  const pageRows: Row[] = [
    page('/login SSR', `${product.base}/login`),
    page('/queryAuthentication', `${product.base}/queryAuthentication`),
  ];
  if (split && parts.has('pages')) {
    // The certificate page reads its evidence from the platform: the gateway and the reference page call the same
    // platform process, so that both sides pay the one call and only the page's own work differs.
    const saved = await uploadEvidence(split.gateway.base, split.token, {
      title: '基准测试证据',
      fileName: 'bench.txt',
      bytes: Buffer.from(`bench evidence ${Date.now()}`),
    });
    const at = `/attestation/${saved.baoquan}`;
    pageRows.push({
      name: 'certificate page',
      product: { url: `${split.gateway.base}${at}`, pid: split.gateway.pid },
      reference: {
        url: `${reference.base}${at}`,
        pid: reference.pid,
        label:
          'bare React Router page, same document and platform call, signed cookie session and CSRF cookie',
      },
      also: {
        url: `${reference.base}/plain${at}`,
        pid: reference.pid,
        label: 'the same without session and CSRF',
      },
      goal: 0.85,
    });
  }
  const rows: Row[] = [...(parts.has('pages') ? pageRows : []), ...apiRows, ...dataRows];

  const results = await measureRows(rows, {
    rounds: ROUNDS,
    seconds: SECONDS,
    warmSeconds: WARM_SECONDS,
    connections: CONNECTIONS,
  });
  printRows(rows, results, print);

  // Reads while a burst of uploads is pre-rendered, on each database's 100,000 holder.
  if (parts.has('burst')) {
    for (const [dialect, many] of manyHolders) {
      const burst = await measureDuringBurst({
        product: many.child,
        token: many.token,
        reads: holderReads(many, NO_MATCH_KEYWORD),
        uploads: BURST_UPLOADS,
        rounds: ROUNDS,
        seconds: SECONDS,
        connections: CONNECTIONS,
        log: print,
      });
      printBurstRows(`${MANY_EVIDENCES.toLocaleString('en')} evidences, ${dialect}`, burst, print);
      // Its backlog may still be rendering; stopped now, it cannot run beside the parts that follow.
      children.splice(children.indexOf(many.child), 1);
      await many.child.stop();
    }
  }

  // Certificate PDFs: the product's warm render vs a bare page.pdf() of the same print view, signed the same way.
  if (parts.has('pdf')) {
    const signer = await embeddedPlatformSigner(product, token);
    printPdfRows(await comparePdfs(product.base, token, PDF_COUNT, signer), PDF_COUNT, print);
  }
  // Uploads: MiB/s into the product (api, no-JS form, two back to back) vs the same client into a discard server.
  if (parts.has('upload')) {
    printUploadRows(
      await compareUploads({ bytes: UPLOAD_BYTES, rounds: ROUNDS, log: print }),
      UPLOAD_BYTES,
      print,
    );
  }
  // Ledger: appends and proofs at LEDGER_LEAVES leaves, each database with its durability.
  if (parts.has('ledger')) {
    const ledgers = [];
    for (const dialect of DATA_DIALECTS) ledgers.push(await measureLedger(dialect, LEDGER_LEAVES, print));
    printLedgerRows(ledgers, print);
  }

  print('');
  print(
    machineLine(
      loadBefore,
      started,
      `${ROUNDS} round(s) of ${SECONDS} s per side, ${CONNECTIONS} connections`,
    ),
  );
} finally {
  for (const child of children.reverse()) await child.stop();
  for (const cleanup of cleanups) await cleanup();
}
