/** Start-up against an external upstream, `closeAll()`, and the SIGTERM/SIGINT path with a fake process. */
import { execFileSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError } from './config/server.ts';
import { installShutdown, startServer, type ShutdownHost } from './start.ts';
import { isRunning } from '../tests/support/proc.ts';
import { TestHookPaths } from '../platform/test-hooks.ts';
import { startFakeUpstream } from '../tests/support/server.ts';

describe('startServer with UPSTREAM_URL', () => {
  let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
  let dataDir: string;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    dataDir = mkdtempSync(path.join(tmpdir(), 'cz-start-'));
  });
  afterAll(async () => {
    await upstream.app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts the gateway only, proxies to the upstream, and closeAll stops it', async () => {
    const running = await startServer(
      { PORT: '0', HOST: '127.0.0.1', UPSTREAM_URL: upstream.url, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      { build: false },
    );
    expect(running.platform).toBeNull();
    expect(running.upstreamUrl).toBe(upstream.url);
    expect(running.url).toMatch(/^http:\/\/localhost:\d+$/);
    expect(statSync(path.join(dataDir, 'keys', 'session.key')).isFile()).toBe(true);

    const ready = await fetch(`${running.url.replace('localhost', '127.0.0.1')}/readyz`);
    expect(ready.status).toBe(200);
    const api = await fetch(`${running.url.replace('localhost', '127.0.0.1')}/api/echo`);
    expect(((await api.json()) as { code: number }).code).toBe(200);

    await Promise.all([running.closeAll(), running.closeAll()]);
    await expect(fetch(`${running.url.replace('localhost', '127.0.0.1')}/healthz`)).rejects.toThrow();
  });
});

/** The environment of a start with the embedded platform (worker thread, the default) on `dataDir`. */
const embeddedEnv = (dataDir: string, extra: Record<string, string>) => ({
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  ...extra,
});

describe('startServer without UPSTREAM_URL', () => {
  it('starts the embedded platform in a worker thread on loopback and the background worker child, proxies to the platform, and closeAll stops them all', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cz-embedded-'));
    try {
      const running = await startServer(embeddedEnv(dataDir, { APP_ENV: 'test', SEED_DEMO: '1' }), {
        build: false,
      });
      expect(running.embedded).toBe('worker');
      expect(running.platform).toBeNull();
      // the background worker runs as a supervised child (BACKGROUND_WORKER=child, decision 064)
      const workerPid = running.worker?.pid();
      expect(workerPid).toBeGreaterThan(0);
      expect(isRunning(workerPid!)).toBe(true);
      expect(running.upstreamUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const base = running.url.replace('localhost', '127.0.0.1');
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      // The platform answers while this thread (the gateway's) is blocked in a synchronous child process: it has
      // an event loop of its own. Inline, the child's request would hang until its timeout.
      const script = 'fetch(process.argv[1]).then((r) => r.text()).then((t) => process.stdout.write(t))';
      const health = execFileSync(process.execPath, ['-e', script, `${running.upstreamUrl}/api/healthz`], {
        timeout: 20_000,
      });
      expect(JSON.parse(health.toString())).toMatchObject({ code: 200, data: { db: 'ok' } });
      const login = await fetch(`${base}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ mobile: '13800138000', password: 'demo1234' }),
      });
      const envelope = (await login.json()) as { code: number; data: { token: string } };
      expect(envelope.code).toBe(200);
      expect(envelope.data.token).toBeTruthy();
      await running.closeAll();
      await expect(fetch(`${running.upstreamUrl}/api/healthz`)).rejects.toThrow();
      expect(isRunning(workerPid!)).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('startServer with TRUST_PROXY', () => {
  it('starts the embedded platform with TRUST_PROXY=true, which the platform once took for an address', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cz-embedded-trust-'));
    try {
      const running = await startServer(embeddedEnv(dataDir, { APP_ENV: 'test', TRUST_PROXY: 'true' }), {
        build: false,
      });
      try {
        const res = await fetch(`${running.upstreamUrl}/api/healthz`);
        expect(((await res.json()) as { code: number }).code).toBe(200);
      } finally {
        await running.closeAll();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('startServer with the platform in a worker thread', () => {
  it('reports a platform that dies once, and still closes', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cz-embedded-crash-'));
    const crashes: Error[] = [];
    try {
      const running = await startServer(embeddedEnv(dataDir, { APP_ENV: 'test', TEST_HOOKS: '1' }), {
        build: false,
        onPlatformCrash: (err) => crashes.push(err),
      });
      const res = await fetch(`${running.upstreamUrl}${TestHookPaths.crashWorker}`, { method: 'POST' });
      expect(res.status).toBe(200);
      await expect.poll(() => crashes.length, { timeout: 10_000 }).toBe(1);
      expect(crashes[0]!.message).toMatch(/test hook: platform worker crash/);
      await expect(fetch(`${running.upstreamUrl}/api/healthz`)).rejects.toThrow();
      await new Promise((r) => setTimeout(r, 200));
      expect(crashes).toHaveLength(1);
      await running.closeAll();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a configuration the platform refuses, as a ConfigError naming the variable', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cz-embedded-refused-'));
    try {
      const started = startServer(
        embeddedEnv(dataDir, { APP_ENV: 'production', TEST_HOOKS: '1', SESSION_SECRET: 'x'.repeat(40) }),
        { build: false },
      );
      await expect(started).rejects.toThrow(ConfigError);
      await expect(started).rejects.toThrow(/TEST_HOOKS/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('installShutdown', () => {
  const logger = pino({ level: 'silent' });
  const fakeProcess = () => {
    const emitter = new EventEmitter();
    const exit = vi.fn<(code: number) => void>();
    const host: ShutdownHost = {
      once: (s, l) => emitter.once(s, l),
      off: (s, l) => emitter.off(s, l),
      exit,
    };
    return { emitter, exit, host };
  };

  it('closes everything on SIGTERM and exits 0', async () => {
    const { emitter, exit, host } = fakeProcess();
    const closeAll = vi.fn(async () => {});
    installShutdown({ closeAll, logger }, host);
    emitter.emit('SIGTERM');
    await vi.waitFor(() => expect(exit).toHaveBeenCalledWith(0));
    expect(closeAll).toHaveBeenCalledTimes(1);
  });

  it('exits 1 when closing fails or hangs', async () => {
    const failing = fakeProcess();
    installShutdown({ closeAll: async () => Promise.reject(new Error('boom')), logger }, failing.host);
    failing.emitter.emit('SIGINT');
    await vi.waitFor(() => expect(failing.exit).toHaveBeenCalledWith(1));

    const hanging = fakeProcess();
    installShutdown({ closeAll: () => new Promise<void>(() => {}), logger }, hanging.host, 50);
    hanging.emitter.emit('SIGTERM');
    await vi.waitFor(() => expect(hanging.exit).toHaveBeenCalledWith(1));
  });

  it('can be removed', () => {
    const { emitter, host } = fakeProcess();
    const remove = installShutdown({ closeAll: async () => {}, logger }, host);
    expect(emitter.listenerCount('SIGTERM')).toBe(1);
    remove();
    expect(emitter.listenerCount('SIGTERM')).toBe(0);
  });
});
