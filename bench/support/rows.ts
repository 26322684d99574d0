/**
 * The side-by-side rows of `npm run bench` (decision 032): a row is a product URL and a reference URL, each driven
 * with autocannon for a number of seconds while its server process's CPU time is read from /proc; rounds alternate
 * which side goes first; a row with a p99 goal is also timed at a fixed rate, in slices the sides take turns in
 * (bench/support/latency.ts). Prints one Markdown table of ratios (product ÷ reference requests per second), medians
 * of the rounds.
 */
import autocannon from 'autocannon';
import { cpuSecondsOf } from './process.ts';
import { assertSameRun, median, RUN, type Stamped } from './stats.ts';
import { latencyAtRate, latencyFigures, type LatencyFigures } from './latency.ts';

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

/** Fixed-rate slices per round of a row with a p99 goal, half a side's seconds each, the sides taking turns. */
const FIXED_RATE_SLICES = 4;

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
  // Warm-up: the first renders load the build and fill the JIT. A row with a CPU goal gets three times as long: a
  // proxy's first 6 s spent ~1.65x the CPU per call of its steady state (2026-12-06), more than the goal's margin.
  for (const row of rows) {
    const warm = warmSeconds * (row.cpuGoal !== undefined ? 3 : 1);
    await drive(row.product, warm, connections);
    const reference = await drive(row.reference, warm, connections);
    // and at the fixed rate, twice: the gateway's p99 there fell from 50–95 ms in its first two 4 s slices to 6–8 ms
    // from the third on (2026-12-06), while a bare proxy's stayed at 17–23 ms
    if (row.p99AddedGoalMs !== undefined) {
      const rate = Math.round(reference.rps * (row.fixedRateShare ?? 0.5));
      for (let i = 0; i < 2; i++) {
        await latencyAtRate(row.product, rate, warm);
        await latencyAtRate(row.reference, rate, warm);
      }
    }
    if (row.also) await drive(row.also, warmSeconds, connections);
  }
  const results = new Map<string, RowResults>();
  for (let round = 0; round < rounds; round++) {
    for (const row of rows) {
      const sides = results.get(row.name) ?? { product: [], reference: [], also: [], fixed: [] };
      results.set(row.name, sides);
      // Alternate which side goes first, so that drift within a round does not favour one side.
      const first: 'product' | 'reference' = round % 2 === 0 ? 'product' : 'reference';
      const second: 'product' | 'reference' = first === 'product' ? 'reference' : 'product';
      sides[first].push(await drive(row[first], seconds, connections));
      sides[second].push(await drive(row[second], seconds, connections));
      if (row.also) sides.also.push(await drive(row.also, seconds, connections));
      if (row.p99AddedGoalMs !== undefined) {
        const rate = Math.round(sides.reference.at(-1)!.rps * (row.fixedRateShare ?? 0.5));
        // In slices, the sides taking turns, each side's latencies pooled: a stall of the machine's (two cores
        // shared with the client and the platform) lands in one slice of one side, not in a whole side's p99.
        const pooled = { product: [] as number[], reference: [] as number[] };
        for (let slice = 0; slice < FIXED_RATE_SLICES; slice++) {
          for (const side of slice % 2 === 0 ? [first, second] : [second, first]) {
            pooled[side].push(...(await latencyAtRate(row[side], rate, seconds / 2)).latencies);
          }
        }
        sides.fixed.push({
          rate,
          product: latencyFigures(pooled.product),
          reference: latencyFigures(pooled.reference),
        });
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
