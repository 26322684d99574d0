/**
 * Evidence (spec 01 §2.2–§2.4), JS on and off. The main flow: register a new account, log in through the form, log
 * out; as the demo account preserve a 5 MB file, read its certificate, find it in the list, then as a visitor
 * download it with the extraction code and compare bytes. And the batch download: 3 selected evidences yield a ZIP
 * whose files' hashes match.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '../support/e2e-fixtures.ts';
import {
  DEMO,
  apiLogin,
  captchaAnswer,
  latestSmsCode,
  loginViaForm,
  logoutViaMenu,
  makeFile,
  preserveFile,
  zipEntries,
  uniqueMobile,
} from '../support/e2e.ts';

test('register, log out, log in, preserve a 5 MB file, find it, download it with the extraction code', async ({
  page,
  request,
  loginAs,
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

  // Log in as the demo account (by its session cookie: the form was driven above) and preserve a 5 MB file.
  await loginAs(DEMO, '/attestation-list/file');
  await expect(page).toHaveURL(/:\d+\/attestation-list\/file/);
  const title = `合同扫描件-${testInfo.project.name}-${Date.now()}`;
  const { file, sha256 } = makeFile(`evidence-${testInfo.project.name}.bin`, 5 * 1024 * 1024);
  await page.getByRole('link', { name: '新建文件保全' }).click();
  await expect(page).toHaveURL(/:\d+\/newAccessCard$/);
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
  // The download is the evidence package (spec 01 §2.3; decision 007): the original inside evidence/, plus certificate and proof.
  const saved = testInfo.outputPath('package.zip');
  await download.saveAs(saved);
  const entries = await zipEntries(saved);
  const original = [...entries].find(([name]) => name.startsWith('evidence/'));
  expect(original?.[1].sha256).toBe(sha256);
  expect(original?.[1].size).toBe(readFileSync(file).length);
  expect(entries.has('proof.json')).toBe(true);
});

test('batch download of 3 selected evidences yields a ZIP whose files match', async ({
  page,
  loginAs,
}, info) => {
  await loginAs(DEMO, '/newAccessCard');
  const files = [0, 1, 2].map((i) => makeFile(`batch-${info.project.name}-${i}.bin`, 50_000 + i));
  const stamp = Date.now();
  const numbers: string[] = [];
  for (const [i, f] of files.entries()) numbers.push(await preserveFile(page, `批量-${stamp}-${i}`, f.file));

  await page.goto(`/attestation-list/download?keyword=${encodeURIComponent(`批量-${stamp}`)}`);
  await page.getByRole('button', { name: '下载所选证据' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '请选择需要下载的证据' })).toBeVisible();
  for (const n of numbers) {
    await page.locator('tbody tr').filter({ hasText: n }).getByRole('checkbox').check();
  }
  const download = page.waitForEvent('download', { timeout: 30_000 });
  await page.getByRole('button', { name: '下载所选证据' }).click();
  await expect(page.getByTestId('batch-countdown')).toContainText('已打包 3 个证据');
  // With JavaScript the countdown ends in words, not at "0 秒后自动开始".
  if (info.project.name === 'js-on') {
    await expect(page.getByTestId('batch-countdown')).toContainText('下载已开始', { timeout: 10_000 });
    await expect(page.getByTestId('batch-countdown')).not.toContainText('秒后自动开始');
  }
  const saved = info.outputPath('batch.zip');
  await (await download).saveAs(saved);
  const entries = await zipEntries(saved);
  for (const [i, n] of numbers.entries()) {
    const original = [...entries].find(([name]) => name.startsWith(`${n}/evidence/`));
    expect(original, `original of ${n}`).toBeDefined();
    expect(original![1].sha256).toBe(files[i]!.sha256);
    expect(entries.has(`${n}/certificate.pdf`)).toBe(true);
    const proof = JSON.parse(entries.get(`${n}/proof.json`)!.text!) as {
      baoquan: string;
      record: { sha256: string };
    };
    expect(proof.baoquan).toBe(n);
    expect(proof.record.sha256).toBe(files[i]!.sha256);
  }
  expect(readFileSync(saved).subarray(0, 2).toString()).toBe('PK');
});
