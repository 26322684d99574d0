/**
 * The gateway's and the platform's configuration as a process reads it (docs/decisions/050-configuration.md): a bad
 * start lists every problem in one message on standard error, exit code 1, no stack trace, no secret's value; the
 * gateway parses the embedded platform's variables in the same pass; APP_ENV unset is production for the gateway as
 * for the platform (CAPTURE_TEST_ALLOW refused like TEST_HOOKS); the parsed configuration is frozen.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { childEnvironment } from '../../tests/support/environment.ts';
import { ConfigError, loadServerConfig } from './server.ts';

const run = promisify(execFile);
const dataDir = mkdtempSync(path.join(tmpdir(), 'cz-config-process-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** A secret value that must never be shown, though it is wrong. */
const SECRET = 'short-but-secret-value';

/** Runs `node <entry>` with `env` added to the run's environment; its exit code and standard error. */
async function start(entry: string, env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  return run(process.execPath, [entry], {
    env: childEnvironment({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env }),
    timeout: 20_000,
  }).then(
    () => ({ code: 0, stderr: '' }),
    (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
  );
}

/** What every refused start prints: one message, each problem on its own line, nothing else. */
function expectOneMessage(stderr: string, lines: RegExp[]): void {
  const printed = stderr.trimEnd().split('\n');
  expect(printed[0]).toBe(`Invalid configuration (${lines.length} problems):`);
  expect(printed).toHaveLength(lines.length + 1);
  for (const line of lines)
    expect(
      printed.some((p) => line.test(p)),
      String(line),
    ).toBe(true);
  expect(stderr).not.toMatch(/\n\s+at |Error:/); // no stack trace
  expect(stderr).not.toContain(SECRET);
}

describe('a start with bad values', () => {
  it('npm start (server/main.ts) lists both bad values and the bad secret, then exits 1', async () => {
    const { code, stderr } = await start('server/main.ts', {
      PDF_POOL_SIZE: 'abc',
      UPSTREAM_TIMEOUT_MS: '5',
      SESSION_SECRET: SECRET,
    });
    expect(code).toBe(1);
    expectOneMessage(stderr, [
      /^ {2}PDF_POOL_SIZE must be a whole number from 1 to 32, got "abc"$/,
      /^ {2}UPSTREAM_TIMEOUT_MS: must be at least 100, got "5"$/,
      /^ {2}SESSION_SECRET: must be a comma list of secrets of at least 32 characters each/,
    ]);
  });

  it("the embedded platform's problems come in the same message as the gateway's", async () => {
    const { code, stderr } = await start('server/main.ts', {
      PORT: 'eighty',
      SCRYPT_N: '1000',
      DATABASE_URL: `mysql://root:${SECRET}@db`,
    });
    expect(code).toBe(1);
    expectOneMessage(stderr, [
      /^ {2}PORT: must be a whole number from 0 to 65535, got "eighty"$/,
      /^ {2}SCRYPT_N: must be a power of two, got "1000"$/,
      /^ {2}DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ URL/,
    ]);
  });

  it('npm run start:platform (platform/main.ts) lists both bad values and the bad secret, then exits 1', async () => {
    const { code, stderr } = await start('platform/main.ts', {
      PLATFORM_PORT: '70000',
      TOKEN_TTL_SECONDS: 'a day',
      INTERNAL_API_KEY: SECRET,
    });
    expect(code).toBe(1);
    expectOneMessage(stderr, [
      /^ {2}INTERNAL_API_KEY: must be at least 32 characters$/,
      /^ {2}TOKEN_TTL_SECONDS: must be a whole number ≥ 60, got "a day"$/,
      /^ {2}PLATFORM_PORT: must be at most 65535, got "70000"$/,
    ]);
  });
});

describe('loadServerConfig', () => {
  const base = { DATA_DIR: dataDir, SESSION_SECRET: 'x'.repeat(32) };

  it('refuses CAPTURE_TEST_ALLOW with APP_ENV unset (production), as the platform refuses TEST_HOOKS', () => {
    const allow = { CAPTURE_TEST_ALLOW: '127.0.0.1:4555' };
    expect(() => loadServerConfig({ ...base, ...allow })).toThrow(
      /CAPTURE_TEST_ALLOW: a production start refuses to let captures reach non-public addresses/,
    );
    expect(() => loadServerConfig({ ...base, TEST_HOOKS: '1' })).toThrow(/refuses to enable test hooks/);
    // in front of another upstream the gateway refuses it alike: the rule is the gateway's own
    expect(() => loadServerConfig({ ...base, ...allow, UPSTREAM_URL: 'http://10.0.0.5:8080' })).toThrow(
      ConfigError,
    );
    const test = loadServerConfig({ ...base, ...allow, APP_ENV: 'test' });
    expect(test.capture.testAllow.size).toBe(1);
  });

  it("parses the platform's variables only for an embedded platform", () => {
    const bad = { ...base, SCRYPT_N: '1000' };
    expect(() => loadServerConfig(bad)).toThrow(/SCRYPT_N/);
    const front = loadServerConfig({ ...bad, UPSTREAM_URL: 'http://10.0.0.5:8080' });
    expect(front.platform).toBeNull();
    expect(front.gateway.upstreamUrl).toBe('http://10.0.0.5:8080');
  });

  it('hands every part its settings, deeply frozen', () => {
    const c = loadServerConfig({
      ...base,
      APP_ENV: 'test',
      PUBLIC_URL: 'https://cz.example/',
      NOTARY_OFFICE: '测试市公证处',
      STORAGE_HOST_REWRITE: 'oss.old=oss.new',
      PDF_POOL_SIZE: '3',
      RATE_LIMIT_PER_MINUTE: '7',
      HTTPS_PROXY: 'http://proxy.corp:8080',
      UPSTREAM_URL: 'http://platform.internal:3001',
    });
    expect(c.gateway.site).toEqual({
      publicUrl: 'https://cz.example',
      issuer: { operator: '存证云', notaryOffice: '测试市公证处', contact: null },
      storageHostRewrite: 'oss.old=oss.new',
    });
    expect(c.pdf.poolSize).toBe(3);
    expect(c.rateLimit.perMinute).toBe(7);
    // the upstream is reached directly, whatever the proxy
    expect(c.outboundProxy?.NO_PROXY.split(',')).toContain('platform.internal');
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.gateway.site.issuer)).toBe(true);
    expect(Object.isFrozen(c.gateway.sessionSecrets)).toBe(true);
  });
});
