/**
 * `npm run bench` (decision 032): the product measured side by side with references in the same run, interleaved, and
 * one table of ratios. Builds the bare reference page (bench/reference → build/bench-reference) and, when missing,
 * the product (`npm run build`); starts both as child processes on loopback (the product as `npm start` does:
 * embedded platform, sandbox providers, demo account, default log level); seeds one evidence through the API; then,
 * round after round, drives each row's product URL and reference URL with autocannon (10 connections, the order
 * alternating by round) and reads each server's CPU time from /proc.
 *
 * Rows (goal in brackets, ratio = product ÷ reference requests per second):
 * - `/login` SSR vs the bare page (≥ 0.8); the certificate page, one upstream call (≥ 0.5); `/queryAuthentication`
 *   (≥ 0.8). The bare page is the product's `/login` document — the same top bar, form, footer and scripts — rendered
 *   by plain React Router components from constants (bench/reference/app/routes/login.tsx), so that the ratio counts
 *   what a page pays beyond rendering (decision 032). An information row with no goal shows what that document
 *   costs against a minimal form page without the frame (the reference of the first runs);
 * - `/api` through the gateway vs the embedded platform's own port (≥ 0.85, and p99 added ≤ 1 ms at a quarter of the
 *   platform port's rate: bench/support/latency.ts says why not at full speed);
 * - cost flat as data grows: the evidence list page and a no-match keyword search (`/api/data/getList`) of a demo
 *   account holding 100,000 evidences (10,000 with `--quick`) vs the same holding 100, each in its own product
 *   process, on SQLite and on PostgreSQL (a fresh database on TEST_PG_URL's server, dropped at the end;
 *   BENCH_POSTGRES=0 skips it), rows written straight into its database (bench/support/seed.ts) (≥ 0.7, i.e.
 *   within 1.4×).
 *
 * - certificate PDFs: the product's warm render of a certificate not yet rendered vs a bare puppeteer-core
 *   `page.pdf()` of the same print view in a reused page (≥ 0.9), then the same PDFs from the cache (p50 ≤ 5 ms;
 *   bench/support/pdf-compare.ts);
 * - uploads: a 512 MiB file (128 MiB with `--quick`) streamed through `/api` and through the no-JS form action vs the
 *   same client into a server that discards the body (≥ 0.5; the product's RSS growth ≤ 150 MB per GiB;
 *   bench/support/upload-compare.ts);
 * - ledger: on SQLite and on PostgreSQL (BENCH_POSTGRES=0 skips it), a fresh database opened and migrated as the
 *   platform does (SQLite WAL with synchronous=NORMAL; PostgreSQL's defaults: durable commits) holding 1,000,000
 *   leaves (100,000 with `--quick`; written straight in, bench/support/ledger-fill.ts), then the ledger's own appends:
 *   batched (1,000 per transaction), one transaction each from one client, and one transaction each from 64 saves at
 *   once as evidence saves of many users commit (group commit; ≥ 5,000/s), and inclusion
 *   and consistency proofs at random (p99 ≤ 5 ms; bench/support/ledger-compare.ts).
 *
 * Prints, per row: the median ratio of the rounds with its spread (min–max), both sides' median req/s, CPU ms per
 * request and p50/p99 latency, and the goal with PASS/MISS; then the machine (cores, load average before and
 * after). `--quick` runs one short round (about a minute). `--only=pages,api,data,pdf,upload,ledger` (any of them)
 * runs those parts alone, for work on one of them; the README's table comes from a run of everything. Figures, not
 * pass/fail: the exit code is 0 unless a server fails or answers errors.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sessionStorageFor } from '../app/lib/session.server.ts';
import { login, uploadEvidence } from '../tests/support/pdf-whole.ts';
import {
  BENCH_SESSION_SECRET,
  listeningPortsOf,
  startProduct,
  startScript,
  type Child,
} from './support/process.ts';
import { seedEvidences, seedEvidencesPostgres } from './support/seed.ts';
import { comparePdfs, printPdfRows } from './support/pdf-compare.ts';
import { compareUploads, printUploadRows } from './support/upload-compare.ts';
import { measureLedger, printLedgerRows, type LedgerDialect } from './support/ledger-compare.ts';
import { MiB } from './support/upload.ts';
import { measureRows, printRows, type Row } from './support/rows.ts';
import { createTestDatabase } from '../tests/support/platform.ts';
import { RUNTIME_FLAGS } from '../server/runtime-flags.ts';
import { benchSetting } from './support/environment.ts';

const quick = process.argv.includes('--quick');
/** The parts to run (`--only=`), all by default. */
const PARTS = ['pages', 'api', 'data', 'pdf', 'upload', 'ledger'] as const;
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
/** The databases of the data rows: SQLite always, PostgreSQL unless BENCH_POSTGRES=0 (TEST_PG_URL's server). */
const DATA_DIALECTS: LedgerDialect[] =
  benchSetting('BENCH_POSTGRES') === '0' ? ['SQLite'] : ['SQLite', 'PostgreSQL'];
/** Leaves in the ledger rows' logs before their appends are measured. */
const LEDGER_LEAVES = quick ? 100_000 : 1_000_000;
/** A keyword no seeded title or file name contains (3+ characters: the trigram index serves it). */
const NO_MATCH_KEYWORD = '不存在的关键字';
/** The `/api` row's call: what every page of a signed-in user asks first (the user's info, spec 02 "Route guard"). */
const API_PATH = '/api/user/getAuthInfo';
const root = path.resolve(import.meta.dirname, '..');
const print = (line: string) => process.stdout.write(`${line}\n`);

const started = performance.now();
const loadBefore = os.loadavg();

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
/** Databases to drop at the end. */
const cleanups: (() => Promise<void>)[] = [];
try {
  // PDFs are rendered on first request here, so that the PDF row measures renders (PDF_RENDER_AHEAD=0).
  const product = await startProduct({ PDF_RENDER_AHEAD: '0' });
  children.push(product);
  // The reference runs with the product's runtime flags and NODE_ENV, so that only the code differs (without it,
  // React's development build: ~1.7x the CPU per page; every page ratio before 2026-11-29 read too high).
  const production = { NODE_ENV: 'production' };
  const reference = await startScript('bench/reference/server.ts', production, '/', undefined, RUNTIME_FLAGS);
  children.push(reference);
  // The embedded platform is the process's other port that answers the platform's API (sandbox providers listen too).
  let platformPort = 0;
  const token = await login(product.base);
  const apiCall = {
    method: 'POST' as const,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  };
  for (const port of listeningPortsOf(product.pid).filter((p) => p !== product.port)) {
    const res = await fetch(`http://127.0.0.1:${port}${API_PATH}`, apiCall).catch(() => null);
    await res?.arrayBuffer();
    if (res?.status === 200) platformPort = port;
  }
  if (!platformPort) throw new Error('the embedded platform port was not found');

  const evidence = await uploadEvidence(product.base, token, {
    title: '基准测试证据',
    fileName: 'bench.txt',
    bytes: Buffer.from(`bench evidence ${Date.now()}`),
  });

  // The same product twice more per database, its demo account holding few and many evidences.
  const signedIn = async (child: Child) => {
    const upstreamToken = await login(child.base);
    const storage = sessionStorageFor({ sessionSecrets: [BENCH_SESSION_SECRET], secureCookies: false });
    const session = await storage.getSession(null);
    session.set('token', upstreamToken);
    session.set('expiresAt', Math.floor(Date.now() / 1000) + 86_400);
    const cookie = (await storage.commitSession(session)).split(';')[0]!;
    return { child, cookie, bearer: `Bearer ${upstreamToken}` };
  };
  type Holder = Awaited<ReturnType<typeof signedIn>>;
  const listPage = (h: Holder) => ({
    url: `${h.child.base}/attestation-list/file`,
    pid: h.child.pid,
    headers: { cookie: h.cookie },
  });
  const search = (h: Holder) => ({
    url: `${h.child.base}/api/data/getList?page=1&limit=20&keyword=${encodeURIComponent(NO_MATCH_KEYWORD)}`,
    pid: h.child.pid,
    headers: { authorization: h.bearer },
  });
  const atFew = `the same at ${FEW_EVIDENCES} evidences`;
  const dataRows: Row[] = [];
  for (const dialect of parts.has('data') ? DATA_DIALECTS : []) {
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
      holders.push(await signedIn(child));
    }
    const [few, many] = holders as [Holder, Holder];
    const at = `${MANY_EVIDENCES.toLocaleString('en')} evidences, ${dialect}`;
    dataRows.push(
      {
        name: `list page, ${at}`,
        product: listPage(many),
        reference: { ...listPage(few), label: atFew },
        goal: 0.7,
      },
      {
        name: `no-match keyword search, ${at}`,
        product: search(many),
        reference: { ...search(few), label: atFew },
        goal: 0.7,
      },
    );
  }

  const bare = {
    url: `${reference.base}/login`,
    pid: reference.pid,
    label: 'bare React Router page, same document',
  };
  const pageRows: Row[] = [
    {
      name: '/login SSR',
      product: { url: `${product.base}/login`, pid: product.pid },
      reference: bare,
      goal: 0.8,
    },
    {
      name: 'certificate page',
      product: { url: `${product.base}/attestation/${evidence.baoquan}`, pid: product.pid },
      reference: bare,
      goal: 0.5,
    },
    {
      name: '/queryAuthentication',
      product: { url: `${product.base}/queryAuthentication`, pid: product.pid },
      reference: bare,
      goal: 0.8,
    },
    {
      name: '(information) the bare page: the same document vs a minimal form page',
      product: { url: `${reference.base}/login`, pid: reference.pid },
      reference: { url: `${reference.base}/`, pid: reference.pid, label: 'a minimal form, no frame' },
    },
  ];
  const apiRows: Row[] = [
    {
      name: '/api via gateway',
      product: { url: `${product.base}${API_PATH}`, pid: product.pid, ...apiCall },
      reference: {
        url: `http://127.0.0.1:${platformPort}${API_PATH}`,
        pid: product.pid,
        ...apiCall,
        label: 'the platform port directly',
      },
      goal: 0.85,
      p99AddedGoalMs: 1,
    },
  ];
  const rows: Row[] = [
    ...(parts.has('pages') ? pageRows : []),
    ...(parts.has('api') ? apiRows : []),
    ...dataRows,
  ];

  const results = await measureRows(rows, {
    rounds: ROUNDS,
    seconds: SECONDS,
    warmSeconds: WARM_SECONDS,
    connections: CONNECTIONS,
  });
  printRows(rows, results, print);

  // Certificate PDFs (point 4): the product's warm render vs a bare page.pdf() of the same print view.
  if (parts.has('pdf')) printPdfRows(await comparePdfs(product.base, token, PDF_COUNT), PDF_COUNT, print);
  // Uploads (point 2): MiB/s into the product (api and no-JS form) vs the same client into a discard server.
  if (parts.has('upload')) {
    printUploadRows(
      await compareUploads({ bytes: UPLOAD_BYTES, rounds: ROUNDS, log: print }),
      UPLOAD_BYTES,
      print,
    );
  }
  // Ledger (point 5): appends and proofs at LEDGER_LEAVES leaves, each database with its durability.
  if (parts.has('ledger')) {
    const ledgers = [];
    for (const dialect of DATA_DIALECTS) ledgers.push(await measureLedger(dialect, LEDGER_LEAVES, print));
    printLedgerRows(ledgers, print);
  }

  const loadAfter = os.loadavg();
  print('');
  print(
    `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), ` +
      `Node.js ${process.version}, load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')} before, ` +
      `${loadAfter.map((l) => l.toFixed(2)).join(' ')} after; ${ROUNDS} round(s) of ${SECONDS} s per side, ` +
      `${CONNECTIONS} connections; ${((performance.now() - started) / 1000).toFixed(0)} s in all`,
  );
} finally {
  for (const child of children.reverse()) await child.stop();
  for (const drop of cleanups) await drop();
}
