/**
 * The side-by-side rows of `npm run bench` (decision 032): a row is a product URL and a reference URL, each driven
 * with autocannon for a number of seconds while its server process's CPU time is read from /proc; rounds alternate
 * which side goes first; a row with a p99 goal is also timed at a fixed rate (bench/support/latency.ts). Prints one
 * Markdown table of ratios (product ÷ reference requests per second), medians of the rounds.
 */
import autocannon from 'autocannon';
import { cpuSecondsOf } from './process.ts';
import { assertSameRun, median, RUN, type Stamped } from './stats.ts';
import { latencyAtRate, type LatencyFigures } from './latency.ts';

/** One side of a measurement: what autocannon saw (req/s, latency ms) and the CPU ms the server spent per request. */
export interface Side extends Stamped {
  rps: number;
  p50: number;
  p99: number;
  cpuMsPerRequest: number;
}

/** What a row sends: a URL, and for a call other than a GET its method, headers and body. */
export interface Target {
  url: string;
  pid: number;
  method?: 'POST';
  headers?: Record<string, string>;
  body?: string;
}

/**
 * Drives the target for `seconds` with autocannon over `connections` connections and reads its process's CPU time
 * around it. @throws when any request fails or answers other than 2xx
 */
export async function drive(target: Target, seconds: number, connections: number): Promise<Side> {
  const { url, pid, ...request } = target;
  const cpuBefore = cpuSecondsOf(pid);
  const result = await autocannon({ url, ...request, connections, duration: seconds });
  const cpu = cpuSecondsOf(pid) - cpuBefore;
  if (result.errors > 0 || result.non2xx > 0) {
    throw new Error(`${url}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
  }
  const total = result.requests.total;
  return {
    run: RUN,
    rps: total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMsPerRequest: (cpu * 1000) / total,
  };
}

/** A row: a product URL and a reference URL, each with the process whose CPU time counts. */
export interface Row {
  name: string;
  product: Target;
  reference: Target & { label: string };
  /** Least ratio; none for a row shown for information. */
  goal?: number;
  /** A second reference measured in the same rounds, its ratio printed beside the goal's (no goal of its own). */
  also?: Target & { label: string };
  /** Most CPU per request the product may spend, as a multiple of the reference's; none when not a goal. */
  cpuGoal?: number;
  /**
   * Most milliseconds the product may add to the reference's p99 latency, when the row has such a goal: measured at
   * a fixed rate, `fixedRateShare` of the reference's requests per second in the round (bench/support/latency.ts).
   */
  p99AddedGoalMs?: number;
  /** The fixed rate's share of the reference's capacity (default 0.5, decision 032's "50 % of the bare proxy"). */
  fixedRateShare?: number;
}

/** The fixed-rate latencies of a row with a p99 goal: the rate (req/s) and each side's figures. */
export interface FixedRate {
  rate: number;
  product: LatencyFigures;
  reference: LatencyFigures;
}

/** What the rounds measured of one row, one entry per round. */
export interface RowResults {
  product: Side[];
  reference: Side[];
  /** The second reference's sides, when the row has one. */
  also: Side[];
  fixed: FixedRate[];
}

/** How long and how hard {@link measureRows} drives: rounds, seconds per side (and of the warm-up), connections. */
export interface RowSettings {
  rounds: number;
  seconds: number;
  warmSeconds: number;
  connections: number;
}

/**
 * Warms every row up, then measures each row `rounds` times, alternating which side goes first.
 * @returns the results by row name
 */
export async function measureRows(
  rows: readonly Row[],
  settings: RowSettings,
): Promise<Map<string, RowResults>> {
  const { rounds, seconds, warmSeconds, connections } = settings;
  // Warm-up: the first renders load the build and fill the JIT.
  for (const row of rows) {
    await drive(row.product, warmSeconds, connections);
    await drive(row.reference, warmSeconds, connections);
    if (row.also) await drive(row.also, warmSeconds, connections);
  }
  const results = new Map<string, RowResults>();
  for (let round = 0; round < rounds; round++) {
    for (const row of rows) {
      const sides = results.get(row.name) ?? { product: [], reference: [], also: [], fixed: [] };
      results.set(row.name, sides);
      // Alternate which side goes first, so that drift within a round does not favour one side.
      const first = round % 2 === 0 ? 'product' : 'reference';
      const second = first === 'product' ? 'reference' : 'product';
      sides[first].push(await drive(row[first], seconds, connections));
      sides[second].push(await drive(row[second], seconds, connections));
      if (row.also) sides.also.push(await drive(row.also, seconds, connections));
      if (row.p99AddedGoalMs !== undefined) {
        const rate = Math.round(sides.reference.at(-1)!.rps * (row.fixedRateShare ?? 0.5));
        const fixed = { rate } as FixedRate;
        fixed[first] = await latencyAtRate(row[first], rate, seconds);
        fixed[second] = await latencyAtRate(row[second], rate, seconds);
        sides.fixed.push(fixed);
      }
    }
  }
  return results;
}

/** Prints the rows' table: both sides' medians, the ratio with its spread, and the goal with PASS/MISS. */
export function printRows(
  rows: readonly Row[],
  results: ReadonlyMap<string, RowResults>,
  print: (line: string) => void,
): void {
  print('');
  print(
    `| what | product req/s | CPU ms/req | p50/p99 ms | reference | req/s | CPU ms/req | ratio (spread) | goal |`,
  );
  print(`|---|---|---|---|---|---|---|---|---|`);
  for (const row of rows) {
    const { product: p, reference: r, also, fixed } = results.get(row.name)!;
    assertSameRun(p, r, also);
    const ratios = p.map((side, i) => side.rps / r[i]!.rps);
    const ratio = median(ratios);
    const pRps = median(p.map((s) => s.rps));
    const rRps = median(r.map((s) => s.rps));
    const goals: string[] = [];
    if (row.goal !== undefined) goals.push(`≥ ${row.goal} ${ratio >= row.goal ? 'PASS' : 'MISS'}`);
    const cpu = (sides: Side[]) => median(sides.map((s) => s.cpuMsPerRequest)).toFixed(3);
    if (row.cpuGoal !== undefined) {
      const cpuRatio = median(p.map((s) => s.cpuMsPerRequest)) / median(r.map((s) => s.cpuMsPerRequest));
      goals.push(
        `CPU per request ${cpuRatio.toFixed(2)}× (≤ ${row.cpuGoal}) ${cpuRatio <= row.cpuGoal ? 'PASS' : 'MISS'}`,
      );
    }
    if (row.p99AddedGoalMs !== undefined) {
      const at = (side: 'product' | 'reference', q: 'p50' | 'p99') => median(fixed.map((f) => f[side][q]));
      const added = at('product', 'p99') - at('reference', 'p99');
      goals.push(
        `at ${median(fixed.map((f) => f.rate)).toFixed(0)} req/s p50 ${at('product', 'p50').toFixed(2)} vs ` +
          `${at('reference', 'p50').toFixed(2)} ms, p99 ${at('product', 'p99').toFixed(2)} vs ` +
          `${at('reference', 'p99').toFixed(2)} ms: ${added >= 0 ? '+' : '−'}${Math.abs(added).toFixed(2)} ms ` +
          `(≤ ${row.p99AddedGoalMs}) ${added <= row.p99AddedGoalMs ? 'PASS' : 'MISS'}`,
      );
    }
    if (row.also) {
      const alsoRatios = p.map((side, i) => side.rps / also[i]!.rps);
      goals.push(
        `beside: ${median(alsoRatios).toFixed(2)} of ${row.also.label} (${median(also.map((s) => s.rps)).toFixed(0)} req/s)`,
      );
    }
    const goal = goals.length ? goals.join('; ') : '—';
    print(
      `| ${row.name} | ${pRps.toFixed(0)} | ${cpu(p)} | ${median(p.map((s) => s.p50))}/${median(p.map((s) => s.p99))} | ` +
        `${row.reference.label} | ${rRps.toFixed(0)} | ${row.reference.pid === row.product.pid ? '(same process)' : cpu(r)} | ` +
        `${ratio.toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}) | ${goal} |`,
    );
  }
}
