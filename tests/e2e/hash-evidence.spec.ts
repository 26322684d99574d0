/**
 * Hash evidence (spec 01 §2.3; decision 008), JS on and off: the file is hashed in the browser with JavaScript, or
 * its SHA-256 pasted without; the certificate carries the hash and says only the hash was kept; the hash list filters
 * by file type.
 */
import { expect, test } from '../support/e2e-fixtures.ts';
import { DEMO, makeFile } from '../support/e2e.ts';

test('hash evidence: the certificate carries the file SHA-256 and says only the hash was kept', async ({
  page,
  loginAs,
}, info) => {
  await loginAs(DEMO, '/newAccessHashCard');
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
  const row = page.locator('tbody tr').filter({ hasText: title });
  await expect(row).toHaveCount(1);
  // the list filters by file type (spec 01 §2.4): a .bin name is 其他 (5), not 图片 (2)
  await page.getByLabel('文件类型').selectOption('5');
  await page.getByRole('button', { name: '查询' }).click();
  await expect(page).toHaveURL(/\/attestation-list\/hash\?.*type=5/);
  await expect(row).toHaveCount(1);
  await page.getByLabel('文件类型').selectOption('2');
  await page.getByRole('button', { name: '查询' }).click();
  await expect(page).toHaveURL(/type=2/);
  await expect(row).toHaveCount(0);
  await expect(page.getByLabel('文件类型')).toHaveValue('2');
});
