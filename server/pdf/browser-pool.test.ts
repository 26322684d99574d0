/**
 * The browser pool on the real Chromium: the bound on concurrent pages, the queue limit, the job timeout, relaunch
 * after the browser is killed (between jobs and during one), and close(). Skipped only when Chromium is missing.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { BrowserPool, PoolBusyError, PoolClosedError, RenderTimeoutError } from './browser-pool.ts';
import { hasChromium } from '../../tests/support/pdf-whole.ts';
import { chromiumPath as testChromium } from '../../tests/support/environment.ts';

const chromiumPath = testChromium();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!hasChromium())('BrowserPool (Chromium at CHROMIUM_PATH)', () => {
  let pool: BrowserPool | null = null;
  const make = (o: Partial<{ poolSize: number; queueMax: number; timeoutMs: number }> = {}) =>
    (pool = new BrowserPool({
      chromiumPath,
      poolSize: o.poolSize ?? 2,
      queueMax: o.queueMax ?? 100,
      timeoutMs: o.timeoutMs ?? 20_000,
      logger: pino({ level: 'silent' }),
    }));
  afterEach(async () => {
    await pool?.close();
    pool = null;
  });

  it('runs at most poolSize pages at once, queues the rest, and reuses one browser', async () => {
    const p = make({ poolSize: 2 });
    let running = 0;
    let peak = 0;
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        p.run(async (page) => {
          peak = Math.max(peak, ++running);
          await page.setContent(`<p>${i}</p>`);
          await sleep(100);
          running--;
          return page.evaluate(() => document.querySelector('p')!.textContent);
        }),
      ),
    );
    expect(results).toEqual(['0', '1', '2', '3', '4', '5']);
    expect(peak).toBe(2);
    expect(p.stats()).toMatchObject({ launches: 1, completed: 6, active: 0, queued: 0 });
  });

  it('reuses the page of a successful job, never that of a failed one', async () => {
    const p = make({ poolSize: 1 });
    const pages: Page[] = [];
    const keep = (page: Page) => {
      pages.push(page);
    };
    await p.run(async (page) => keep(page));
    await p.run(async (page) => keep(page));
    expect(pages[1]).toBe(pages[0]);
    expect(p.stats().pagesOpened).toBe(1);
    await expect(
      p.run(async (page) => {
        keep(page);
        throw new Error('job failed');
      }),
    ).rejects.toThrow('job failed');
    await expect.poll(() => pages[2]!.isClosed()).toBe(true);
    await p.run(async (page) => keep(page));
    expect(pages[3]).not.toBe(pages[2]);
    expect(p.stats().pagesOpened).toBe(2);
  });

  it('prepares each page it opens once, before its first job, and not when it hands the page out again', async () => {
    const p = make({ poolSize: 1 });
    const prepared: Page[] = [];
    const prepare = async (page: Page) => {
      prepared.push(page);
    };
    const seen: Page[] = [];
    for (let i = 0; i < 3; i++) await p.run(async (page) => void seen.push(page), prepare);
    expect(prepared).toEqual([seen[0]]);
    await expect(
      p.run(
        async () => undefined,
        async () => Promise.reject(new Error('no')),
      ),
    ).resolves.toBe(undefined);
    expect(p.stats().pagesOpened).toBe(1);
  });

  it('refuses a job with PoolBusyError when the queue is full', async () => {
    const p = make({ poolSize: 1, queueMax: 1 });
    const slow = () => p.run(() => sleep(300));
    const a = slow();
    const b = slow();
    await expect(slow()).rejects.toBeInstanceOf(PoolBusyError);
    await Promise.all([a, b]);
  });

  it('fails a job after the timeout and keeps working', async () => {
    // 3 s: the job after the timeout opens a fresh page, which a loaded 2-core machine may take over a second to do
    const p = make({ poolSize: 1, timeoutMs: 3000 });
    await expect(p.run(() => new Promise(() => undefined))).rejects.toBeInstanceOf(RenderTimeoutError);
    await expect(p.run(async (page) => page.evaluate(() => 1 + 1))).resolves.toBe(2);
  });

  it('relaunches after the browser is killed between jobs, and retries a job whose browser died midway', async () => {
    const p = make();
    await p.run(async () => undefined);
    process.kill(p.browserPid()!, 'SIGKILL');
    await expect.poll(() => p.browserPid(), { timeout: 5000 }).toBeNull();
    await expect(p.run(async (page) => page.evaluate(() => 'again'))).resolves.toBe('again');
    expect(p.stats().launches).toBe(2);

    let attempts = 0;
    const value = await p.run(async (page) => {
      if (++attempts === 1) {
        process.kill(p.browserPid()!, 'SIGKILL');
        await sleep(200);
      }
      return page.evaluate(() => 'survived');
    });
    expect([value, attempts, p.stats().launches]).toEqual(['survived', 2, 3]);
  });

  it('close() refuses later jobs and closes the browser', async () => {
    const p = make();
    await p.warmUp();
    const pid = p.browserPid()!;
    await p.close();
    await expect(p.run(async () => 1)).rejects.toBeInstanceOf(PoolClosedError);
    expect(() => process.kill(pid, 0)).toThrow();
  });
});

describe.skipIf(!hasChromium())('BrowserPool when its process dies', () => {
  it('leaves no Chromium behind after the process is killed (SIGKILL)', async () => {
    // A child process launches a pool's browser, prints its pid and waits to be killed.
    const script = `
      import { pino } from 'pino';
      import { BrowserPool } from ${JSON.stringify(new URL('./browser-pool.ts', import.meta.url).pathname)};
      const pool = new BrowserPool({ chromiumPath: ${JSON.stringify(chromiumPath)}, poolSize: 1, queueMax: 1,
        timeoutMs: 20000, logger: pino({ level: 'silent' }) });
      await pool.warmUp();
      process.stdout.write(String(pool.browserPid()) + '\\n');
      setInterval(() => undefined, 1000);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const browserPid = await new Promise<number>((resolve, reject) => {
      child.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim())));
      child.once('exit', () => reject(new Error('the child exited before launching the browser')));
    });
    // Alive: the process exists and is no zombie. An orphaned Chromium that exited is reparented to PID 1, and where
    // PID 1 is no init (a bare container's shell) it stays a zombie, unreaped, though it holds nothing any more.
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
      } catch {
        return false;
      }
      try {
        return !/^\d+ \(.*\) Z /s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      } catch {
        return false;
      }
    };
    expect(alive(browserPid)).toBe(true);
    child.kill('SIGKILL');
    let gone = false;
    for (let i = 0; i < 100 && !gone; i++) {
      await sleep(100);
      gone = !alive(browserPid);
    }
    expect(gone).toBe(true);
  });
});
