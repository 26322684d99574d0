/**
 * The data the page walk (tests/e2e/layout-walk.spec.ts, decision 049) lays its pages out with: rows in every list,
 * an evidence of each kind, orders, an invoice application, a KYC submission, a capture of the local test site and
 * an app upload, made the way the area's own spec makes them (the forms, or the API with the user's token where the
 * form is not what is walked).
 */
import http from 'node:http';
import { randomBytes, randomInt } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { OpenApiClient } from '../../clients/open-api.ts';
import { OpenApiPaths, type OpenApiState } from '../../contract/open-api.ts';
import { creditCodeCheckChar, idCardCheckChar } from '../../contract/validators.ts';
import { pcmWav } from './audio.ts';
import { captureSitePort } from './e2e-capture.ts';
import type { Credentials } from './e2e-fixtures.ts';
import { expect } from './e2e-fixtures.ts';
import { apiLogin, makeFile, setUserStatus, TINY_PNG } from './e2e.ts';

/** Long Chinese titles and names: what makes a layout break (a column squeezed, a button pushed out). */
export const LONG_TITLE = '房屋租赁合同扫描件（第一页至第十二页）设计稿最终版';

/** A random valid ID number (GB 11643): one number verifies one personal account (decision 025). */
export function uniqueIdCard(): string {
  const birth = new Date(Date.UTC(1950, 0, 1) + randomInt(0, 17_500) * 86_400_000);
  const ymd = birth.toISOString().slice(0, 10).replaceAll('-', '');
  const first17 = `110102${ymd}${String(randomInt(0, 999)).padStart(3, '0')}`;
  return first17 + idCardCheckChar(first17);
}

/** A valid unified social credit code (GB 32100) with a random organisation part. */
export function uniqueCreditCode(): string {
  const first17 = `91110108${Array.from(randomBytes(9), (b) => String(b % 10)).join('')}`;
  return first17 + creditCodeCheckChar(first17);
}

/** `Authorization` headers of `user`'s own API token. */
async function authHeaders(request: APIRequestContext, user: Credentials) {
  const { token } = await apiLogin(request, user.mobile, user.password);
  return { Authorization: `Bearer ${token}` };
}

/** Expects an API envelope answer of 200. */
async function ok(res: Awaited<ReturnType<APIRequestContext['post']>>) {
  const body = (await res.json()) as { code: number; msg: string };
  expect(body.code, body.msg).toBe(200);
}

/** Adds a delivery address with long Chinese lines to `user`'s address book (through the API). */
export async function addAddress(request: APIRequestContext, user: Credentials): Promise<void> {
  await ok(
    await request.post('/api/User/addAddress', {
      headers: await authHeaders(request, user),
      form: {
        name: '欧阳诸葛明',
        province: '内蒙古自治区',
        city: '呼和浩特市',
        area: '赛罕区',
        address: '敕勒川大街 100 号 某某科技园区 3 号楼东座 1201 室',
        phoneNumber: '13912345678',
        email: 'layout-walk@example.com',
        status: '0',
      },
    }),
  );
}

/** Adds an electronic invoice head of a long company name (through the API). @returns the head */
export async function addInvoiceHead(request: APIRequestContext, user: Credentials): Promise<string> {
  const head = `杭州存证云电子数据司法鉴定科技服务有限公司${randomBytes(2).toString('hex')}`;
  await ok(
    await request.post('/api/User/addInvoice', {
      headers: await authHeaders(request, user),
      form: { head, type: 'ENTERPRISE', taxNum: uniqueCreditCode() },
    }),
  );
  return head;
}

/** Submits a personal photo verification for `user` (through the API, as ops.spec.ts does). */
export async function submitPersonalKyc(request: APIRequestContext, user: Credentials): Promise<void> {
  const image = (name: string) => ({ name, mimeType: 'image/png', buffer: TINY_PNG });
  await ok(
    await request.post('/api/peruser/perAuthorize', {
      headers: await authHeaders(request, user),
      multipart: {
        userName: '欧阳诸葛明',
        idCard: uniqueIdCard(),
        sex: '1',
        type: '1',
        address: '内蒙古自治区呼和浩特市赛罕区敕勒川大街100号',
        consent: '1',
        authorFront: image('front.png'),
        authorBack: image('back.png'),
        authorHand: image('hand.png'),
      },
    }),
  );
}

/** Buys `points` with Alipay in the sandbox cashier (支付成功); lands on the result page. @returns the order number */
export async function buyWithAlipay(page: Page, points: number): Promise<string> {
  await page.goto('/buyCredits');
  await page.getByLabel('自定义积分').fill(String(points));
  await page.getByRole('radio', { name: '支付宝' }).check();
  await page.getByRole('button', { name: '立即支付' }).click();
  await expect(page).toHaveURL(/\/cashier\/[0-9a-f]{32}$/);
  await page.getByRole('button', { name: '支付成功' }).click();
  await expect(page).toHaveURL(/\/buyCredits\/result\?order_no=R[0-9A-Za-z]+$/);
  return new URL(page.url()).searchParams.get('order_no')!;
}

/** Starts an Alipay recharge of `user` through the API and leaves it pending. @returns the order number */
export async function pendingAlipay(request: APIRequestContext, user: Credentials): Promise<string> {
  const res = await request.post('/api/alipay/pay', {
    headers: await authHeaders(request, user),
    data: { integral: 10, type: 2 },
  });
  const body = (await res.json()) as { code: number; msg: string; data: { order_no: string } };
  expect(body.code, body.msg).toBe(200);
  return body.data.order_no;
}

/** Starts a WeChat Pay recharge and leaves it pending on its QR page. @returns the order number */
export async function pendingWechat(page: Page): Promise<string> {
  await page.goto('/buyCredits');
  await page.getByRole('radio', { name: /^10 积分/ }).check();
  await page.getByRole('radio', { name: '微信支付' }).check();
  await page.getByRole('button', { name: '立即支付' }).click();
  await expect(page).toHaveURL(/\/weChat\/R[0-9A-Za-z]+$/);
  return new URL(page.url()).pathname.split('/').pop()!;
}

/** Preserves hash evidence of a random file by pasting its SHA-256; lands on its certificate. @returns its number */
export async function preserveHash(page: Page, title: string): Promise<string> {
  await page.goto('/newAccessHashCard');
  await page.getByLabel('文件SHA-256哈希值').fill(makeFile('layout-hash.bin', 1000).sha256);
  await page.getByLabel('证据名称').fill(title);
  await page.getByRole('button', { name: '提交保全' }).click();
  await expect(page).toHaveURL(/\/attestation\/BQ[0-9A-Z]+$/);
  return new URL(page.url()).pathname.split('/').pop()!;
}

/** Preserves typed user data with long values; lands on its certificate. @returns its number */
export async function preserveUserData(page: Page, title: string): Promise<string> {
  await page.goto('/newProperty');
  await page.getByLabel('证据名称').first().fill(title);
  await page
    .getByLabel('数据')
    .fill(
      '订单号,商品名称,收货地址\nA1001,超长的商品名称一二三四五六七八,内蒙古自治区呼和浩特市\nA1002,短名,北京',
    );
  await page.getByRole('button', { name: '提交保全' }).click();
  await expect(page).toHaveURL(/\/attestation\/BQ[0-9A-Z]+$/);
  return new URL(page.url()).pathname.split('/').pop()!;
}

/** Preserves a music work (five seconds of silence) with two authors; lands on its certificate. @returns its number */
export async function preserveMusic(page: Page, title: string): Promise<string> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cz-layout-')), 'song.wav');
  fs.writeFileSync(file, pcmWav(5, 8000, false));
  await page.goto('/evidences-all/music/new');
  await page.getByLabel('作品名称').fill(title);
  await page.getByLabel('ISRC（国际标准录音制品编码，可选）').fill('CN-A12-26-00042');
  await page.getByLabel('第 1 位作者的角色').selectOption('作曲');
  await page.getByLabel('第 1 位作者的姓名').fill('欧阳诸葛明');
  await page.getByLabel('音频文件').setInputFiles(file);
  await page.getByRole('button', { name: '提交保全' }).click();
  await expect(page).toHaveURL(/\/attestation\/[^/]+$/);
  return new URL(page.url()).pathname.split('/').pop()!;
}

/** Makes `user` a verified enterprise with a key that signs, and uploads a photo as its app. @returns its number */
export async function appUpload(
  request: APIRequestContext,
  user: Credentials,
  baseURL: string,
): Promise<string> {
  await setUserStatus(request, user.mobile, '3', 2, 1);
  const headers = await authHeaders(request, user);
  const rotated = (await (
    await request.post('/api/user/resetSecurityKey', { headers, data: {} })
  ).json()) as { code: number; data: { securityKey: string } };
  expect(rotated.code).toBe(200);
  const state = (await (await request.get(OpenApiPaths.state, { headers })).json()) as { data: OpenApiState };
  const app = new OpenApiClient({
    baseUrl: baseURL,
    appId: state.data.appId,
    securityKey: rotated.data.securityKey,
  });
  const saved = await app.saveFile(TINY_PNG, {
    title: LONG_TITLE,
    fileName: 'door.png',
    appType: '拍照取证',
    configName: '巡检终端 07 号（仓库东门）',
    configModelName: 'PDA-X1',
  });
  return saved.baoquan;
}

/**
 * The local site the walk's captures visit (allow-listed for the server's captures, tests/support/e2e-capture.ts),
 * on the capture port of the server at `baseURL`. @returns a function that closes it
 */
export async function startCaptureSite(
  baseURL: string,
): Promise<{ url: string; close: () => Promise<void> }> {
  const png = TINY_PNG;
  const site = http.createServer((req, res) => {
    if (req.url === '/pic.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><title>版式检查站</title><h1>版式检查站</h1><img src="/pic.png" alt="">');
  });
  const port = captureSitePort(Number(new URL(baseURL).port));
  await new Promise<void>((resolve) => site.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => site.close(() => resolve())),
  };
}
