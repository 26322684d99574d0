/** Order statistics of the benches' samples (milliseconds, requests per second, MiB/s …). */

/** The `p`-th percentile (0–100) of `xs` by nearest rank: the smallest value with at least `p` % of `xs` at or below it. */
export function percentile(xs: readonly number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** The median of `xs` (the mean of the middle two for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

/**
 * This bench process's run (decision 032, "Where the goals stop"): every measurement is stamped with it, and
 * {@link assertSameRun} refuses a ratio whose two sides carry different runs, so that no printed ratio can mix a
 * figure of this run with one kept from another (another hour, another machine).
 */
export const RUN = `${process.pid}@${new Date().toISOString()}`;

/** A measurement stamped with the run that took it. */
export interface Stamped {
  run: string;
}

/** @throws when the measurements were not all taken in one run (this process) */
export function assertSameRun(...measurements: readonly (Stamped | readonly Stamped[])[]): void {
  for (const m of measurements.flat()) {
    if (m.run !== RUN)
      throw new Error(`refusing a ratio across runs: a figure of run ${m.run} in run ${RUN}`);
  }
}
