/**
 * Soak (`npm run bench:soak`; the goal: 30 minutes with flat RSS (growth ≤ 10 %) and no error): the product
 * started as `npm start` does (a child process: embedded platform in its worker thread, sandbox providers, the demo
 * account, the production UI build, a temp DATA_DIR removed at the end; bench/support/process.ts), driven on loopback
 * only by a steady mix of page views, uploads, downloads and certificate pages at a fixed moderate rate (about 10
 * requests a second; bench/support/soak-mix.ts) for `--minutes=N` (default 30), while the memory of its whole process
 * tree (the product and the Chromium that renders each saved evidence's certificate PDF ahead) is sampled every 5 s
 * (bench/support/memory-timeline.ts).
 *
 * Warm-up: the first 20 % of the run (6 minutes of 30). By then V8's heaps have grown to their working size through
 * many major collections, Chromium (launched by the evidence saved before the mix, whose certificate it renders
 * ahead) holds its pool of pages, the JIT has compiled the hot paths and SQLite's page cache is full; what grows
 * after that grows with time. The memory is compared in tenths of the run, each the median of its samples (so that
 * one sample before or after a major collection does not decide): the tenth right after the warm-up (20–30 %) is "at
 * the warm-up's end", the last tenth "at the end". The verdict takes the highest tenth since the warm-up's end, not
 * the last one alone, so that a collection that happens to shrink the heap in the last minutes cannot hide a growth
 * before it: its growth over the warm-up's end, in %, of the tree's RSS (each process's resident set added up) must
 * be ≤ 10 %. The tree's PSS (shared pages divided among their processes) and the main process's RSS are printed
 * beside it.
 *
 * Prints requests by kind, errors (a failed request, a status other than 2xx/3xx, a wrong page or file), skipped ticks
 * (a kind with all its requests in flight), p50/p99 latency per kind, the memory timeline and the growth, and the
 * machine. Exits 1 when there was an error, or when the growth exceeds 10 % in a full run.
 *
 * `--short` (CI, `.ci/run`): one minute of the same mix, sampled every second, 70–90 s in all. Its verdict is on
 * errors only; its growth is printed for information and does not fail it. A one-minute run has no steady state to
 * compare: its warm-up (12 s) ends while the heaps are still growing to their working size, so a growth there says
 * little about a leak either way. Eight short runs on this machine, at load averages from 1 to 12 (other builds and
 * test suites running), read tree-RSS growths from +1.4 to +6.7 %, and the main process's RSS alone grew by up to
 * +14 %: no margin for a CI gate to stand on. A leak is the 30-minute run's to find.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { login, uploadEvidence } from '../tests/support/pdf-whole.ts';
import { startProduct, type Child } from './support/process.ts';
import { machineLine } from './support/machine.ts';
import { memoryTimeline, windowMedians, type WindowMedians } from './support/memory-timeline.ts';
import { KINDS, RATES, latencyOf, runMix, type UploadFile } from './support/soak-mix.ts';
import { generateFile, MiB, pageLogin } from './support/upload.ts';
import { demoPassword } from './support/environment.ts';

const short = process.argv.includes('--short');
const minutesArg = process.argv.find((a) => a.startsWith('--minutes='));
/** Length of the mix, minutes. */
const MINUTES = short ? 1 : Number(minutesArg ? minutesArg.slice('--minutes='.length) : 30);
if (!(MINUTES > 0)) throw new Error('--minutes must be a positive number');
const SECONDS = MINUTES * 60;
/** Tenths of the run counted as warm-up (the memory is compared in tenths of the run). */
const WARM_UP_TENTHS = 2;
/** The figures of a memory window, and their names in the report. */
type Figure = keyof Omit<WindowMedians, 'count'>;
const FIGURE_NAMES: Record<Figure, string> = { treeRss: 'tree RSS', treePss: 'tree PSS', rss: 'main RSS' };
/** Most RSS growth after the warm-up, %, of a full run. */
const GROWTH_LIMIT_PERCENT = 10;
/** Memory sampling interval, milliseconds. */
const SAMPLE_MS = short ? 1000 : Math.min(5000, (SECONDS * 1000) / 40);
/** The uploads' files, bytes: a few hundred KB to a few MB, sent in turn. */
const FILE_SIZES = [300 * 1024, 700 * 1024, 1.2 * MiB, 2 * MiB, 3 * MiB].map(Math.round);

const root = path.resolve(import.meta.dirname, '..');
const print = (line: string) => process.stdout.write(`${line}\n`);
const mib = (bytes: number) => (bytes / MiB).toFixed(1);
const started = performance.now();
const loadBefore = os.loadavg();

if (!existsSync(path.join(root, 'build/server/index.js'))) {
  print('building the product (npm run build)…');
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'cz-soak-'));
let product: Child | null = null;
let failed = false;
try {
  const files: UploadFile[] = [];
  for (const [i, size] of FILE_SIZES.entries()) {
    const file = path.join(dir, `upload-${i}.bin`);
    files.push({ path: file, size, sha256: await generateFile(file, size) });
  }
  product = await startProduct();
  const { base, pid } = product;
  const token = await login(base);
  const jar = await pageLogin(base, demoPassword());
  const seedBytes = Buffer.from(`soak seed ${Date.now()}`);
  const seed = await uploadEvidence(base, token, {
    title: '浸泡测试证据',
    fileName: 'soak.txt',
    bytes: new Uint8Array(seedBytes),
  });
  const seeded = [{ id: seed.id, baoquan: seed.baoquan, size: seedBytes.length, sha256: seed.filehash }];

  const rate = Object.values(RATES).reduce((a, b) => a + b, 0);
  print(
    `soak: ${MINUTES} min at ${rate} requests/s (${KINDS.map((k) => `${k} ${RATES[k]}/s`).join(', ')}), ` +
      `product pid ${pid} on ${base}`,
  );
  const memory = memoryTimeline(pid, SAMPLE_MS);
  let nextReport = SECONDS / 10;
  const tally = await runMix({ base, token, cookie: jar.header(), files, seeded }, SECONDS, 1, (elapsed) => {
    if (elapsed < nextReport) return;
    nextReport += SECONDS / 10;
    const last = memory.samples.at(-1)!;
    print(
      `  ${(elapsed / 60).toFixed(1)} min: tree RSS ${mib(last.treeRss)} MiB (${last.processes} processes), ` +
        `tree PSS ${mib(last.treePss)} MiB, main RSS ${mib(last.rss)} MiB`,
    );
  });
  memory.stop();

  print('');
  print('| kind | rate /s | requests | errors | skipped | p50 ms | p99 ms |');
  print('|---|---|---|---|---|---|---|');
  let errors = 0;
  for (const kind of KINDS) {
    const t = tally[kind];
    const { p50, p99 } = latencyOf(t);
    errors += t.errors;
    print(
      `| ${kind} | ${RATES[kind]} | ${t.ok + t.errors} | ${t.errors} | ${t.skipped} | ${p50.toFixed(1)} | ` +
        `${p99.toFixed(1)} |`,
    );
  }
  for (const kind of KINDS) for (const m of tally[kind].messages) print(`  ${kind} error ${m}`);

  // The timeline in tenths of the run (the last one takes the sample at the mix's end too), then the verdict.
  print('');
  print('| from–to min | tree RSS MiB | tree PSS MiB | main RSS MiB | samples |');
  print('|---|---|---|---|---|');
  const tenths: WindowMedians[] = [];
  for (let i = 0; i < 10; i++) {
    tenths.push(
      windowMedians(memory.samples, (i * SECONDS) / 10, ((i + 1) * SECONDS) / 10 + (i === 9 ? 60 : 0)),
    );
    const w = tenths[i]!;
    print(
      `| ${((i * MINUTES) / 10).toFixed(1)}–${(((i + 1) * MINUTES) / 10).toFixed(1)} | ${mib(w.treeRss)} | ` +
        `${mib(w.treePss)} | ${mib(w.rss)} | ${w.count} |`,
    );
  }
  const after = tenths.slice(WARM_UP_TENTHS);
  const warm = after[0]!;
  const growth = (figure: Figure, at: WindowMedians) => (at[figure] / warm[figure] - 1) * 100;
  const highest = (figure: Figure) => Math.max(...after.map((w) => growth(figure, w)));
  const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(1)} %`;
  print('');
  print(
    `memory at the warm-up's end (${((WARM_UP_TENTHS * MINUTES) / 10).toFixed(1)}–` +
      `${(((WARM_UP_TENTHS + 1) * MINUTES) / 10).toFixed(1)} min) vs the end (last tenth), and vs the highest tenth ` +
      `since: ${(['treeRss', 'treePss', 'rss'] as const)
        .map(
          (f) =>
            `${FIGURE_NAMES[f]} ${mib(warm[f])} → ${mib(tenths[9]![f])} MiB (${signed(growth(f, tenths[9]!))}; ` +
            `highest ${signed(highest(f))})`,
        )
        .join(', ')}`,
  );
  const treeGrowth = highest('treeRss');
  const within = treeGrowth <= GROWTH_LIMIT_PERCENT;
  const memoryVerdict = short
    ? 'information only in --short mode'
    : `goal ≤ ${GROWTH_LIMIT_PERCENT} % ${within ? 'PASS' : 'MISS'}`;
  print(
    `tree RSS growth after the warm-up, highest tenth: ${signed(treeGrowth)} (${memoryVerdict}); errors ${errors} ` +
      `(goal 0 ${errors ? 'MISS' : 'PASS'})`,
  );
  failed = errors > 0 || (!short && !within);
} catch (err) {
  failed = true;
  throw err;
} finally {
  await product?.stop();
  rmSync(dir, { recursive: true, force: true });
  print(machineLine(loadBefore, started, `${MINUTES} min of the mix`));
  if (failed) process.exitCode = 1;
}
