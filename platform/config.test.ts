import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_UPLOAD_BYTES } from '../contract/evidence.ts';
import { loadPlatformConfig } from './config.ts';

describe('loadPlatformConfig', () => {
  it('has production defaults', () => {
    const c = loadPlatformConfig({});
    expect(c.dataDir).toBe(path.resolve('data'));
    expect(c.database).toEqual({ dialect: 'sqlite', file: path.resolve('data', 'cunzheng.sqlite') });
    expect(c).toMatchObject({
      maxUploadBytes: DEFAULT_MAX_UPLOAD_BYTES,
      tokenTtlSeconds: 86400,
      appEnv: 'production',
      testHooks: false,
      seedDemo: true,
      demoPassword: 'demo1234',
      scryptCost: { N: 32768, r: 8, p: 1 },
      downloadUrlTtlSeconds: 600,
      logLevel: 'info',
      trustProxy: 'loopback',
    });
  });

  it('reads TRUST_PROXY as Fastify takes it: true as trust-all, false/0 as none, anything else as addresses', () => {
    expect(loadPlatformConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadPlatformConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadPlatformConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadPlatformConfig({ TRUST_PROXY: ' 10.0.0.5, 10.1.0.0/16 ' }).trustProxy).toBe(
      '10.0.0.5, 10.1.0.0/16',
    );
  });

  it('selects PostgreSQL for postgres URLs and resolves DATA_DIR', () => {
    const c = loadPlatformConfig({ DATABASE_URL: 'postgresql://u@h/db', DATA_DIR: 'x/y', SEED_DEMO: '0' });
    expect(c.database).toEqual({ dialect: 'postgres', url: 'postgresql://u@h/db' });
    expect(c.dataDir).toBe(path.resolve('x/y'));
    expect(c.seedDemo).toBe(false);
  });

  it('a production start refuses to enable test hooks', () => {
    expect(() => loadPlatformConfig({ TEST_HOOKS: '1' })).toThrow(/refuses to enable test hooks/);
    expect(() => loadPlatformConfig({ APP_ENV: 'production', TEST_HOOKS: '1' })).toThrow(/test hooks/);
    expect(loadPlatformConfig({ APP_ENV: 'test', TEST_HOOKS: '1' }).testHooks).toBe(true);
  });

  it('fails fast with a message naming each bad variable', () => {
    let message = '';
    try {
      loadPlatformConfig({ MAX_UPLOAD_BYTES: 'lots', DATABASE_URL: 'mysql://x', APP_ENV: 'staging' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/MAX_UPLOAD_BYTES/);
    expect(message).toMatch(/DATABASE_URL/);
    expect(message).toMatch(/APP_ENV/);
  });

  it('allows a cheap scrypt cost only outside production', () => {
    expect(() => loadPlatformConfig({ SCRYPT_N: '1024' })).toThrow(/SCRYPT_N/);
    expect(loadPlatformConfig({ SCRYPT_N: '1024', APP_ENV: 'test' }).scryptCost.N).toBe(1024);
    expect(() => loadPlatformConfig({ SCRYPT_N: '1000', APP_ENV: 'test' })).toThrow(/power of two/);
  });
});
