/**
 * The background worker as the process it runs as (`node server/worker/main.ts`; docs/decisions/064-background-
 * worker.md), against a real platform and gateway with the production UI build and Chromium:
 * - it lowers every one of its threads to WORKER_NICE before it starts Chromium, and every thread of every Chromium
 *   process it starts has that nice value too (read from /proc, as `ps -o ni` does); SIGTERM ends it (exit 0) and
 *   its Chromium with it;
 * - killed with SIGKILL while it renders (its job leased, its print view hanging), no job is lost: another worker
 *   renders every saved evidence's certificate, the killed one's once the lease has passed, and the killed worker's
 *   Chromium does not outlive it.
 * Skipped only when the build or Chromium is missing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPlatform } from '../../platform/app.ts';
import { chromiumPath, testSetting } from '../../tests/support/environment.ts';
import { BUILD_DIR, hasBuild, hasChromium } from '../../tests/support/pdf-whole.ts';
import { saveDemoHashEvidence, testConfig as platformConfig } from '../../tests/support/platform.ts';
import { isRunning, processTree } from '../../tests/support/proc.ts';
import { TEST_RATE_LIMIT, testConfig as gatewayConfig } from '../../tests/support/server.ts';
import { buildServer } from '../app.ts';
import { loadPdfConfig } from '../pdf/config.ts';
import { threadPriorities } from './priority.ts';
import { WORKER_MAIN } from './supervisor.ts';

const ready = hasBuild() && hasChromium();
const NICE = 10;

describe.skipIf(!ready)('the background worker process', () => {
  const dirs: string[] = [];
  let platform: FastifyInstance;
  let gateway: FastifyInstance;
  let platformUrl: string;
  let gatewayUrl: string;
  let dataDir: string;
  const children: ChildProcess[] = [];
  // a gateway whose print views never answer: the render hangs until PDF_TIMEOUT_MS
  const hanging = http.createServer(() => undefined);

  /** Starts `node server/worker/main.ts`; resolves once it logged that it started. */
  function spawnWorker(env: Record<string, string>): Promise<ChildProcess> {
    const child = spawn(process.execPath, [WORKER_MAIN], {
      env: {
        PATH: testSetting('PATH'),
        HOME: testSetting('HOME'),
        LANG: 'C.UTF-8',
        APP_ENV: 'test',
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
        DATA_DIR: dataDir,
        UPSTREAM_URL: platformUrl,
        GATEWAY_URL: gatewayUrl,
        INTERNAL_API_KEY: platform.internalKey,
        CHROMIUM_PATH: chromiumPath(),
        PDF_TIMEOUT_MS: '5000',
        WORKER_NICE: String(NICE),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    return new Promise((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('"msg":"worker started"')) resolve(child);
      });
      child.once('exit', (code) => reject(new Error(`worker exited (${code}) before it started: ${out}`)));
    });
  }

  const save = (title: string) =>
    saveDemoHashEvidence(platform, title, Buffer.from(title).toString('hex').padEnd(64, '0').slice(0, 64));
  const cached = (baoquan: string) => {
    const dir = path.join(dataDir, 'cache', 'pdf');
    return (
      fs.existsSync(dir) &&
      fs.readdirSync(dir).some((f) => f.startsWith(`${baoquan}.zh.`) && f.endsWith('.pdf'))
    );
  };

  beforeAll(async () => {
    const fresh = (name: string) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), `cz-worker-${name}-`));
      dirs.push(dir);
      return dir;
    };
    platform = await buildPlatform(platformConfig(fresh('platform'), undefined), { logger: false });
    await platform.listen({ host: '127.0.0.1', port: 0 });
    platformUrl = `http://127.0.0.1:${(platform.server.address() as AddressInfo).port}`;
    dataDir = fresh('gateway');
    gateway = await buildServer(gatewayConfig({ dataDir }), {
      upstreamUrl: platformUrl,
      mode: 'production',
      buildDirectory: BUILD_DIR,
      internalKey: platform.internalKey,
      pdf: loadPdfConfig({ CHROMIUM_PATH: chromiumPath() }),
      rateLimit: TEST_RATE_LIMIT,
      logger: false,
    });
    await gateway.listen({ host: '127.0.0.1', port: 0 });
    gatewayUrl = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
  }, 60_000);
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    hanging.closeAllConnections();
    hanging.close();
    await gateway?.close();
    await platform?.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs at WORKER_NICE, and so does every Chromium thread; SIGTERM ends it and its Chromium', async () => {
    const worker = await spawnWorker({});
    expect(threadPriorities(worker.pid!).length).toBeGreaterThan(1);
    expect(Math.min(...threadPriorities(worker.pid!))).toBeGreaterThanOrEqual(NICE);
    const saved = await save('优先级');
    await expect.poll(() => cached(saved.baoquan), { timeout: 30_000, interval: 200 }).toBe(true);
    // the render pool keeps its browser: Chromium's processes are there to read
    const chromium = processTree(worker.pid!);
    expect(chromium.length).toBeGreaterThan(1);
    const chromiumThreads = chromium.flatMap((pid) => threadPriorities(pid));
    expect(chromiumThreads.length).toBeGreaterThan(chromium.length);
    expect(Math.min(...chromiumThreads)).toBeGreaterThanOrEqual(NICE);
    const exited = new Promise<number | null>((resolve) => worker.once('exit', (code) => resolve(code)));
    worker.kill('SIGTERM');
    expect(await exited).toBe(0);
    await expect.poll(() => chromium.filter(isRunning), { timeout: 10_000 }).toEqual([]);
  }, 60_000);

  it('loses no job when killed with SIGKILL mid-render: another worker renders them all', async () => {
    const hangingUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
    const killed = await spawnWorker({ GATEWAY_URL: hangingUrl });
    const saved = [await save('被中断的渲染一'), await save('被中断的渲染二'), await save('被中断的渲染三')];
    // mid-render: a job of the killed worker is active (leased), its print view hanging
    const active = () =>
      platform.pdb.db
        .selectFrom('render_jobs')
        .select(['baoquan', 'attempts'])
        .where('state', '=', 'active')
        .execute();
    await expect.poll(async () => (await active()).length, { timeout: 20_000, interval: 100 }).toBe(1);
    const [leased] = await active();
    const chromium = processTree(killed.pid!);
    killed.kill('SIGKILL');
    // its Chromium (a pipe to the dead process) does not outlive it
    await expect.poll(() => chromium.filter(isRunning), { timeout: 10_000 }).toEqual([]);

    await spawnWorker({});
    for (const evidence of saved) {
      await expect.poll(() => cached(evidence.baoquan), { timeout: 60_000, interval: 250 }).toBe(true);
    }
    expect(saved.map((e) => e.baoquan)).toContain(leased!.baoquan);
    await expect
      .poll(async () => platform.pdb.db.selectFrom('render_jobs').select('id').execute(), { timeout: 10_000 })
      .toEqual([]);
  }, 120_000);
});
