/**
 * A process tree's memory over a long run, for `bench/soak.ts` (the soak's goal: flat RSS): the product and
 * everything it started (the headless Chromium of the certificate PDFs and its renderers) sampled every few seconds
 * from /proc, and the median of the samples in a window of the run, so that one sample taken just before a major
 * collection does not decide a verdict.
 */
import { processTree, rssOf, treePssOf } from './process.ts';
import { median } from './stats.ts';

/** One sample of the tree's memory. */
export interface MemorySample {
  /** Seconds since the sampler started. */
  at: number;
  /** Resident set size of the root process alone, bytes. */
  rss: number;
  /** Resident set sizes of the root and all its descendants added up, bytes (a shared page counts once per process). */
  treeRss: number;
  /** Proportional set size of the root and its descendants, bytes (a shared page divided among its sharers). */
  treePss: number;
  /** Processes in the tree. */
  processes: number;
}

/** The RSS of `pid` and of all its descendants added up, bytes (Linux /proc); the processes counted beside it. */
export function treeRssOf(pid: number): { bytes: number; processes: number } {
  const pids = processTree(pid);
  let bytes = 0;
  for (const p of pids) {
    const rss = rssOf(p);
    // a process that ended between the listing and the read counts nothing
    if (Number.isFinite(rss)) bytes += rss;
  }
  return { bytes, processes: pids.length };
}

/** Reads one {@link MemorySample} of `pid`'s tree, `at` seconds into the run. */
export function sampleMemory(pid: number, at: number): MemorySample {
  const tree = treeRssOf(pid);
  return { at, rss: rssOf(pid), treeRss: tree.bytes, treePss: treePssOf(pid), processes: tree.processes };
}

/**
 * Samples `pid`'s tree now and then every `everyMs` milliseconds until `stop()`; `samples` grows in place.
 * `at` counts from the moment this is called.
 */
export function memoryTimeline(pid: number, everyMs: number) {
  const started = performance.now();
  const samples: MemorySample[] = [];
  const take = () => samples.push(sampleMemory(pid, (performance.now() - started) / 1000));
  take();
  const timer = setInterval(take, everyMs);
  return { samples, stop: () => clearInterval(timer) };
}

/** Medians (bytes) of the samples taken from `from` (inclusive) to `to` (exclusive) seconds, and their count. */
export interface WindowMedians {
  rss: number;
  treeRss: number;
  treePss: number;
  count: number;
}

/**
 * The median of each figure over the samples with `from ≤ at < to` (seconds).
 * @throws when no sample falls in the window (the run was too short for its sampling interval)
 */
export function windowMedians(samples: readonly MemorySample[], from: number, to: number): WindowMedians {
  const inside = samples.filter((s) => s.at >= from && s.at < to);
  if (inside.length === 0) throw new Error(`no memory sample between ${from} s and ${to} s`);
  return {
    rss: median(inside.map((s) => s.rss)),
    treeRss: median(inside.map((s) => s.treeRss)),
    treePss: median(inside.map((s) => s.treePss)),
    count: inside.length,
  };
}
