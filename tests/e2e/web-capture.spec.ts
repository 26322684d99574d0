/**
 * Web capture (decision 037), JS on and off: the demo user asks /newWeb to capture pages of a local test site
 * (allow-listed for this server's captures only: CAPTURE_TEST_ALLOW) — a page with an image, a redirect to it, a
 * second page and the same over HTTPS with a self-signed certificate —
 * and is sent to /evidences-all/web, which refreshes itself until the job is preserved and links to the evidence's
 * certificate, which names the URL, where it ended and the server's address; its package passes `npm run verify` and
 * the WACZ inside validates (every listed hash, the WARC records). A capture of a private address fails there with the
 * SSRF reason; a URL that is not http(s) is refused by the form with the contract's message.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '../support/e2e-fixtures.ts';
import { DEMO } from '../support/e2e.ts';
import { captureSitePort, captureTlsSitePort } from '../support/e2e-capture.ts';
import { checkWacz, unzipAll } from '../support/wacz-check.ts';
import { CaptureMsg } from '../../contract/capture.ts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

let site: http.Server | null = null;
let tlsSite: https.Server | null = null;

/** The test site: a page with an image, a redirect to it, a second page. */
function handler(req: http.IncomingMessage, res: http.ServerResponse) {
  if (req.url === '/pic.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
  if (req.url === '/old') return res.writeHead(302, { location: '/' }).end();
  const title = req.url === '/b' ? '取证测试站B' : '取证测试站';
  res
    .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    .end(`<!doctype html><title>${title}</title><h1>${title}</h1><img src="/pic.png" alt="">`);
}

// Playwright reads the fixtures a hook wants from its first parameter: this one wants none
// eslint-disable-next-line no-empty-pattern
test.beforeAll(async ({}, info) => {
  const port = Number(new URL(String(info.project.use.baseURL)).port);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cz-capture-tls-'));
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1']
      .concat(['-subj', '/CN=capture.test', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:capture.test'])
      .concat(['-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')]),
    { stdio: 'ignore' },
  );
  site = http.createServer(handler);
  tlsSite = https.createServer(
    { key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) },
    handler,
  );
  await new Promise<void>((resolve) => site!.listen(captureSitePort(port), '127.0.0.1', resolve));
  await new Promise<void>((resolve) => tlsSite!.listen(captureTlsSitePort(port), '127.0.0.1', resolve));
});
test.afterAll(async () => {
  await new Promise((resolve) => site?.close(resolve));
  await new Promise((resolve) => tlsSite?.close(resolve));
});

test('a web capture is queued, preserved and linked to its certificate; a private address fails', async ({
  page,
  loginAs,
}, info) => {
  test.setTimeout(120_000);
  const serverPort = Number(new URL(String(info.project.use.baseURL)).port);
  const port = captureSitePort(serverPort);
  const tlsPort = captureTlsSitePort(serverPort);
  await loginAs(DEMO, '/newWeb');

  // not http(s): refused by the form
  await page.getByLabel('网址').fill('ftp://example.com/file');
  await page.getByRole('button', { name: '开始取证' }).click();
  await expect(page.getByText(CaptureMsg.urlScheme).first()).toBeVisible();

  await page
    .getByLabel('网址')
    .fill(
      [`http://127.0.0.1:${port}/`, `http://127.0.0.1:${port}/old`, `http://127.0.0.1:${port}/b`]
        .concat(`https://127.0.0.1:${tlsPort}/`)
        .join('\n'),
    );
  await page.getByLabel('证据名称').fill(`网页取证-${info.project.name}`);
  await page.getByRole('button', { name: '开始取证' }).click();
  await expect(page).toHaveURL(/\/evidences-all\/web\?job=\d+$/);
  const row = page.getByTestId('capture-row').filter({ hasText: `网页取证-${info.project.name}` });
  // the page refreshes itself (meta refresh) until the job settles
  await expect(row).toHaveAttribute('data-status', 'done', { timeout: 90_000 });
  await expect(row).toContainText('已保全');
  await row.getByRole('link', { name: /查看证书/ }).click();
  await expect(page.getByText(`网页取证-${info.project.name}`).first()).toBeVisible();
  // the certificate names what was captured, and where from
  await expect(page.getByRole('row', { name: /取证网址 1/ })).toContainText(`http://127.0.0.1:${port}/`);
  await expect(page.getByRole('row', { name: /服务器IP地址/ }).first()).toContainText('127.0.0.1');
  await expect(page.getByRole('row', { name: /跳转后网址/ })).toContainText(`http://127.0.0.1:${port}/`);
  await expect(page.getByRole('row', { name: /取证网址 4/ })).toContainText(`https://127.0.0.1:${tlsPort}/`);
  await expect(page.getByRole('row', { name: /TLS 证书/ })).toContainText('capture.test');
  // and shows each page's screenshot, read from the preserved WACZ
  await expect(page.getByTestId('capture-shot')).toHaveCount(4);
  const shotSrc = await page.getByTestId('capture-shot').first().getAttribute('src');
  const shotRes = await page.request.get(shotSrc!);
  expect([shotRes.status(), shotRes.headers()['content-type']]).toEqual([200, 'image/png']);
  expect((await shotRes.body()).subarray(1, 4).toString()).toBe('PNG');

  // its package: npm run verify accepts it, and the WACZ inside validates
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: '下载证据' }).click();
  const saved = info.outputPath('web-package.zip');
  await (await download).saveAs(saved);
  const out = execFileSync('node', ['--import', 'tsx', 'platform/ledger/verify-cli.ts', saved], {
    encoding: 'utf8',
  });
  expect(out).toMatch(/✓/);
  expect(out).not.toMatch(/✗/);
  const entries = await unzipAll(saved);
  const name = [...entries.keys()].find((n) => n.endsWith('.wacz'));
  expect(name).toMatch(/^evidence\/网页取证-\d+\.wacz$/);
  const wacz = info.outputPath('capture.wacz');
  fs.writeFileSync(wacz, entries.get(name!)!);
  const checked = await checkWacz(wacz);
  expect(checked.problems).toEqual([]);
  expect(
    checked.records.some((r) => r.type === 'response' && r.url === `http://127.0.0.1:${port}/pic.png`),
  ).toBe(true);

  await page.goto('/newWeb');
  await page.getByLabel('网址').fill('http://10.0.0.1/');
  await page.getByLabel('证据名称').fill(`内网-${info.project.name}`);
  await page.getByRole('button', { name: '开始取证' }).click();
  const failed = page.getByTestId('capture-row').filter({ hasText: `内网-${info.project.name}` });
  await expect(failed).toHaveAttribute('data-status', 'failed', { timeout: 60_000 });
  await expect(failed).toContainText('目标地址 10.0.0.1 属于内网地址');

  // /evidences-all (the top bar's 在线取证) is this list
  await page.goto('/evidences-all');
  await expect(page).toHaveURL(/\/evidences-all\/web$/);
});

test('a process capture: steps added by the form, replayed, recorded and preserved', async ({
  page,
  loginAs,
}, info) => {
  test.setTimeout(120_000);
  const port = captureSitePort(Number(new URL(String(info.project.use.baseURL)).port));
  await loginAs(DEMO, '/newProcess');
  await page.getByLabel('第 1 步的网址、元素或数值').fill(`http://127.0.0.1:${port}/`);
  // a row more: a server round trip without JavaScript, at once with it
  await page.getByRole('button', { name: '添加步骤' }).click();
  await expect(page.getByTestId('process-step')).toHaveCount(2);
  await page.getByLabel('第 2 步', { exact: true }).selectOption('scroll');
  await page.getByLabel('第 2 步的网址、元素或数值').fill('300');
  await page.getByRole('button', { name: '添加步骤' }).click();
  await expect(page.getByTestId('process-step')).toHaveCount(3);
  await page.getByLabel('第 3 步', { exact: true }).selectOption('screenshot');
  await page.getByLabel('证据名称').fill(`过程-${info.project.name}`);
  await page.getByRole('button', { name: '开始取证' }).click();
  // its progress page refreshes itself until the capture ends, then shows each step's log line
  await expect(page).toHaveURL(/\/evidences-all\/process\/queue\/\d+$/);
  await expect(page.getByTestId('queue-status')).toHaveAttribute('data-status', 'done', { timeout: 90_000 });
  await expect(page.getByTestId('step-log').locator('li')).toHaveCount(3);
  await expect(page.getByTestId('step-log')).toContainText('滚动页面：完成');
  await page.goto('/evidences-all/process');
  const row = page.getByTestId('capture-row').filter({ hasText: `过程-${info.project.name}` });
  await expect(row).toHaveAttribute('data-status', 'done');
  // the preserved capture is also in the evidence list below the jobs (filters, labels, deletion as for files)
  await expect(page.getByRole('row').filter({ hasText: `过程-${info.project.name}` })).toHaveCount(2);
  await expect(page.getByRole('button', { name: '查询' })).toBeVisible();
  await row.getByRole('link', { name: /查看证书/ }).click();
  await expect(page.getByText('过程取证（录像）')).toBeVisible();
  await expect(page.getByRole('row', { name: /第 2 步/ })).toContainText('滚动页面：300 像素（完成');
  await expect(page.getByTestId('capture-shot')).toHaveCount(3);
  // the owner watches the recording: a signed URL of the video inside the WACZ
  await page.getByRole('link', { name: '观看取证录像' }).click();
  await expect(page).toHaveURL(/\/evidences-all\/process\/preview\?baoquan=/);
  const src = await page.getByTestId('process-video').getAttribute('src');
  const video = await page.request.get(src!);
  expect([video.status(), video.headers()['content-type']]).toEqual([200, 'video/webm']);
  expect((await video.body()).subarray(0, 4).toString('hex')).toBe('1a45dfa3'); // EBML: a WebM file
});
