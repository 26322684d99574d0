/** The closing line of a bench's report: where and when it ran, and how busy the machine was. */
import os from 'node:os';

/**
 * The date, the cores and their model, Node.js, the load average (1, 5 and 15 minutes) at `loadBefore` (os.loadavg()
 * taken at the start) and now, `what` the bench did, and the seconds since `startedMs` (a performance.now() value).
 */
export function machineLine(loadBefore: readonly number[], startedMs: number, what: string): string {
  const load = (l: readonly number[]) => l.map((x) => x.toFixed(2)).join(' ');
  return (
    `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), ` +
    `Node.js ${process.version}, load average ${load(loadBefore)} before, ${load(os.loadavg())} after; ${what}; ` +
    `${((performance.now() - startedMs) / 1000).toFixed(0)} s in all`
  );
}
