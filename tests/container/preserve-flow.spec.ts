/**
 * The preserve flow, JavaScript off: log in with the demo account through the form, preserve a file, land on its
 * certificate, download the certificate PDF and read back its number, the file's SHA-256 and the Chinese title (set
 * in the embedded Noto Sans SC) with poppler. Run against the container image (scripts/test-container.sh, decision
 * 041: the SQLite container and the PostgreSQL one) and, by the e2e suite's `base-path` projects, against the app
 * under BASE_PATH=/cunzheng/ behind a reverse proxy (decision 047): paths are relative to `baseURL`, which may carry
 * a prefix, and every page the flow lands on must stay under it.
 */
import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { demoPassword, testSetting } from '../support/environment.ts';

const DEMO = { mobile: '13800138000', password: demoPassword() };

/** `^<root><path>` as a pattern; `root` is the baseURL's folder, e.g. `http://127.0.0.1:3103/cunzheng/`. */
function under(root: string, path: string): RegExp {
  return new RegExp(`^${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}${path}`);
}

test('log in, preserve a file, open its certificate and download its PDF', async ({
  page,
  baseURL,
}, info) => {
  const root = new URL('./', baseURL ?? 'http://localhost/').href;
  const health = await page.request.get('healthz');
  expect(health.ok()).toBe(true);
  // every request of the flow (pages, forms, redirects, styles, fonts, scripts, the PDF) stays under baseURL
  const strays: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).origin === new URL(root).origin && !r.url().startsWith(root)) strays.push(r.url());
  });

  await page.goto('login');
  await page.getByLabel('手机号').fill(DEMO.mobile);
  await page.getByLabel('密码', { exact: true }).fill(DEMO.password);
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page).toHaveURL(under(root, 'attestation-list/file'));

  const bytes = Buffer.concat([Buffer.from('container smoke test\n'), randomBytes(200_000)]);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const file = info.outputPath('evidence.bin');
  writeFileSync(file, bytes);
  const title = `容器冒烟测试-${testSetting('CONTAINER_LABEL') ?? 'image'}-${Date.now()}`;
  await page.goto('newAccessCard');
  await page.getByLabel('证据名称').fill(title);
  await page.getByLabel('选择文件').setInputFiles(file);
  await page.getByRole('button', { name: '提交保全' }).click();

  await expect(page).toHaveURL(under(root, 'attestation/BQ[0-9A-Z]+$'), { timeout: 30_000 });
  const baoquan = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  await expect(page.getByRole('heading', { name: '电子数据保全证书' })).toBeVisible();
  await expect(page.getByTestId('filehash')).toHaveText(sha256);

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: '下载PDF' }).click();
  const pdf = info.outputPath('certificate.pdf');
  await (await download).saveAs(pdf);
  const text = execFileSync('pdftotext', ['-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8' });
  const flat = text.replace(/\s+/g, '');
  expect(flat).toContain(baoquan);
  expect(flat).toContain(sha256);
  expect(flat).toContain(title);
  expect(flat).toContain('电子数据保全证书');
  const fonts = execFileSync('pdffonts', [pdf], { encoding: 'utf8' });
  const cjk = fonts.split('\n').filter((l) => /NotoSansSC/i.test(l));
  expect(cjk.length).toBeGreaterThan(0);
  expect(cjk.every((l) => /\byes\b/.test(l))).toBe(true);
  expect(strays).toEqual([]);
  process.stdout.write(`[container] ${testSetting('CONTAINER_LABEL') ?? ''}: ${baoquan} ${sha256}\n`);
});
