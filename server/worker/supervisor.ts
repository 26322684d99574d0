/**
 * The background worker as `npm start`'s child (BACKGROUND_WORKER=child, the default; docs/decisions/064-background-
 * worker.md): the gateway starts `server/worker/main.ts` with the same Node.js once it listens, pointed at its own
 * platform (UPSTREAM_URL) and at itself (GATEWAY_URL), with the internal key; when the child exits unasked it is
 * started again after 1 s, doubling up to 30 s (reset once a child has lived a minute); `stop()` sends SIGTERM and
 * waits for the jobs going to end, then SIGKILL after the deadline. When the gateway dies without stopping it (even
 * by SIGKILL), the child sees its IPC channel close and stops (./main.ts).
 *
 * The child's environment is the worker's variables of the gateway's configuration and the system's few a browser
 * needs (PATH, HOME, locale, time zone, fonts, CA certificates): never the platform's database URL, storage
 * credentials or the session secret — the worker's Chromium opens any site's pages.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Environment } from '../../lib/config-schema.ts';
import { onEventsCommitted } from '../embedded-platform.ts';
import { WAKE_MESSAGE } from './renders.ts';
import { watchServerLoad } from './server-load.ts';

/** The worker's entry file. */
export const WORKER_MAIN = path.join(import.meta.dirname, 'main.ts');
/** First restart delay, doubled per quick exit up to {@link MAX_RESTART_MS}, milliseconds. */
const FIRST_RESTART_MS = 1000;
const MAX_RESTART_MS = 30_000;
/** A child that lived this long resets the delay, milliseconds. */
const STABLE_MS = 60_000;

/** System variables the worker keeps: where programs, home, locale, time zone, fonts and CA certificates are. */
const SYSTEM_VARS = [
  'PATH',
  'HOME',
  'USER',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'TMPDIR',
  'FONTCONFIG_FILE',
  'FONTCONFIG_PATH',
  'XDG_CACHE_HOME',
  'XDG_CONFIG_HOME',
  'XDG_RUNTIME_DIR',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
];
/**
 * The child's environment: {@link SYSTEM_VARS} of `system` (the process's own, lib/config-schema.ts
 * `processEnvironment`), then the worker's variables of the gateway's configuration, then `overrides`.
 */
export function childEnvironment(
  variables: Readonly<Record<string, string>>,
  system: Environment,
  overrides: Record<string, string>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of SYSTEM_VARS) if (system[name] !== undefined) env[name] = system[name];
  return { ...env, ...variables, ...overrides };
}

/** A supervised worker child. */
export interface WorkerSupervisor {
  /** The running child's process id, or null between a child's exit and its restart. */
  pid(): number | null;
  /** Restarts after unasked exits so far. */
  readonly restarts: number;
  /** Stops the child (SIGTERM, then SIGKILL after `timeoutMs`) and starts no other. Idempotent. */
  stop(timeoutMs?: number): Promise<void>;
}

/**
 * Starts the worker child with `env` and keeps one running until {@link WorkerSupervisor.stop}. With `wakeUps` (the
 * platform is embedded, so its commits signal in this process: platform/events/signal.ts), each burst of committed
 * evidence events sends the child one {@link WAKE_MESSAGE}, so it claims the new render jobs without waiting for its
 * next poll.
 */
export function superviseWorker(
  env: Record<string, string>,
  logger: Logger,
  wakeUps = false,
): WorkerSupervisor {
  let child: ChildProcess | null = null;
  let stopped = false;
  let restarts = 0;
  let delay = FIRST_RESTART_MS;
  let timer: NodeJS.Timeout | null = null;

  // the gateway's load, for the child to yield to (./server-load.ts); a new child hears the state anew
  const load = watchServerLoad((message) => {
    if (child?.connected) child.send(message, () => undefined);
  });
  const start = () => {
    timer = null;
    const startedAt = Date.now();
    // the IPC channel carries wake-ups and the gateway's load; it closes when this process ends, however it ends,
    // and the child stops then
    const proc = spawn(process.execPath, [WORKER_MAIN], {
      env,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    proc.channel?.unref();
    child = proc;
    load.reset();
    proc.once('error', (err) => logger.error({ err }, 'worker: could not start'));
    proc.once('exit', (code, signal) => {
      child = null;
      if (stopped) return;
      delay = Date.now() - startedAt >= STABLE_MS ? FIRST_RESTART_MS : delay;
      logger.error({ code, signal, restartMs: delay }, 'worker exited; starting it again');
      restarts++;
      timer = setTimeout(start, delay);
      timer.unref();
      delay = Math.min(MAX_RESTART_MS, delay * 2);
    });
    logger.info({ pid: proc.pid }, 'worker child started');
  };
  start();
  let wakePosted = false;
  const stopWaking = wakeUps
    ? onEventsCommitted(() => {
        if (wakePosted) return;
        wakePosted = true;
        setImmediate(() => {
          wakePosted = false;
          // a lost wake-up costs a poll's delay, never a job
          if (child?.connected) child.send(WAKE_MESSAGE, () => undefined);
        });
      })
    : null;

  let stopping: Promise<void> | null = null;
  return {
    pid: () => child?.pid ?? null,
    get restarts() {
      return restarts;
    },
    stop: (timeoutMs = 10_000) =>
      (stopping ??= new Promise<void>((resolve) => {
        stopped = true;
        stopWaking?.();
        load.stop();
        if (timer) clearTimeout(timer);
        const proc = child;
        if (!proc || proc.exitCode !== null || proc.signalCode !== null) return resolve();
        const kill = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
        proc.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        proc.kill('SIGTERM');
      })),
  };
}
