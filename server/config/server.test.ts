/** Gateway configuration: defaults, readable failures, the generated session key. */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadGatewayConfig } from './server.ts';

describe('loadGatewayConfig', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'cz-config-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('applies the defaults', () => {
    const c = loadGatewayConfig({ DATA_DIR: dataDir });
    expect(c).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      upstreamUrl: null,
      dataDir,
      secureCookies: false,
      trustProxy: false,
      announcement: null,
      maxUploadBytes: 2 * 1024 ** 3,
      logLevel: 'info',
      sessionSecretSource: 'file',
      shutdownTimeoutMs: 10_000,
    });
  });

  it('generates the session key once, mode 0600, and reuses it', () => {
    const first = loadGatewayConfig({ DATA_DIR: dataDir });
    const file = path.join(dataDir, 'keys', 'session.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.sessionSecrets).toEqual([readFileSync(file, 'utf8').trim()]);
    expect(first.sessionSecrets[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(loadGatewayConfig({ DATA_DIR: dataDir }).sessionSecrets).toEqual(first.sessionSecrets);
  });

  it('takes SESSION_SECRET as a rotatable comma list and writes no key file', () => {
    const a = 'a'.repeat(32);
    const b = 'b'.repeat(40);
    const c = loadGatewayConfig({ DATA_DIR: dataDir, SESSION_SECRET: ` ${a}, ${b} ` });
    expect(c.sessionSecrets).toEqual([a, b]);
    expect(c.sessionSecretSource).toBe('env');
    expect(() => statSync(path.join(dataDir, 'keys', 'session.key'))).toThrow();
  });

  it('parses the other variables', () => {
    const c = loadGatewayConfig({
      DATA_DIR: dataDir,
      PORT: '8080',
      HOST: '127.0.0.1',
      UPSTREAM_URL: 'http://10.0.0.5:9000/',
      SESSION_SECRET: 'x'.repeat(32),
      SECURE_COOKIES: 'true',
      TRUST_PROXY: '10.0.0.0/8, 127.0.0.1',
      ANNOUNCEMENT_FROM: '2025-01-01T00:00:00+08:00',
      ANNOUNCEMENT_UNTIL: '2025-01-02T00:00:00+08:00',
      ANNOUNCEMENT_TEXT: '系统维护通知',
      MAX_UPLOAD_BYTES: '1048576',
      LOG_LEVEL: 'WARN',
      SHUTDOWN_TIMEOUT_MS: '25000',
    });
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      upstreamUrl: 'http://10.0.0.5:9000',
      secureCookies: true,
      trustProxy: ['10.0.0.0/8', '127.0.0.1'],
      announcement: {
        from: '2024-12-31T16:00:00.000Z',
        until: '2025-01-01T16:00:00.000Z',
        text: '系统维护通知',
      },
      maxUploadBytes: 1048576,
      logLevel: 'warn',
      shutdownTimeoutMs: 25_000,
    });
    expect(loadGatewayConfig({ DATA_DIR: dataDir, TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadGatewayConfig({ DATA_DIR: dataDir, TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadGatewayConfig({ DATA_DIR: dataDir, PORT: '' }).port).toBe(3000);
  });

  it('fails fast listing every bad variable', () => {
    let error: unknown;
    try {
      loadGatewayConfig({
        DATA_DIR: dataDir,
        PORT: 'eighty',
        UPSTREAM_URL: 'ftp://x',
        SECURE_COOKIES: 'maybe',
        SESSION_SECRET: 'short',
        MAX_UPLOAD_BYTES: '-1',
        LOG_LEVEL: 'loud',
        SHUTDOWN_TIMEOUT_MS: '5',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const name of [
      'PORT',
      'UPSTREAM_URL',
      'SECURE_COOKIES',
      'SESSION_SECRET',
      'MAX_UPLOAD_BYTES',
      'LOG_LEVEL',
      'SHUTDOWN_TIMEOUT_MS',
    ]) {
      expect(message).toContain(`${name}:`);
    }
  });

  it('wants the announcement window whole and in order', () => {
    expect(() => loadGatewayConfig({ DATA_DIR: dataDir, ANNOUNCEMENT_TEXT: 'hi' })).toThrow(/set all three/);
    expect(() =>
      loadGatewayConfig({
        DATA_DIR: dataDir,
        ANNOUNCEMENT_FROM: '2025-01-02T00:00:00Z',
        ANNOUNCEMENT_UNTIL: '2025-01-01T00:00:00Z',
        ANNOUNCEMENT_TEXT: 'hi',
      }),
    ).toThrow(/later than/);
    expect(() =>
      loadGatewayConfig({
        DATA_DIR: dataDir,
        ANNOUNCEMENT_FROM: 'tomorrow',
        ANNOUNCEMENT_UNTIL: '2025-01-01T00:00:00Z',
        ANNOUNCEMENT_TEXT: 'hi',
      }),
    ).toThrow(/ANNOUNCEMENT_FROM: .*ISO datetime/);
  });
});
