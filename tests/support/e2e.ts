/**
 * Helpers for the end-to-end tests: read the captcha answer through the test-only hook, read SMS codes from the
 * sandbox outbox, make unique mobiles, register and log in through the API, drive the login form where a spec tests
 * it, preserve files, read ZIPs, set a user's verification state and create operators. The login fixtures are in
 * ./e2e-fixtures.ts.
 */
import { createHash, randomBytes } from 'node:crypto';
import yauzl from 'yauzl';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { createOperatorAt } from './operators.ts';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { demoPassword } from './environment.ts';

export const DEMO = { mobile: '13800138000', password: demoPassword() };

/** The data directory of the running test's server (each project has its own; playwright.config.ts). */
export function dataDir(): string {
  const dir = (test.info().project.metadata as { dataDir?: string }).dataDir;
  if (!dir) throw new Error('the project has no metadata.dataDir (playwright.config.ts sets it)');
  return dir;
}

/** A fresh, valid mobile number (199 + 8 random digits). */
export function uniqueMobile(): string {
  return `199${String(randomBytes(4).readUInt32BE(0) % 100_000_000).padStart(8, '0')}`;
}

/** The answer of the image captcha with this key (test hook; refused by a production start). */
export async function captchaAnswer(request: APIRequestContext, key: string): Promise<string> {
  const res = await request.get(`/api/__test/captcha?key=${encodeURIComponent(key)}`);
  const body = (await res.json()) as { code: number; data: { code: string } };
  expect(body.code).toBe(200);
  return body.data.code;
}

/** The newest SMS code sent to `mobile`, from the sandbox outbox `DATA_DIR/outbox/sms.log` (JSON lines). */
export function latestSmsCode(mobile: string): string {
  const lines = readFileSync(path.join(dataDir(), 'outbox', 'sms.log'), 'utf8')
    .trim()
    .split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const entry = JSON.parse(lines[i]!) as { mobile: string; code?: string };
    if (entry.mobile === mobile && entry.code) return entry.code;
  }
  throw new Error(`no SMS for ${mobile}`);
}

/** Logs in through the API and returns the user info (for the extraction code). */
export async function apiLogin(request: APIRequestContext, mobile: string, password: string) {
  const res = await request.post('/api/login', { form: { mobile, password } });
  const body = (await res.json()) as {
    code: number;
    data: { token: string; expiresIn: number; userInfo: { extractCode: string } };
  };
  expect(body.code).toBe(200);
  return body.data;
}

/** Fills and submits the login form (for the specs that test it; others log in with ./e2e-fixtures.ts). */
export async function loginViaForm(page: Page, mobile: string, password: string) {
  await page.getByLabel('手机号').fill(mobile);
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByRole('button', { name: '登录', exact: true }).click();
}

/** Opens the account menu and logs out; lands on /. */
export async function logoutViaMenu(page: Page) {
  await page.locator('.account-menu summary').click();
  await page.getByRole('button', { name: '退出登录' }).click();
  await expect(page).toHaveURL(/:\d+\/\?notice=loggedOut$/);
  await expect(page.getByRole('status').filter({ hasText: '退出成功' })).toBeVisible();
  await expect(page.locator('.topbar').getByRole('link', { name: '登录', exact: true })).toBeVisible();
}

/** Writes a file of `bytes` random bytes with a text header and returns its path and SHA-256 hex. */
export function makeFile(name: string, bytes: number): { file: string; sha256: string } {
  const dir = path.join(os.tmpdir(), 'cunzheng-e2e-files');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  const buf = randomBytes(bytes);
  writeFileSync(file, buf);
  return { file, sha256: createHash('sha256').update(buf).digest('hex') };
}

/** Registers an account through the API (captcha via the test hook, SMS code from the outbox). */
export async function apiRegister(
  request: APIRequestContext,
  mobile: string,
  password: string,
): Promise<void> {
  const img = (await (await request.post('/api/Register/getImgCode')).json()) as { data: { key: string } };
  const imgCode = await captchaAnswer(request, img.data.key);
  const sms = (await (
    await request.post('/api/Register/sendSMS', { form: { mobile, imgKey: img.data.key, imgCode } })
  ).json()) as { code: number; msg: string };
  expect(sms.code, sms.msg).toBe(200);
  const reg = (await (
    await request.post('/api/Register', { form: { mobile, password, smsCode: latestSmsCode(mobile) } })
  ).json()) as { code: number; msg: string };
  expect(reg.code, reg.msg).toBe(200);
}

/** Uploads a file at /newAccessCard and returns its preservation number (on the certificate page afterwards). */
export async function preserveFile(page: Page, title: string, file: string): Promise<string> {
  await page.goto('/newAccessCard');
  await page.getByLabel('证据名称').fill(title);
  await page.getByLabel('选择文件').setInputFiles(file);
  await page.getByRole('button', { name: '提交保全' }).click();
  await expect(page).toHaveURL(/:\d+\/attestation\/BQ[0-9A-Z]+$/, { timeout: 30_000 });
  return decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
}

/** Reads every entry of a ZIP file: name → SHA-256 hex and bytes length. */
export async function zipEntries(
  file: string,
): Promise<Map<string, { sha256: string; size: number; text?: string }>> {
  const out = new Map<string, { sha256: string; size: number; text?: string }>();
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true }, (err, z) => (err ? reject(err) : resolve(z!))),
  );
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entry.fileName.endsWith('/')) return zip.readEntry();
      zip.openReadStream(entry, (err, stream) => {
        if (err || !stream) return reject(err);
        const hash = createHash('sha256');
        const chunks: Buffer[] = [];
        let size = 0;
        stream.on('data', (c: Buffer) => {
          hash.update(c);
          size += c.length;
          if (entry.fileName.endsWith('.json')) chunks.push(c);
        });
        stream.on('end', () => {
          out.set(entry.fileName, {
            sha256: hash.digest('hex'),
            size,
            text: Buffer.concat(chunks).toString('utf8'),
          });
          zip.readEntry();
        });
      });
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return out;
}

/**
 * Sets a user's verification state through the test hook (setup for flows behind the KYC gate, spec 02 §6,
 * decision 011). `status` is the account type (1 personal, 2 enterprise), `authType` 1 photo / 3 face.
 */
export async function setUserStatus(
  request: APIRequestContext,
  mobile: string,
  userStatus: '1' | '2' | '3' | '4',
  status = 1,
  authType = 1,
): Promise<void> {
  const res = await request.post('/api/__test/setUserStatus', {
    form: { mobile, userStatus, status: String(status), authType: String(authType) },
  });
  const body = (await res.json()) as { code: number; msg: string };
  expect(body.code, body.msg).toBe(200);
}

/** A 1×1 PNG. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * Creates an operator of the console with the project's CLI against the e2e server's data directory (decision
 * 011: operator accounts are made by `platform/ops/cli.ts create`), with `roles` (comma-separated; default: the
 * CLI's, reviewer). Returns the credentials.
 */
export function createOperator(roles?: string): { username: string; password: string } {
  return createOperatorAt(dataDir(), roles);
}

/**
 * `page.getByText(text, opts)` without the copies in a form's error summary (app/shell/error-summary.tsx lists each
 * field's message again as a link): the message where it is shown, at its field or as the form's own error.
 */
export function getText(page: Page, text: string | RegExp, opts?: { exact?: boolean }): Locator {
  return page.getByText(text, opts).and(page.locator(':not(.error-summary *)'));
}

/**
 * Makes sure the demo account has a delivery address whose recipient is `name` (through the API; the invoice and
 * notarisation specs share it, within the five-address limit) and returns the name.
 */
export async function ensureAddress(request: APIRequestContext, name = '开票收件人'): Promise<string> {
  const { token } = await apiLogin(request, DEMO.mobile, DEMO.password);
  const headers = { Authorization: `Bearer ${token}` };
  const list = (await (await request.get('/api/User/addressList', { headers })).json()) as {
    data: { name: string }[];
  };
  if (list.data.some((a) => a.name === name)) return name;
  const res = await request.post('/api/User/addAddress', {
    headers,
    form: {
      name,
      province: '浙江省',
      city: '杭州市',
      area: '西湖区',
      address: '文三路 100 号',
      phoneNumber: '13912345678',
      email: 'invoice@example.com',
      status: '0',
    },
  });
  const body = (await res.json()) as { code: number; msg: string };
  expect(body.code, body.msg).toBe(200);
  return name;
}
