/**
 * The worker's CPU priority (docs/decisions/064-background-worker.md): Linux's nice value is per thread
 * (setpriority(2), "a per-thread attribute" under NPTL), so lowering the process means lowering every thread it has —
 * the main thread, V8's and libuv's — read from /proc/self/task; threads and processes started afterwards (Chromium
 * and its renderers) inherit the nice value of the thread that starts them. Elsewhere, the process's own call.
 */
import fs from 'node:fs';
import os from 'node:os';

/**
 * Sets every thread of this process to at least `nice` (0–19; a thread already lower in priority is left as it is).
 * @returns how many threads were changed
 * @throws what os.setPriority throws when not even the calling thread can be changed
 */
export function lowerPriority(nice: number): number {
  let tids: number[];
  try {
    tids = fs.readdirSync('/proc/self/task').map(Number);
  } catch {
    os.setPriority(nice); // not Linux: the process as a whole
    return 1;
  }
  let changed = 0;
  for (const tid of tids) {
    try {
      if (os.getPriority(tid) >= nice) continue;
      os.setPriority(tid, nice);
      changed++;
    } catch {
      // the thread ended meanwhile
    }
  }
  if (os.getPriority(0) < nice) os.setPriority(nice);
  return changed;
}

/** The nice values of this process's threads (Linux; empty elsewhere). */
export function threadPriorities(pid: number | 'self' = 'self'): number[] {
  try {
    return fs
      .readdirSync(`/proc/${pid}/task`)
      .map((tid) => {
        // /proc/<pid>/task/<tid>/stat: field 19 is nice; the command name (field 2) may hold spaces, so count after ')'
        const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      })
      .filter((n) => Number.isFinite(n));
  } catch {
    return [];
  }
}

/** CAP_SYS_NICE's bit in the capability sets (linux/capability.h). */
const CAP_SYS_NICE = 23n;

/** Whether this process may raise priorities: CAP_SYS_NICE in its effective set (/proc/self/status `CapEff`). */
function hasSysNice(): boolean {
  try {
    const eff = /^CapEff:\s*([0-9a-f]+)$/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1];
    return eff !== undefined && ((BigInt(`0x${eff}`) >> CAP_SYS_NICE) & 1n) === 1n;
  } catch {
    return false;
  }
}

/** util-linux's setpriv(1), in every Debian (util-linux is Essential). */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'];

/**
 * The executable the worker launches Chromium as, so that Chromium keeps the worker's priority. A process with
 * CAP_SYS_NICE (root) may raise its threads' priority, and Chromium does: launched by a root worker at nice 10, its
 * threads run at 0 and some at −8 (measured; decision 064). With CAP_SYS_NICE, this writes a wrapper script into
 * `dir` that starts Chromium through setpriv without CAP_SYS_NICE in its bounding set, so neither Chromium nor
 * anything it starts can raise a priority again. Without the capability (a non-root user, a container's default set)
 * Chromium cannot raise its priority (RLIMIT_NICE), and without setpriv there is no wrapper: `chromiumPath` itself.
 * @param dir an existing private directory (0700) of this process
 * @returns the path to launch
 */
export function chromiumAtOurPriority(chromiumPath: string, dir: string): string {
  const setpriv = SETPRIV.find((p) => fs.existsSync(p));
  if (!hasSysNice() || !setpriv) return chromiumPath;
  const quoted = `'${chromiumPath.replace(/'/g, `'\\''`)}'`;
  const wrapper = `${dir}/chromium`;
  fs.writeFileSync(
    wrapper,
    `#!/bin/sh\nexec ${setpriv} --bounding-set=-sys_nice --inh-caps=-sys_nice -- ${quoted} "$@"\n`,
    { mode: 0o700 },
  );
  return wrapper;
}
