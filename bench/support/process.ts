/**
 * The benches' child processes (Linux): starting the real product (`server/main.ts`, embedded platform, temp
 * DATA_DIR, the production UI build) or another server script on loopback, and reading a process's resident memory,
 * CPU time and listening ports from /proc. Used by `bench/run.ts` and `bench/abuse.ts`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RUNTIME_FLAGS } from '../../server/runtime-flags.ts';
import { freePort } from '../../tests/support/ports.ts';
import { listeningPorts, processTree } from '../../tests/support/proc.ts';
import { childEnvironment } from './environment.ts';

export { processTree };

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resident set size of `pid` in bytes (Linux /proc), or NaN elsewhere. */
export function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : NaN;
  } catch {
    return NaN;
  }
}

/**
 * Samples `pid`'s RSS every 50 ms until stopped; `peak()` is the highest sample (bytes) since the start or the last
 * `reset()`, which starts again from the RSS at that moment.
 */
export function rssSampler(pid: number) {
  let peak = rssOf(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, 50);
  return {
    peak: () => peak,
    reset: () => {
      peak = rssOf(pid);
    },
    stop: () => clearInterval(timer),
  };
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on every Linux the project runs on). */
const USER_HZ = 100;

/** CPU time (user + system, seconds, 10 ms resolution) `pid` has used so far, all threads; NaN off Linux. */
export function cpuSecondsOf(pid: number): number {
  return statOf(pid)?.cpu ?? NaN;
}

/** One process as /proc/{pid}/stat gives it (proc(5)): command, nice value, CPU seconds (user + system); null when gone. */
export function statOf(pid: number): { comm: string; nice: number; cpu: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start at its closing parenthesis: state is field 3,
    // utime 14, stime 15, nice 19.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    return { comm, nice: Number(fields[16]), cpu: (Number(fields[11]) + Number(fields[12])) / USER_HZ };
  } catch {
    return null;
  }
}

/** The TCP ports `pid` listens on (tests/support/proc.ts). */
export const listeningPortsOf = (pid: number): number[] => listeningPorts(pid);

/** A started child server. */
export interface Child {
  pid: number;
  /** `http://127.0.0.1:PORT`. */
  base: string;
  port: number;
  /** The product's DATA_DIR (startProduct only). */
  dataDir?: string;
  /** SIGTERM, waits for the exit, removes its temp data directory if it has one. */
  stop: () => Promise<void>;
}

/**
 * Starts `node [nodeFlags] [loader] <script>` (`loader` by default `--import tsx`; none for the product's own entries,
 * which Node.js runs as `npm start` does) with `env` on a free loopback port (PORT, HOST) and waits until `readyPath`
 * answers 2xx (60 s at most). The child's stdout is discarded, its stderr shown.
 * @throws when the child exits or does not answer in time.
 */
export async function startScript(
  script: string,
  env: Record<string, string>,
  readyPath = '/',
  cleanup: () => void = () => undefined,
  nodeFlags: readonly string[] = [],
  loader: readonly string[] = ['--import', 'tsx'],
): Promise<Child> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeFlags, ...loader, script], {
    env: childEnvironment({ ...env, PORT: String(port), HOST: '127.0.0.1' }),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  for (let i = 0; ; i++) {
    if (exited) throw new Error(`${script} exited during start-up`);
    if (i > 600) throw new Error(`${script} did not start within 60 s`);
    const up = await fetch(`${base}${readyPath}`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    await sleep(100);
  }
  return {
    pid: child.pid!,
    base,
    port,
    stop: async () => {
      if (!exited) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      cleanup();
    },
  };
}

/** Session secret of the benches' product processes (never a production value). */
export const BENCH_SESSION_SECRET = 'bench-session-secret-bench-session-secret-01';

/**
 * Starts the product as `npm start` does (its runtime flags, NODE_ENV=production, the embedded platform and its sandbox providers and
 * demo account, the production UI build from `build/`) on a fresh temp DATA_DIR, with `env` on top (e.g.
 * LOG_LEVEL). APP_ENV=test enables the test hooks; SCRYPT_N=1024 keeps logins cheap; RATE_LIMIT_PER_MINUTE is high
 * because every bench client is 127.0.0.1 (bench/run.ts loads `/queryAuthentication` as fast as it answers, the abuse
 * bench posts 1,000 logins): the gateway's per-IP limit still counts each request, it just never refuses one. Run
 * `npm run build` first.
 */
export async function startProduct(env: Record<string, string> = {}): Promise<Child> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cz-bench-'));
  const child = await startScript(
    'server/main.ts',
    {
      NODE_ENV: 'production',
      APP_ENV: 'test',
      DATA_DIR: dataDir,
      SESSION_SECRET: BENCH_SESSION_SECRET,
      SCRYPT_N: '1024',
      RATE_LIMIT_PER_MINUTE: '1000000',
      ...env,
    },
    '/healthz',
    () => rmSync(dataDir, { recursive: true, force: true }),
    RUNTIME_FLAGS,
    [],
  );
  return { ...child, dataDir };
}

/**
 * Waits until `pid` and its descendants together use less than 10 ms of CPU over 250 ms (at most `maxMs`
 * milliseconds): work that an earlier step set off in the background (the certificate PDF rendered after a save, in
 * Chromium) then does not run beside the next measurement. @returns the milliseconds waited
 */
export async function settle(pid: number, maxMs = 15_000): Promise<number> {
  const started = performance.now();
  const treeCpu = () => processTree(pid).reduce((sum, p) => sum + (cpuSecondsOf(p) || 0), 0);
  let before = treeCpu();
  while (performance.now() - started < maxMs) {
    await sleep(250);
    const now = treeCpu();
    if (now - before < 0.01) break;
    before = now;
  }
  return performance.now() - started;
}

/**
 * Proportional set size of `pid` and its descendants together (bytes; Linux `smaps_rollup`): each shared page is
 * divided among the processes sharing it, so the sum is what the tree really holds — summing RSS would count
 * Chromium's shared libraries once per renderer.
 */
export function treePssOf(pid: number): number {
  let sum = 0;
  for (const p of processTree(pid)) {
    try {
      const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${p}/smaps_rollup`, 'utf8'));
      sum += m ? Number(m[1]) * 1024 : 0;
    } catch {
      // the process ended while we looked
    }
  }
  return sum;
}
