/**
 * Signature seals (spec 01 §2.7, §5), JS on and off: the upload's messages (name, image, PNG by its bytes), upload,
 * the image through its signed URL, set default and delete after a confirmation.
 */
import { expect, test } from '../support/e2e-fixtures.ts';
import { TINY_PNG } from '../support/e2e.ts';

test('signature seals: messages, upload, set default, delete', async ({ page, freshUser }) => {
  await freshUser('/signature');
  await page
    .getByLabel('签章图片（PNG，不超过10MB）')
    .setInputFiles({ name: 'a.png', mimeType: 'image/png', buffer: TINY_PNG });
  await page.getByRole('button', { name: '上传签章' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '签章名称不能为空' })).toBeVisible();
  await page.getByLabel('签章名称').fill('公司公章');
  // without JavaScript the page came back with an empty file input; with it, the user removes the chosen file
  await page.getByLabel('签章图片（PNG，不超过10MB）').setInputFiles([]);
  await page.getByRole('button', { name: '上传签章' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '请上传签章图片' })).toBeVisible();
  const jpeg = Buffer.from([
    0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0,
  ]);
  await page.getByLabel('签章名称').fill('公司公章');
  await page
    .getByLabel('签章图片（PNG，不超过10MB）')
    .setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: jpeg });
  await page.getByRole('button', { name: '上传签章' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '上传签章图片只能是 png 格式!' })).toBeVisible();
  for (const name of ['公司公章', '合同专用章']) {
    await page.getByLabel('签章名称').fill(name);
    await page
      .getByLabel('签章图片（PNG，不超过10MB）')
      .setInputFiles({ name: 'seal.png', mimeType: 'image/png', buffer: TINY_PNG });
    await page.getByRole('button', { name: '上传签章' }).click();
    await expect(page.getByRole('status').filter({ hasText: '添加成功' })).toBeVisible();
  }
  const rows = page.getByTestId('seal-row');
  await expect(rows).toHaveCount(2);
  // the seal image comes through its signed URL via the gateway's /api proxy
  const src = await rows.first().locator('img').getAttribute('src');
  const img = await page.request.get(src!);
  expect(img.status()).toBe(200);
  expect(img.headers()['content-type']).toBe('image/png');
  expect((await page.request.get(src!.split('?')[0]!)).status()).toBe(403);
  const second = rows.filter({ hasText: '合同专用章' });
  await second.locator('summary', { hasText: '设为默认' }).click();
  await second.getByRole('button', { name: '确认' }).click();
  await expect(
    page.getByTestId('seal-row').filter({ hasText: '合同专用章' }).locator('.tag', { hasText: '默认' }),
  ).toBeVisible();
  await expect(
    page.getByTestId('seal-row').filter({ hasText: '公司公章' }).locator('.tag', { hasText: '默认' }),
  ).toHaveCount(0);
  const first = page.getByTestId('seal-row').filter({ hasText: '公司公章' });
  await first.locator('summary', { hasText: '删除' }).click();
  await first.getByRole('button', { name: '确认删除' }).click();
  await expect(page.getByTestId('seal-row')).toHaveCount(1);
});
