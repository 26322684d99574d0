/**
 * Secrets out of logs and no demo account in production, against the real process (the embedded default with the
 * production UI build; docs/decisions/025-secrets-sms.md):
 * - APP_ENV=production: no demo account (its login fails); the process log holds no SMS code, no password, no
 *   URL signature, no CSRF or mobile-link token — in the gateway's and in the platform's request lines;
 * - APP_ENV=development: the demo account exists and logs in; the log names it without its password; the sandbox
 *   SMS line carries its code; URL secrets are still redacted;
 * - the seeding rule of the configuration (APP_ENV unset with sandbox providers seeds, as the README's first command
 *   promises; SEED_DEMO decides when set).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountMsg, AccountPaths } from '../../contract/account.ts';
import { peekCaptcha } from '../../platform/account/captcha.ts';
import { loadPlatformConfig } from '../../platform/config.ts';
import { REDACTED } from '../../lib/log-redact.ts';
import { nowSeconds } from '../../platform/core/time.ts';
import { kycImageUrl } from '../../platform/kyc/profile.ts';
import { startServer, type RunningServer } from '../../server/start.ts';
import {
  BUILD_DIR,
  DEMO_MOBILE,
  DEMO_PASSWORD,
  freshDataDir,
  testEnv,
  waitFor,
  type Envelope,
} from '../support/integration.ts';

/** A started process whose log lines are collected in `log`. */
interface Logged {
  running: RunningServer;
  base: string;
  dataDir: string;
  log: string[];
}

async function startLogged(extra: Record<string, string>): Promise<Logged> {
  const dataDir = freshDataDir();
  const log: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      log.push(chunk.toString());
      cb();
    },
  });
  const env = { ...testEnv(dataDir, { LOG_LEVEL: 'info', ...extra }) };
  for (const [k, v] of Object.entries(extra)) if (v === '') delete env[k];
  const running = await startServer(env, {
    mode: 'production',
    buildDirectory: BUILD_DIR,
    logger: pino({ level: 'info' }, stream),
  });
  return { running, base: running.url.replace('localhost', '127.0.0.1'), dataDir, log };
}

async function stopLogged(l: Logged | undefined): Promise<void> {
  if (!l) return;
  await l.running.closeAll();
  rmSync(l.dataDir, { recursive: true, force: true });
}

async function postForm<T>(base: string, p: string, body: Record<string, string>): Promise<Envelope<T>> {
  const res = await fetch(`${base}${p}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body),
  });
  return (await res.json()) as Envelope<T>;
}

/** Asks for a register SMS through the gateway (the captcha answer read from the platform's database). */
async function sendRegisterSms(l: Logged, mobile: string): Promise<string> {
  const img = await postForm<{ key: string }>(l.base, AccountPaths.imgCode, {});
  const answer = await peekCaptcha(l.running.platform!.pdb.db, img.data.key);
  const sent = await postForm(l.base, AccountPaths.sendSms, {
    mobile,
    imgKey: img.data.key,
    imgCode: answer!,
  });
  expect(Number(sent.code)).toBe(200);
  const lines = readFileSync(path.join(l.dataDir, 'outbox', 'sms.log'), 'utf8')
    .trim()
    .split('\n');
  const code = (JSON.parse(lines.at(-1)!) as { code: string }).code;
  expect(code).toMatch(/^\d{6}$/);
  return code;
}

/** Requests carrying secrets in their URLs, through the gateway (the `/api` ones reach the platform too). */
async function requestSecretUrls(l: Logged) {
  const signed = kycImageUrl(l.running.platform!.downloads, 1, nowSeconds());
  const sig = /sig=([0-9a-f]{64})/.exec(signed)![1]!;
  const csrf = `csrf${randomBytes(12).toString('hex')}`;
  const viewToken = `tok${randomBytes(12).toString('hex')}`;
  const mobileToken = `mt${randomBytes(12).toString('hex')}`;
  const extractCode = `X${randomBytes(6).toString('hex')}`;
  await fetch(`${l.base}${signed}`);
  await fetch(`${l.base}/newAccessCard?csrf=${csrf}`, { redirect: 'manual' });
  await fetch(`${l.base}/api/data/download?baoquan=BQ1&token=${viewToken}&checkNo=${extractCode}`);
  await fetch(`${l.base}/mobile/attestation/BQ20260101ABC/${mobileToken}`, { redirect: 'manual' });
  return [sig, csrf, viewToken, mobileToken, extractCode];
}

describe('APP_ENV=production', () => {
  let l: Logged | undefined;
  beforeAll(async () => {
    l = await startLogged({ APP_ENV: 'production', TEST_HOOKS: '0', SCRYPT_N: '16384' });
  }, 60_000);
  afterAll(() => stopLogged(l));

  it('has no demo account and logs no code, password, signature or token', async () => {
    const login = await postForm(l!.base, AccountPaths.login, {
      mobile: DEMO_MOBILE,
      password: DEMO_PASSWORD,
    });
    expect([Number(login.code), login.msg]).toEqual([400, AccountMsg.loginFailed]);
    const code = await sendRegisterSms(l!, '13840000001');
    const secrets = await requestSecretUrls(l!);
    // the access line is written once an answer is complete, which may be just after the client has it
    await waitFor(() => l!.log.join('').includes('/mobile/attestation/BQ20260101ABC/'));
    const text = l!.log.join('');
    expect(text).toContain('"msg":"request"');
    expect(text).toContain(REDACTED);
    expect(text).toContain('"part":"platform"');
    expect(text).not.toContain('demo account');
    expect(text).not.toContain(DEMO_PASSWORD);
    expect(text).not.toContain(code);
    expect(text).not.toContain('13840000001');
    for (const s of secrets) expect(text).not.toContain(s);
  });
});

describe('APP_ENV=development', () => {
  let l: Logged | undefined;
  beforeAll(async () => {
    l = await startLogged({ APP_ENV: 'development', TEST_HOOKS: '0' });
  }, 60_000);
  afterAll(() => stopLogged(l));

  it('seeds the demo account without logging its password; the sandbox line shows the code', async () => {
    const login = await postForm<{ token: string }>(l!.base, AccountPaths.login, {
      mobile: DEMO_MOBILE,
      password: DEMO_PASSWORD,
    });
    expect(Number(login.code)).toBe(200);
    const code = await sendRegisterSms(l!, '13840000002');
    const secrets = await requestSecretUrls(l!);
    // the access line is written once an answer is complete, which may be just after the client has it
    await waitFor(() => l!.log.join('').includes('/mobile/attestation/BQ20260101ABC/'));
    const text = l!.log.join('');
    expect(text).toContain(`demo account created: mobile ${DEMO_MOBILE}`);
    expect(text).not.toContain(DEMO_PASSWORD);
    expect(text).toContain(`"code":"${code}"`);
    for (const s of secrets) expect(text).not.toContain(s);
  });
});

describe('the demo seeding rule', () => {
  const tencent = {
    SMS_PROVIDER: 'tencent',
    TENCENT_SMS_SECRET_ID: 'id',
    TENCENT_SMS_SECRET_KEY: 'key',
    TENCENT_SMS_SDK_APP_ID: '1400000001',
    TENCENT_SMS_SIGN_NAME: '存证云',
    TENCENT_SMS_TEMPLATE_CODE: '1',
    TENCENT_SMS_TEMPLATE_KYC_APPROVED: '2',
    TENCENT_SMS_TEMPLATE_KYC_REJECTED: '3',
  };
  it.each([
    [{}, true],
    [{ APP_ENV: 'development' }, true],
    [{ APP_ENV: 'test' }, true],
    [{ APP_ENV: 'production' }, false],
    [{ APP_ENV: 'production', SEED_DEMO: '1' }, true],
    [{ APP_ENV: 'development', SEED_DEMO: '0' }, false],
    [tencent, false],
    [{ ...tencent, SEED_DEMO: '1' }, true],
  ] as [Record<string, string>, boolean][])('%o → %s', (env, seeded) => {
    expect(loadPlatformConfig({ DATA_DIR: '/tmp/x', ...env }).seedDemo).toBe(seeded);
  });
});
