/**
 * The background worker's configuration and supervision (docs/decisions/064-background-worker.md): what it refuses
 * to start without, which variables the child gets (never the platform's database URL, storage credentials or the
 * session secret), that the supervising gateway restarts a child that exits unasked, and that a child whose gateway
 * was killed stops by itself. Real child processes; no Chromium needed.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../lib/config-error.ts';
import { testSetting } from '../../tests/support/environment.ts';
import { isRunning } from '../../tests/support/proc.ts';
import { loadServerConfig } from '../config/server.ts';
import { loadWorkerConfig, workerVariables } from './config.ts';
import { childEnvironment, superviseWorker } from './supervisor.ts';
import { renderFailure } from './renders.ts';
import { RenderTimeoutError } from '../pdf/browser-pool.ts';

const KEY = 'k'.repeat(40);
const REPO = path.resolve(import.meta.dirname, '../..');

describe('worker configuration', () => {
  it('refuses to start without the platform, the gateway and the internal key, naming all three', () => {
    let error: unknown;
    try {
      loadWorkerConfig({ APP_ENV: 'test' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const lines = (error as Error).message.split('\n');
    expect(lines.map((l) => l.split(':')[0])).toEqual(['UPSTREAM_URL', 'GATEWAY_URL', 'INTERNAL_API_KEY']);
    expect(() =>
      loadWorkerConfig({
        APP_ENV: 'test',
        UPSTREAM_URL: 'http://127.0.0.1:3001',
        GATEWAY_URL: 'http://127.0.0.1:3000',
        INTERNAL_API_KEY: KEY,
        WORKER_NICE: '20',
      }),
    ).toThrow(/WORKER_NICE/);
  });

  it('reads its defaults: nice 10, render ahead on, the cache under DATA_DIR', () => {
    const config = loadWorkerConfig({
      APP_ENV: 'test',
      DATA_DIR: '/srv/cz',
      UPSTREAM_URL: 'http://platform:3001/',
      GATEWAY_URL: 'http://gateway:3000/cunzheng/',
      INTERNAL_API_KEY: KEY,
    });
    expect(config).toMatchObject({
      upstreamUrl: 'http://platform:3001',
      gatewayUrl: 'http://gateway:3000/cunzheng',
      dataDir: '/srv/cz',
      nice: 10,
      pdf: { renderAhead: true, cacheDir: null },
    });
  });

  it("gives the child the worker's variables only: no database URL, storage credentials or session secret", () => {
    const keyFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cz-worker-key-')), 'internal');
    fs.writeFileSync(keyFile, KEY);
    const env = {
      APP_ENV: 'test',
      DATABASE_URL: 'postgres://cz:secret@db/cz',
      STORAGE_URL: 's3://key:secret@store/bucket',
      SESSION_SECRET: 's'.repeat(40),
      INTERNAL_API_KEY_FILE: keyFile,
      CAPTURE_TEST_ALLOW: '127.0.0.1:8080',
      PUBLIC_URL: 'https://cz.example',
      PDF_CACHE_DIR: '/cache',
      WORKER_NICE: '15',
    };
    const vars = workerVariables(env);
    expect(vars).toEqual({
      APP_ENV: 'test',
      INTERNAL_API_KEY_FILE: keyFile,
      CAPTURE_TEST_ALLOW: '127.0.0.1:8080',
      PUBLIC_URL: 'https://cz.example',
      PDF_CACHE_DIR: '/cache',
      WORKER_NICE: '15',
    });
    const child = childEnvironment(
      vars,
      { PATH: '/usr/bin', LANG: 'C.UTF-8', AWS_SECRET_ACCESS_KEY: 'x', DATABASE_URL: 'postgres://x' },
      { UPSTREAM_URL: 'http://127.0.0.1:1' },
    );
    expect(child).toEqual({ ...vars, PATH: '/usr/bin', LANG: 'C.UTF-8', UPSTREAM_URL: 'http://127.0.0.1:1' });
    // the gateway keeps the same for its child, and supervises one unless told not to
    const server = loadServerConfig({
      ...env,
      UPSTREAM_URL: 'http://127.0.0.1:3001',
      SESSION_SECRET: 's'.repeat(40),
    });
    expect(server.worker).toEqual({
      mode: 'child',
      nice: 15,
      variables: { ...vars, UPSTREAM_URL: 'http://127.0.0.1:3001' },
    });
    expect(
      loadServerConfig({ ...env, UPSTREAM_URL: 'http://127.0.0.1:3001', BACKGROUND_WORKER: 'off' }).worker
        .mode,
    ).toBe('off');
  });
});

describe('render failures for the operators', () => {
  it('say what failed in Chinese, with the class for support', () => {
    expect(renderFailure(new RenderTimeoutError('print took 30000 ms'))).toBe(
      '证书渲染超时（RenderTimeoutError）',
    );
    expect(renderFailure(new TypeError('x is undefined'))).toBe('证书渲染失败（TypeError）');
  });
});

describe('the supervised worker child', () => {
  it('is started again after it exits unasked, and stays stopped once stopped', async () => {
    // without UPSTREAM_URL the worker refuses to start and exits 1: an unasked exit each time
    const supervisor = superviseWorker(
      childEnvironment({ APP_ENV: 'test' }, { PATH: testSetting('PATH') }, {}),
      pino({ level: 'silent' }),
    );
    await expect
      .poll(() => supervisor.restarts, { timeout: 15_000, interval: 100 })
      .toBeGreaterThanOrEqual(1);
    await supervisor.stop();
    const after = supervisor.restarts;
    await new Promise((r) => setTimeout(r, 1500));
    expect(supervisor.restarts).toBe(after);
    expect(supervisor.pid()).toBeNull();
  }, 30_000);

  // decision 064: a supervised child never outlives its gateway, even one killed while the child was still loading
  // (with renders ahead on, as `npm start` runs it: the child's start-up takes longest)
  it.each([
    ['running', 1000],
    ['still starting', 0],
  ])(
    'stops by itself when its gateway is killed, the child %s',
    async (_state, afterMs) => {
      // a stand-in gateway: supervises a worker (that polls a platform nobody runs) and prints the child's pid
      const script = `
      const { superviseWorker, childEnvironment } = await import('./server/worker/supervisor.ts');
      const { pino } = await import('pino');
      const s = superviseWorker(childEnvironment({
        APP_ENV: 'test', LOG_LEVEL: 'silent', UPSTREAM_URL: 'http://127.0.0.1:9', GATEWAY_URL: 'http://127.0.0.1:9',
        INTERNAL_API_KEY: '${KEY}', PDF_RENDER_AHEAD: '1',
      }, { PATH: process.env.PATH }, {}), pino({ level: 'silent' }));
      setTimeout(() => console.log('child', s.pid()), ${afterMs});
      setInterval(() => {}, 1000);
    `;
      const gateway = spawn(process.execPath, ['--input-type=module', '-e', script], {
        cwd: REPO,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const pid = await new Promise<number>((resolve, reject) => {
        gateway.stdout!.on('data', (chunk: Buffer) => {
          const m = /child (\d+)/.exec(chunk.toString());
          if (m) resolve(Number(m[1]));
        });
        gateway.once('exit', () => reject(new Error('the stand-in gateway ended first')));
      });
      expect(isRunning(pid)).toBe(true);
      gateway.kill('SIGKILL');
      await expect.poll(() => isRunning(pid), { timeout: 15_000, interval: 100 }).toBe(false);
    },
    30_000,
  );
});
