/**
 * Issue 3 "Done when", JS on and off: each evidence kind is saved and its certificate shows the right fields; the
 * certificate PDF downloads with the number, the SHA-256 and the Chinese title in a embedded CJK font; a batch
 * download of 3 selected evidences yields a ZIP whose files' hashes match.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { loginAsDemo, makeFile, preserveFile, zipEntries } from './support.ts';

test('hash evidence: the certificate carries the file SHA-256 and says only the hash was kept', async ({
  page,
}, info) => {
  await loginAsDemo(page, '/newAccessHashCard');
  const { file, sha256 } = makeFile(`hash-${info.project.name}.bin`, 300_000);
  const title = `哈希保全-${info.project.name}-${Date.now()}`;
  if (info.project.name === 'js-on') {
    await page.getByLabel('选择本地文件（在浏览器内计算，不上传）').setInputFiles(file);
    await expect(page.getByLabel('文件SHA-256哈希值')).toHaveValue(sha256);
  } else {
    await page.getByLabel('文件SHA-256哈希值').fill(sha256.toUpperCase());
  }
  await page.getByLabel('证据名称').fill(title);
  await page.getByRole('button', { name: '提交保全' }).click();
  await expect(page).toHaveURL(/:\d+\/attestation\/BQ[0-9A-Z]+$/);
  await expect(page.getByTestId('filehash')).toHaveText(sha256);
  await expect(page.locator('.certificate-body')).toContainText(title);
  await expect(page.locator('.certificate-body')).toContainText('未接收原始文件');
  await page.goto('/attestation-list/hash');
  await expect(page.locator('tbody tr').filter({ hasText: title })).toHaveCount(1);
});

test('user-data evidence typed in the form: row count and field names with examples cut to 10 characters', async ({
  page,
}, info) => {
  await loginAsDemo(page, '/newProperty');
  const title = `订单数据-${info.project.name}-${Date.now()}`;
  await page.getByLabel('证据名称').first().fill(title);
  await page
    .getByLabel('数据')
    .fill('订单号,商品名称,金额\nA1001,"超长的商品名称一二三四五六七八",199.00\nA1002,短名,58.50');
  await page.getByRole('button', { name: '提交保全' }).click();
  await expect(page).toHaveURL(/:\d+\/attestation\/BQ[0-9A-Z]+$/);
  await expect(page.getByText('共 2 条数据')).toBeVisible();
  const fields = page.getByTestId('user-data-fields');
  await expect(fields).toContainText('订单号');
  await expect(fields).toContainText('超长的商品名称一二三');
  await expect(fields).not.toContainText('四');
});

test('user-data evidence uploaded as CSV', async ({ page }, info) => {
  await loginAsDemo(page, '/newProperty');
  const csv = Buffer.from('\ufeff姓名,电话\n张三,13800000000\n李四,13900000000\n王五,13700000000\n', 'utf8');
  await page
    .getByLabel('CSV 或 Excel（.xlsx）文件')
    .setInputFiles({ name: '名单.csv', mimeType: 'text/csv', buffer: csv });
  await page.locator('#f-title').fill(`名单-${info.project.name}`);
  await page.getByRole('button', { name: '上传并保全' }).click();
  await expect(page).toHaveURL(/:\d+\/attestation\/BQ[0-9A-Z]+$/);
  await expect(page.getByText('共 3 条数据')).toBeVisible();
  await expect(page.getByTestId('user-data-fields')).toContainText('电话');
});

test('the certificate PDF has the number, the SHA-256 and the Chinese title in an embedded CJK font', async ({
  page,
}, info) => {
  await loginAsDemo(page, '/newAccessCard');
  const { file, sha256 } = makeFile(`pdf-${info.project.name}.bin`, 10_000);
  const title = `租赁合同扫描件-${info.project.name}`;
  const baoquan = await preserveFile(page, title, file);
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: '下载PDF' }).click();
  const saved = info.outputPath('certificate.pdf');
  await (await download).saveAs(saved);
  const text = execFileSync('pdftotext', ['-enc', 'UTF-8', saved, '-'], { encoding: 'utf8' }).replace(
    /\s+/g,
    '',
  );
  expect(text).toContain(baoquan);
  expect(text).toContain(sha256);
  expect(text).toContain(title);
  const fonts = execFileSync('pdffonts', [saved], { encoding: 'utf8' });
  expect(fonts).toMatch(/NotoSansSC/i);
  expect(
    fonts
      .split('\n')
      .filter((l) => /NotoSansSC/i.test(l))
      .every((l) => /\byes\b/.test(l)),
  ).toBe(true);
});

test('batch download of 3 selected evidences yields a ZIP whose files match', async ({ page }, info) => {
  await loginAsDemo(page, '/newAccessCard');
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
