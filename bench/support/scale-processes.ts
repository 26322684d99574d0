/**
 * The services of `bench/scale.ts` as processes of their own, so that none of them shares an event loop with the
 * bench's clients (autocannon would otherwise hold up the store's answers, and the store the clients):
 * - the platform API alone (decision 040): what `npm run start:platform` runs
 *   (`NODE_ENV=production node <RUNTIME_FLAGS> platform/main.ts`, Node.js stripping the types), spawned without npm so
 *   that the pid the bench signals is the platform's own, on a free loopback port (PLATFORM_HOST, PLATFORM_PORT);
 * - the local S3-compatible server of the tests (tests/support/s3.ts) through bench/support/s3-server.ts.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { S3StorageConfig } from '../../platform/files/s3-storage.ts';
import { RUNTIME_FLAGS } from '../../server/runtime-flags.ts';
import { freePort } from '../../tests/support/ports.ts';
import { sleep, type Child } from './process.ts';
import { childEnvironment } from './environment.ts';

/** How long a service may take to be ready, milliseconds (a platform's migrations included). */
const START_TIMEOUT_MS = 60_000;

/**
 * `node [nodeFlags] [loader] <script> [args]` with `env` on top of this process's environment; stderr shown. `loader`
 * is `--import tsx` by default, none for the product's own entries (as in bench/support/process.ts `startScript`).
 */
function spawnScript(
  script: string,
  args: string[],
  env: Record<string, string>,
  stdout: 'ignore' | 'pipe',
  nodeFlags: readonly string[] = [],
  loader: readonly string[] = ['--import', 'tsx'],
) {
  return spawn(process.execPath, [...nodeFlags, ...loader, script, ...args], {
    env: childEnvironment(env),
    stdio: ['ignore', stdout, 'inherit'],
  });
}

/** SIGTERM to `child` unless it has exited, and its exit awaited. */
async function terminate(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    await exited;
  }
}

/**
 * Starts the platform alone with `env` and waits until `/api/healthz` answers 200. Its stdout (the access log) is
 * discarded.
 * @throws when it exits during start-up or does not answer within 60 s (it is stopped then)
 */
export async function startPlatform(env: Record<string, string>): Promise<Child> {
  const port = await freePort();
  const child = spawnScript(
    'platform/main.ts',
    [],
    { NODE_ENV: 'production', ...env, PLATFORM_HOST: '127.0.0.1', PLATFORM_PORT: String(port) },
    'ignore',
    RUNTIME_FLAGS,
    [],
  );
  const exited = once(child, 'exit');
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (
    !(await fetch(`${base}/api/healthz`).then(
      (r) => r.status === 200,
      () => false,
    ))
  ) {
    if (child.exitCode !== null) throw new Error(`the platform exited during start-up (${child.exitCode})`);
    if (Date.now() > deadline) {
      await terminate(child, exited);
      throw new Error(`the platform did not answer on ${base} within ${START_TIMEOUT_MS / 1000} s`);
    }
    await sleep(200);
  }
  return { pid: child.pid!, base, port, stop: () => terminate(child, exited) };
}

/**
 * Starts s3rver with `bucket` in a child process (a temp directory it removes when stopped).
 * @returns the storage config that reaches it, its pid, and how to stop it
 * @throws when it exits before saying where it listens, or takes longer than 60 s
 */
export async function startS3Process(
  bucket: string,
): Promise<{ config: S3StorageConfig; pid: number; stop: () => Promise<void> }> {
  const child = spawnScript('bench/support/s3-server.ts', [bucket], {}, 'pipe');
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout! });
  const timer = setTimeout(() => child.kill('SIGTERM'), START_TIMEOUT_MS);
  try {
    for await (const line of lines) {
      return {
        config: JSON.parse(line) as S3StorageConfig,
        pid: child.pid!,
        stop: () => terminate(child, exited),
      };
    }
  } finally {
    clearTimeout(timer);
  }
  throw new Error('the S3 server exited before it listened');
}
