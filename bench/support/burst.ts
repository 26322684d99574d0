/**
 * Reads while a burst of uploads is pre-rendered (decision 032, "Where the goals stop"; decision 064):
 * for `npm run bench`. On a product holding many evidences, `uploads` small evidences are saved through `/api` as
 * fast as 8 clients can (each save sets off its certificate PDF's render in the background worker's Chromium, at a
 * lower CPU priority); then, while the render backlog drains, each read (the evidence list page, a no-match keyword
 * search, a certificate page) is driven round after round both ways on the same data: with the worker running, and
 * idle, the worker and its Chromium stopped (SIGSTOP) for the measurement, the order alternating by round; the ratio
 * of the first to the second is printed (goal ≥ 0.8). The backlog is the saved evidences whose certificate PDF is
 * not in the product's PDF cache yet. During the first measurement with the worker running, each of the product's
 * processes' share of the CPU (the gateway, the worker, its Chromium; sampled from /proc) with its nice value shows
 * who got the CPU.
 */
import { readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { uploadEvidence } from '../../tests/support/pdf-whole.ts';
import { processTree, statOf, type Child } from './process.ts';
import { drive, type Side, type Target } from './rows.ts';
import { median } from './stats.ts';

/** A read to drive: its name and request. */
export interface BurstRead {
  name: string;
  target: Target;
}

/** What {@link measureDuringBurst} saw. */
export interface BurstResult {
  uploads: number;
  uploadSeconds: number;
  idle: Map<string, Side[]>;
  draining: Map<string, Side[]>;
  /** The backlog (certificate PDFs not yet rendered) before and after each draining round. */
  backlog: number[];
  /** The product's processes' CPU shares and nice values during the first draining measurement. */
  ps: string;
}

/** Options of {@link measureDuringBurst}. */
export interface BurstOptions {
  product: Child;
  /** The demo account's bearer token (`Bearer …` not included). */
  token: string;
  reads: readonly BurstRead[];
  uploads: number;
  rounds: number;
  seconds: number;
  connections: number;
  log: (line: string) => void;
}

/** Concurrent upload clients of the burst. */
const UPLOADERS = 8;

/** Certificate PDFs in the product's cache directory (DATA_DIR/cache/pdf). */
function cachedPdfs(dataDir: string): number {
  try {
    return readdirSync(path.join(dataDir, 'cache', 'pdf')).filter((f) => f.endsWith('.pdf')).length;
  } catch {
    return 0;
  }
}

/**
 * Samples the CPU time of `pid` and its descendants every 250 ms until `until` settles, and returns one line per
 * process that ran: pid, nice, command, and its share of one core over the window (%), the processes of equal
 * command and nice summed (Chromium's renderers come and go; a process that ends between two samples loses at most
 * 250 ms). Unlike `ps`'s pcpu (CPU time over the process's whole life) these are the shares of the window itself.
 */
async function cpuSharesDuring(pid: number, until: Promise<unknown>): Promise<string> {
  const first = new Map<number, number>();
  const last = new Map<number, { comm: string; nice: number; cpu: number }>();
  const sample = () => {
    for (const p of processTree(pid)) {
      const stat = statOf(p);
      if (!stat) continue;
      if (!first.has(p)) first.set(p, stat.cpu);
      last.set(p, stat);
    }
  };
  const started = performance.now();
  sample();
  const timer = setInterval(sample, 250);
  await until.finally(() => clearInterval(timer));
  sample();
  const wall = (performance.now() - started) / 1000;
  const groups = new Map<string, { pids: number[]; cpu: number }>();
  for (const [p, stat] of last) {
    const key = `${stat.nice}\t${p === pid ? `${stat.comm} (gateway)` : stat.comm}`;
    const group = groups.get(key) ?? { pids: [], cpu: 0 };
    group.pids.push(p);
    group.cpu += stat.cpu - first.get(p)!;
    groups.set(key, group);
  }
  const lines = [...groups]
    .filter(([, g]) => g.cpu > 0)
    .sort((a, b) => b[1].cpu - a[1].cpu)
    .map(([key, g]) => {
      const [nice, comm] = key.split('\t');
      const pids = g.pids.length === 1 ? String(g.pids[0]) : `${g.pids.length} processes`;
      return `${pids.padEnd(12)} ni ${nice!.padStart(3)}  ${((g.cpu / wall) * 100).toFixed(0).padStart(4)} %  ${comm}`;
    });
  return [`over ${wall.toFixed(1)} s, % of one core (${os.cpus().length} cores):`, ...lines].join('\n');
}

/**
 * Measures as described in the module header. @throws when an upload or a read fails
 */
export async function measureDuringBurst(opts: BurstOptions): Promise<BurstResult> {
  const { product, reads, seconds, connections, log } = opts;
  const dataDir = product.dataDir!;
  const idle = new Map<string, Side[]>();
  const draining = new Map<string, Side[]>();
  const push = (into: Map<string, Side[]>, name: string, side: Side) =>
    into.set(name, [...(into.get(name) ?? []), side]);
  for (const read of reads) await drive(read.target, 1, connections); // warm-up
  const cachedBefore = cachedPdfs(dataDir);
  const started = performance.now();
  let next = 0;
  const uploader = async () => {
    while (next < opts.uploads) {
      const i = next++;
      await uploadEvidence(product.base, opts.token, {
        title: `突发上传 ${i + 1}`,
        fileName: `burst-${i + 1}.txt`,
        bytes: new Uint8Array(Buffer.from(`burst evidence ${i} ${Date.now()}`)),
      });
    }
  };
  await Promise.all(Array.from({ length: UPLOADERS }, uploader));
  const uploadSeconds = (performance.now() - started) / 1000;
  const backlogNow = () => Math.max(0, opts.uploads - (cachedPdfs(dataDir) - cachedBefore));
  const backlog = [backlogNow()];
  log(
    `burst: ${opts.uploads} uploads saved in ${uploadSeconds.toFixed(1)} s; ${backlog[0]} certificate PDFs ` +
      `waiting to be rendered`,
  );
  let ps = '';
  for (let round = 0; round < opts.rounds; round++) {
    for (const read of reads) {
      // The idle side on the same data: the worker and its Chromium stopped (SIGSTOP) for the measurement. Idle
      // measured before the burst, as until 2026-12-06, read another data set: 5,000 rows fewer, no unmerged WAL.
      const idleSide = async () => {
        const background = processTree(product.pid).filter((p) => p !== product.pid);
        signalAll(background, 'SIGSTOP');
        try {
          push(idle, read.name, await drive(read.target, seconds, connections));
        } finally {
          signalAll(background, 'SIGCONT');
        }
      };
      const drainingSide = async () => {
        const measuring = drive(read.target, seconds, connections);
        // the first measurement: the reads, the worker and its Chromium all busy
        if (!ps) ps = await cpuSharesDuring(product.pid, measuring);
        push(draining, read.name, await measuring);
      };
      // the order alternates by round, as the rows' sides do (bench/support/rows.ts)
      for (const side of round % 2 === 0 ? [drainingSide, idleSide] : [idleSide, drainingSide]) await side();
    }
    backlog.push(backlogNow());
    log(`burst: draining round ${round + 1}, ${backlog.at(-1)} certificate PDFs still waiting`);
  }
  return { uploads: opts.uploads, uploadSeconds, idle, draining, backlog, ps };
}

/** Sends `signal` to each of `pids` that still runs. */
function signalAll(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // ended meanwhile (a Chromium renderer)
    }
  }
}

/** Least ratio of a read's rate while the backlog drains to its idle rate on the same data. */
const BURST_GOAL = 0.8;

/** Prints the burst table and the `ps` lines. */
export function printBurstRows(label: string, result: BurstResult, print: (line: string) => void): void {
  print('');
  print(
    `| ${label}: while ${result.uploads.toLocaleString('en')} uploads are pre-rendered | req/s draining | ` +
      `p50/p99 ms | req/s idle (worker stopped) | ratio (spread) | goal |`,
  );
  print('|---|---|---|---|---|---|');
  for (const [name, sides] of result.draining) {
    const idle = result.idle.get(name)!;
    const idleRps = median(idle.map((s) => s.rps));
    const ratios = sides.map((s, i) => s.rps / idle[i]!.rps);
    const ratio = median(ratios);
    print(
      `| ${name} | ${median(sides.map((s) => s.rps)).toFixed(0)} | ${median(sides.map((s) => s.p50))}/` +
        `${median(sides.map((s) => s.p99))} | ${idleRps.toFixed(0)} | ${ratio.toFixed(2)} ` +
        `(${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}) | ` +
        `≥ ${BURST_GOAL} ${ratio >= BURST_GOAL ? 'PASS' : 'MISS'} |`,
    );
  }
  print('');
  print(
    `${label}: uploads saved in ${result.uploadSeconds.toFixed(1)} s; backlog ${result.backlog.join(' → ')}; ` +
      `the product's processes during the first draining measurement:`,
  );
  print('```');
  print(result.ps);
  print('```');
}
