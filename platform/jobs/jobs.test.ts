/**
 * The job queue (decision 045), each case on SQLite (the in-process table queue) and PostgreSQL (pg-boss): two
 * processes' queues on one database run a task's chain without ever running it twice at once; a run whose process
 * died (its queue stopped without finishing it, its connections gone) is taken up by the other process once it
 * expires; a failing run is retried with growing delays and the failure shows in the stats; and the platform itself
 * works `face.poll` and `billing.reconcile` when PLATFORM_JOBS is on.
 */
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testConfig } from '../../tests/support/platform.ts';
import { buildPlatform } from '../app.ts';
import { migrateToLatest, openDatabase, type PlatformDb } from '../db/database.ts';
import { PgBossJobQueue } from './pg-queue.ts';
import type { JobQueue, RecurringTask } from './queue.ts';
import { SqliteJobQueue } from './sqlite-queue.ts';

const log = pino({ level: 'silent' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` holds, up to `ms`, calling `refresh` before each look. */
async function until(check: () => boolean, ms: number, refresh?: () => Promise<void>): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    await refresh?.();
    if (check()) return;
    if (Date.now() > end) throw new Error('timed out');
    await sleep(50);
  }
}

describe.each(['sqlite', 'postgres'] as const)('job queue [%s]', (dialect) => {
  let dir: string;
  let url: string | undefined;
  let drop: (() => Promise<void>) | undefined;
  const opened: PlatformDb[] = [];
  const queues: JobQueue[] = [];

  beforeAll(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-jobs-'));
    if (dialect === 'postgres') ({ url, drop } = await createTestDatabase());
    const first = openDatabase(testConfig(dir, url).database);
    await migrateToLatest(first);
    opened.push(first);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(queues.map((q) => q.stop(1000).catch(() => undefined)));
    await Promise.all(opened.map((d) => d.close()));
    await drop?.();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  /** A queue as one process opens it: its own database handle (SQLite) or its own pg-boss pool. */
  const processQueue = (): JobQueue => {
    let q: JobQueue;
    if (dialect === 'postgres') {
      q = new PgBossJobQueue(url!, log, { superviseIntervalSeconds: 1, pollingIntervalSeconds: 0.5 });
    } else {
      const pdb = openDatabase(testConfig(dir, url).database);
      opened.push(pdb);
      q = new SqliteJobQueue(pdb.db, log);
    }
    queues.push(q);
    return q;
  };
  const task = (
    name: string,
    run: () => Promise<void>,
    over: Partial<RecurringTask> = {},
  ): RecurringTask => ({
    name,
    everySeconds: 1,
    expireSeconds: 60,
    retryLimit: 3,
    retryDelaySeconds: 1,
    run,
    ...over,
  });

  it('two processes run one chain, never twice at once', async () => {
    let running = 0;
    let overlaps = 0;
    let runs = 0;
    const run = async () => {
      running++;
      if (running > 1) overlaps++;
      await sleep(150);
      running--;
      runs++;
    };
    const a = processQueue();
    const b = processQueue();
    await Promise.all([a.start([task('t.chain', run)]), b.start([task('t.chain', run)])]);
    await until(() => runs >= 3, 15_000);
    expect(overlaps).toBe(0);
    const [stats] = await a.stats();
    expect(stats).toMatchObject({ name: 't.chain', failed: 0 });
    expect(stats!.queued + stats!.active).toBeLessThanOrEqual(2);
    await Promise.all([a.stop(), b.stop()]);
  }, 30_000);

  it('a run of a process that died is taken up by another after it expires', async () => {
    let hung = false;
    const a = processQueue();
    await a.start([
      task(
        't.dies',
        async () => {
          hung = true;
          await new Promise(() => undefined); // the process dies in the middle of this run
        },
        { expireSeconds: 2 },
      ),
    ]);
    await until(() => hung, 10_000);
    await a.stop(0); // stops polling; the run is left active, as a killed process leaves it
    if (dialect === 'sqlite') await opened.at(-1)!.close();
    let resumed = 0;
    const b = processQueue();
    await b.start([task('t.dies', async () => void resumed++, { expireSeconds: 2 })]);
    await until(() => resumed >= 1, 20_000);
    await b.stop();
  }, 40_000);

  it('a failing run is retried with backoff and its failure is shown', async () => {
    const attempts: number[] = [];
    const q = processQueue();
    await q.start([
      task(
        't.flaky',
        async () => {
          attempts.push(Date.now());
          if (attempts.length < 3) throw new Error(`provider unavailable #${attempts.length}`);
        },
        { retryDelaySeconds: 1, everySeconds: 60 },
      ),
    ]);
    await until(() => attempts.length >= 1, 20_000);
    let lastError: string | null = null;
    await until(
      () => lastError?.includes('provider unavailable #1') ?? false,
      10_000,
      async () => void (lastError = (await q.stats())[0]!.lastError),
    );
    await until(() => attempts.length >= 3, 20_000);
    // the second wait is at least the first (exponential backoff from 1 s)
    expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(900);
    expect(attempts[2]! - attempts[1]!).toBeGreaterThanOrEqual(attempts[1]! - attempts[0]! - 200);
    await q.stop();
  }, 40_000);
});

describe('the platform works its recurring tasks', () => {
  it('runs face.poll and billing.reconcile with PLATFORM_JOBS on, none with it off', async () => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-jobs-app-'));
    const app = await buildPlatform(testConfig(dir, undefined, { PLATFORM_JOBS: '1' }), { logger: false });
    try {
      const startedAt = Date.now();
      const names = (await app.jobs!.stats()).map((s) => s.name).sort();
      expect(names).toEqual(['billing.reconcile', 'events.prune', 'face.poll', 'files.sweep']);
      // face.poll's first run is due at once; when it is done, the next is queued 3 s later (spec 02 §9)
      const db = app.pdb.db as unknown as Kysely<{
        platform_jobs: { name: string; run_at: number; state: string };
      }>;
      const nextRun = async () =>
        (
          await db
            .selectFrom('platform_jobs')
            .select('run_at')
            .where('name', '=', 'face.poll')
            .where('state', '=', 'queued')
            .executeTakeFirst()
        )?.run_at ?? 0;
      let next = 0;
      await until(
        () => next > startedAt + 2000,
        10_000,
        async () => void (next = await nextRun()),
      );
    } finally {
      await app.close();
    }
    const off = await buildPlatform(testConfig(dir, undefined), { logger: false });
    expect(off.jobs).toBeNull();
    await off.close();
    await fsp.rm(dir, { recursive: true, force: true });
  }, 30_000);
});
