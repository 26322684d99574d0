/**
 * User-data evidence (spec 01 §2.3, §3 `userData`; decision 006), JS on and off: rows typed in the form, or a CSV
 * file; the certificate shows the row count and the field names with examples cut to 10 characters.
 */
import { expect, test } from '../support/e2e-fixtures.ts';
import { DEMO } from '../support/e2e.ts';

test('user-data evidence typed in the form: row count and field names with examples cut to 10 characters', async ({
  page,
  loginAs,
}, info) => {
  await loginAs(DEMO, '/newProperty');
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

test('user-data evidence uploaded as CSV', async ({ page, loginAs }, info) => {
  await loginAs(DEMO, '/newProperty');
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

test('the in-app link from the list opens /newProperty, which works with no page error', async ({
  page,
  loginAs,
}, info) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await loginAs(DEMO, '/attestation-list/property');
  // The copy (decision 030): 数据保全 names the area; the tabs name the kinds; the primary button names an action.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('数据保全');
  await expect(page.getByRole('navigation', { name: '保全类型' }).getByRole('link')).toHaveText([
    '文件保全',
    '哈希保全',
    '用户数据保全',
  ]);
  await page.getByRole('link', { name: '新建用户数据保全' }).click();
  await expect(page).toHaveURL(/:\d+\/newProperty$/);
  await page.getByLabel('证据名称').first().fill(`链接进入-${info.project.name}-${Date.now()}`);
  await page.getByLabel('数据').fill('编号,名称\n1,甲');
  await page.getByRole('button', { name: '提交保全' }).click();
  await expect(page).toHaveURL(/:\d+\/attestation\/BQ[0-9A-Z]+$/);
  await expect(page.getByText('共 1 条数据')).toBeVisible();
  expect(errors).toEqual([]);
});
