/**
 * Issue 2 "Done when", the main flow, run by both projects (JavaScript on and off): register a new account, log out,
 * log in as the demo account, preserve a 5 MB file, read its certificate, find it in the list, then as a visitor
 * download it with the extraction code and compare bytes.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import {
  DEMO,
  apiLogin,
  captchaAnswer,
  latestSmsCode,
  loginViaForm,
  logoutViaMenu,
  makeFile,
  zipEntries,
  uniqueMobile,
} from './support.ts';

test('register, log out, log in, preserve a 5 MB file, find it, download it with the extraction code', async ({
  page,
  request,
}, testInfo) => {
  // Register a new account.
  const mobile = uniqueMobile();
  const password = 'abc12345';
  await page.goto('/register');
  await page.getByLabel('手机号').fill(mobile);
  const imgKey = await page.locator('input[name="imgKey"]').inputValue();
  await page.getByLabel('图形验证码').fill(await captchaAnswer(request, imgKey));
  await page.getByRole('button', { name: '获取验证码' }).click();
  await expect(page.getByRole('status').filter({ hasText: '验证码已发送' })).toBeVisible();
  await expect(page.getByLabel('手机号')).toHaveValue(mobile);
  await page.getByLabel('短信验证码').fill(latestSmsCode(mobile));
  await page.getByLabel('密码', { exact: true }).fill(password);
  await page.getByLabel('确认密码').fill(password);
  await page.getByRole('button', { name: '注册', exact: true }).click();
  await expect(page).toHaveURL(/:\d+\/login\?notice=registered/);
  await expect(page.getByText('注册成功，请登录')).toBeVisible();

  // Log in as the new account, then log out.
  await loginViaForm(page, mobile, password);
  await expect(page).toHaveURL(/:\d+\/attestation-list\/file/);
  await expect(page.locator('.account-menu summary')).toContainText(mobile.slice(7));
  await logoutViaMenu(page);

  // Log in as the demo account and preserve a 5 MB file.
  await page.goto('/login');
  await loginViaForm(page, DEMO.mobile, DEMO.password);
  await expect(page).toHaveURL(/:\d+\/attestation-list\/file/);
  const title = `合同扫描件-${testInfo.project.name}-${Date.now()}`;
  const { file, sha256 } = makeFile(`evidence-${testInfo.project.name}.bin`, 5 * 1024 * 1024);
  await page.goto('/newAccessCard');
  await page.getByLabel('证据名称').fill(title);
  await page.getByLabel('标签').fill('合同');
  await page.getByLabel('选择文件').setInputFiles(file);
  await page.getByRole('button', { name: '提交保全' }).click();

  // Land on the certificate: the SHA-256 equals Node's own, the chain hash is 64 hex characters.
  await expect(page).toHaveURL(/:\d+\/attestation\/BQ[0-9A-Z]+$/, { timeout: 30_000 });
  const baoquan = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  await expect(page.getByTestId('filehash')).toHaveText(sha256);
  await expect(page.getByTestId('chainhash')).toHaveText(/^[0-9a-f]{64}$/);
  await expect(page.getByRole('heading', { name: '电子数据保全证书' })).toBeVisible();
  await expect(page.getByRole('button', { name: '下载证据' })).toBeVisible();

  // Find it in the list by keyword.
  await page.goto('/attestation-list/file');
  await page.getByLabel('关键词').fill(title);
  await page.getByRole('button', { name: '查询' }).click();
  await expect(page).toHaveURL(/keyword=/);
  const row = page.locator('tbody tr').filter({ hasText: title });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(baoquan);
  await expect(row).toContainText('合同');

  // As a visitor: no download button; the extraction code downloads the original bytes.
  await logoutViaMenu(page);
  await page.goto(`/attestation/${baoquan}`);
  await expect(page.getByTestId('filehash')).toHaveText(sha256);
  await expect(page.getByRole('button', { name: '下载证据' })).toHaveCount(0);
  await page.getByLabel('提取码').fill('wrong-code');
  await page.getByRole('button', { name: '提取下载' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '提取码错误' })).toBeVisible();
  const { userInfo } = await apiLogin(request, DEMO.mobile, DEMO.password);
  await page.getByLabel('提取码').fill(userInfo.extractCode);
  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: '提取下载' }).click();
  const download = await downloadPromise;
  // The download is the evidence package (issue 3): the original inside evidence/, plus certificate and proof.
  const saved = testInfo.outputPath('package.zip');
  await download.saveAs(saved);
  const entries = await zipEntries(saved);
  const original = [...entries].find(([name]) => name.startsWith('evidence/'));
  expect(original?.[1].sha256).toBe(sha256);
  expect(original?.[1].size).toBe(readFileSync(file).length);
  expect(entries.has('proof.json')).toBe(true);
});
