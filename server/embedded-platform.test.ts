/**
 * The embedded platform's call without HTTP (server/embedded-platform.ts, contract/platform-call.ts), in both shapes:
 * over the worker's message port and inline through `inject`. The same requests over the platform's loopback port
 * and through `call` get the same answers; a stopped or ended platform refuses calls as a refused connection would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { AccountPaths } from '../contract/account.ts';
import type { PlatformCallAnswer, PlatformCallRequest } from '../contract/platform-call.ts';
import { loadPlatformConfig } from '../platform/config.ts';
import { TestHookPaths } from '../platform/test-hooks.ts';
import {
  startEmbeddedPlatform,
  type EmbeddedPlatform,
  type EmbeddedPlatformMode,
} from './embedded-platform.ts';

/** The same request over the platform's loopback port, as a call's answer. */
async function overHttp(
  platform: EmbeddedPlatform,
  request: PlatformCallRequest,
): Promise<PlatformCallAnswer> {
  const res = await fetch(`${platform.url}${request.url}`, {
    method: request.method,
    headers: request.headers,
    ...(request.body !== undefined ? { body: request.body } : {}),
  });
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: await res.text() };
}

/** Starts an embedded platform in `mode` on a fresh DATA_DIR with the demo account, runs `body`, closes it. */
async function withPlatform(
  mode: EmbeddedPlatformMode,
  body: (platform: EmbeddedPlatform) => Promise<void>,
): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `cz-call-${mode}-`));
  const platform = await startEmbeddedPlatform(
    loadPlatformConfig({
      DATA_DIR: dataDir,
      APP_ENV: 'test',
      SEED_DEMO: '1',
      TEST_HOOKS: '1',
      SCRYPT_N: '1024',
      LOG_LEVEL: 'silent',
    }),
    { mode, accessLog: 'off', logLevel: 'silent', logFormat: 'json', logger: pino({ level: 'silent' }) },
  );
  try {
    await body(platform);
  } finally {
    await platform.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const form = { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' };
const demoLogin: PlatformCallRequest = {
  method: 'POST',
  url: AccountPaths.login,
  headers: form,
  body: new URLSearchParams({ mobile: '13800138000', password: 'demo1234' }).toString(),
};

describe.each(['worker', 'inline'] as const)('the embedded platform call (%s)', (mode) => {
  it('answers as the same request over HTTP does, and refuses calls once closed', async () => {
    let stopped: EmbeddedPlatform | undefined;
    await withPlatform(mode, async (platform) => {
      stopped = platform;
      const login = await platform.call(demoLogin);
      expect(login.status).toBe(200);
      expect(login.contentType).toMatch(/^application\/json/);
      const token = (JSON.parse(login.body) as { data: { token: string } }).data.token;
      // the token it issued works over HTTP, and the same question gets the same answer both ways
      const info: PlatformCallRequest = {
        method: 'POST',
        url: AccountPaths.authInfo,
        headers: { ...form, Authorization: `Bearer ${token}` },
      };
      const [inProcess, http] = await Promise.all([platform.call(info), overHttp(platform, info)]);
      expect(inProcess).toEqual(http);
      expect(JSON.parse(inProcess.body)).toMatchObject({ code: 200, data: { mobile: '13800138000' } });
      // refusals alike: a wrong password, an unknown path, a query string
      for (const request of [
        { ...demoLogin, body: 'mobile=13800138000&password=wrong-one' },
        { method: 'GET', url: '/api/nope?x=1', headers: form },
        { ...info, headers: { ...form, Authorization: 'Bearer forged' } },
      ] satisfies PlatformCallRequest[]) {
        const [a, b] = await Promise.all([platform.call(request), overHttp(platform, request)]);
        expect(a).toEqual(b);
      }
    });
    await expect(stopped!.call(demoLogin)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('gives up on a call when its signal aborts, and the late answer does not reach another call', async () => {
    await withPlatform(mode, async (platform) => {
      await expect(platform.call(demoLogin, AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
      const cancel = new AbortController();
      const abandoned = platform.call(demoLogin, cancel.signal);
      cancel.abort(new Error('the browser left'));
      await expect(abandoned).rejects.toThrow('the browser left');
      const wrong = { ...demoLogin, body: 'mobile=13800138000&password=wrong-one' };
      const next = await platform.call(wrong);
      expect(JSON.parse(next.body).code).not.toBe(200);
    });
  });
});

describe('the embedded platform call (worker) when the worker ends', () => {
  it('fails the calls after the end as refused connections', async () => {
    await withPlatform('worker', async (platform) => {
      const crash = await platform.call({ method: 'POST', url: TestHookPaths.crashWorker, headers: form });
      expect(crash.status).toBe(200);
      await expect
        .poll(
          () =>
            platform.call(demoLogin).then(
              () => 'answered',
              (e: { code?: string }) => e.code,
            ),
          {
            timeout: 10_000,
          },
        )
        .toBe('ECONNREFUSED');
    });
  });
});
