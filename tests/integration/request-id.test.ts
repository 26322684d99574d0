/**
 * One id per request (decision 040): the gateway answers it as X-Request-Id (a well-formed incoming id kept,
 * anything else replaced by a UUID), shows it on its error page so a user can quote it, and the platform logs the
 * same id it was given.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { buildPlatform } from '../../platform/app.ts';
import { startServer, type RunningServer } from '../../server/start.ts';
import { BUILD_DIR, closedPort, freshDataDir, testEnv } from '../support/integration.ts';
import { testConfig } from '../support/platform.ts';

describe('request ids', () => {
  let running: RunningServer | undefined;
  const dataDir = freshDataDir();
  afterAll(async () => {
    await running?.closeAll();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('are answered, kept when well-formed, and shown on the error page', async () => {
    const env = testEnv(dataDir, { UPSTREAM_URL: `http://127.0.0.1:${await closedPort()}` });
    running = await startServer(env, { mode: 'production', buildDirectory: BUILD_DIR });
    const base = running.url.replace('localhost', '127.0.0.1');
    const page = await fetch(`${base}/register`, { headers: { 'x-request-id': 'support-case-42' } });
    expect(page.status).toBe(502);
    expect(page.headers.get('x-request-id')).toBe('support-case-42');
    expect(await page.text()).toContain('请求编号：<span class="mono">support-case-42</span>');
    const bad = await fetch(`${base}/healthz`, { headers: { 'x-request-id': 'no spaces <or> markup' } });
    expect(bad.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const none = await fetch(`${base}/healthz`);
    expect(none.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(none.headers.get('x-request-id')).not.toBe(bad.headers.get('x-request-id'));
  });

  it('reach the platform: its log lines carry the id the gateway sent', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cz-reqid-'));
    const lines: { reqId?: string; msg?: string }[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const l of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(l));
        done();
      },
    });
    const app = await buildPlatform(testConfig(dir, undefined), {
      loggerInstance: pino(sink),
      accessLog: 'all',
    });
    await app.inject({ url: '/api/healthz', headers: { 'x-request-id': 'gw-7f3a' } });
    await app.close();
    rmSync(dir, { recursive: true, force: true });
    expect(lines.some((l) => l.reqId === 'gw-7f3a')).toBe(true);
  });
});
