/**
 * Web capture (issue 15 point 1), JS on and off: the demo user asks /newWeb to capture pages of a local test site
 * (allow-listed for this server's captures only: CAPTURE_TEST_ALLOW) — a page with an image and a redirected one —
 * and is sent to /evidences-all/web, which refreshes itself until the job is preserved and links to the evidence's
 * certificate; a capture of a private address fails there with the SSRF reason; a URL that is not http(s) is refused
 * by the form with the contract's message.
 */
import http from 'node:http';
import { expect, test } from '../support/e2e-fixtures.ts';
import { DEMO } from '../support/e2e.ts';
import { captureSitePort } from '../support/e2e-capture.ts';
import { CaptureMsg } from '../../contract/capture.ts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

let site: http.Server | null = null;

// Playwright reads the fixtures a hook wants from its first parameter: this one wants none
// eslint-disable-next-line no-empty-pattern
test.beforeAll(async ({}, info) => {
  const port = captureSitePort(Number(new URL(String(info.project.use.baseURL)).port));
  site = http.createServer((req, res) => {
    if (req.url === '/pic.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    if (req.url === '/old') return res.writeHead(302, { location: '/' }).end();
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><title>取证测试站</title><h1>取证测试站</h1><img src="/pic.png" alt="">');
  });
  await new Promise<void>((resolve) => site!.listen(port, '127.0.0.1', resolve));
});
test.afterAll(async () => {
  await new Promise((resolve) => site?.close(resolve));
});

test('a web capture is queued, preserved and linked to its certificate; a private address fails', async ({
  page,
  loginAs,
}, info) => {
  test.setTimeout(120_000);
  const port = captureSitePort(Number(new URL(String(info.project.use.baseURL)).port));
  await loginAs(DEMO, '/newWeb');

  // not http(s): refused by the form
  await page.getByLabel('网址').fill('ftp://example.com/file');
  await page.getByRole('button', { name: '开始取证' }).click();
  await expect(page.getByText(CaptureMsg.urlScheme).first()).toBeVisible();

  await page.getByLabel('网址').fill(`http://127.0.0.1:${port}/\nhttp://127.0.0.1:${port}/old`);
  await page.getByLabel('证据名称').fill(`网页取证-${info.project.name}`);
  await page.getByRole('button', { name: '开始取证' }).click();
  await expect(page).toHaveURL(/\/evidences-all\/web\?job=\d+$/);
  const row = page.getByTestId('capture-row').filter({ hasText: `网页取证-${info.project.name}` });
  // the page refreshes itself (meta refresh) until the job settles
  await expect(row).toHaveAttribute('data-status', 'done', { timeout: 90_000 });
  await expect(row).toContainText('已保全');
  await row.getByRole('link', { name: /查看证书/ }).click();
  await expect(page.getByText(`网页取证-${info.project.name}`).first()).toBeVisible();

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
