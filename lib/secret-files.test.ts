/**
 * Secrets from files (decision 040): `NAME_FILE` becomes `NAME` (one trailing newline dropped), both set or an
 * unreadable file is a configuration error that names the variable and path but never the content, path-valued
 * `_FILE` variables are left alone; and the real process takes SESSION_SECRET_FILE and DEMO_PASSWORD_FILE.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withSecretFiles } from './secret-files.ts';
import { DEMO_MOBILE, startWhole, type Whole } from '../tests/support/integration.ts';
import { childEnvironment } from '../tests/support/environment.ts';

const run = promisify(execFile);
const dir = mkdtempSync(path.join(os.tmpdir(), 'cz-secrets-'));
const file = (name: string, content: string) => {
  const p = path.join(dir, name);
  writeFileSync(p, content, { mode: 0o600 });
  return p;
};

describe('withSecretFiles', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads NAME_FILE into NAME and leaves other variables alone', () => {
    const env = {
      SESSION_SECRET_FILE: file('session', 'a-session-secret-of-enough-length-0001\n'),
      WECHATPAY_API_V3_KEY_FILE: file('v3', 'k'.repeat(32)),
      TSA_CERT_FILE: '/etc/tsa.pem',
      PORT: '3000',
    };
    const out = withSecretFiles(env);
    expect(out).toEqual({
      SESSION_SECRET: 'a-session-secret-of-enough-length-0001',
      WECHATPAY_API_V3_KEY: 'k'.repeat(32),
      TSA_CERT_FILE: '/etc/tsa.pem',
      PORT: '3000',
    });
    expect(env.SESSION_SECRET_FILE).toBeDefined(); // the input is not changed
  });

  it('refuses both NAME and NAME_FILE, and an unreadable file, without showing a secret', () => {
    const secret = file('key', 'top-secret-value');
    expect(() =>
      withSecretFiles({ INTERNAL_API_KEY: 'x'.repeat(40), INTERNAL_API_KEY_FILE: secret }),
    ).toThrow('set INTERNAL_API_KEY or INTERNAL_API_KEY_FILE, not both');
    const missing = path.join(dir, 'nope');
    expect(() => withSecretFiles({ DATABASE_URL_FILE: missing })).toThrow(
      `DATABASE_URL_FILE (${missing}) cannot be read (ENOENT)`,
    );
  });
});

describe('npm start with a secret file it cannot read', () => {
  it('exits 1 with a readable line naming the variable, and starts nothing', async () => {
    const missing = path.join(os.tmpdir(), 'cz-no-such-secret');
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cz-secrets-main-'));
    const err = await run(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: childEnvironment({
        DATA_DIR: dataDir,
        PORT: '0',
        SESSION_SECRET: '',
        SESSION_SECRET_FILE: missing,
      }),
    }).then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    rmSync(dataDir, { recursive: true, force: true });
    expect(err?.code).toBe(1);
    expect(err?.stderr.trim()).toBe(
      `Invalid configuration: SESSION_SECRET_FILE (${missing}) cannot be read (ENOENT)`,
    );
  });
});

describe('secrets from files in the real process', () => {
  let whole: Whole;
  afterAll(async () => whole?.stop());

  it('takes SESSION_SECRET_FILE and DEMO_PASSWORD_FILE', async () => {
    const secretDir = mkdtempSync(path.join(os.tmpdir(), 'cz-secrets-run-'));
    const session = path.join(secretDir, 'session');
    const demo = path.join(secretDir, 'demo');
    writeFileSync(session, 'session-secret-from-a-file-0123456789abcdef\n');
    writeFileSync(demo, 'from-a-file-42\n');
    whole = await startWhole({
      SESSION_SECRET: '',
      SESSION_SECRET_FILE: session,
      DEMO_PASSWORD: '',
      DEMO_PASSWORD_FILE: demo,
    });
    expect(whole.running.config.sessionSecretSource).toBe('env');
    expect(whole.running.config.sessionSecrets).toEqual(['session-secret-from-a-file-0123456789abcdef']);
    const login = await fetch(`${whole.base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ mobile: DEMO_MOBILE, password: 'from-a-file-42' }),
    });
    expect(((await login.json()) as { code: number }).code).toBe(200);
    rmSync(secretDir, { recursive: true, force: true });
  });
});
