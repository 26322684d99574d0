/**
 * Delivery addresses (spec 02 "Addresses" §2, §5; decision 009), JS on and off: the messages, the region picker (a
 * server step per level without JavaScript, cascading selects with it), at most 5, edit and delete.
 */
import { expect, test } from '../support/e2e-fixtures.ts';

test('addresses: messages, region picker, at most 5, edit and delete', async ({ page, freshUser }, info) => {
  await freshUser('/address');
  await page.getByRole('button', { name: '保存地址' }).click();
  await expect(page.getByText('收件人不能为空')).toBeVisible();
  await expect(page.getByText('请选择所在地区')).toBeVisible();
  await expect(page.getByText('详细地址不能为空')).toBeVisible();

  async function pickRegion(province: string, city: string, area: string) {
    await page.getByLabel('省份').selectOption(province);
    if (info.project.name === 'js-off') await page.getByRole('button', { name: '下一步' }).click();
    await page.getByLabel('城市').selectOption(city);
    if (info.project.name === 'js-off') await page.getByRole('button', { name: '下一步' }).click();
    await page.getByLabel('区县').selectOption(area);
  }

  await page.getByLabel('收件人').fill('张三');
  await pickRegion('浙江省', '杭州市', '西湖区');
  await page.getByLabel('详细地址').fill('文三路 100 号');
  await page.getByLabel('手机号').fill('123');
  await page.getByLabel('邮箱').fill('not-an-email');
  await page.getByRole('button', { name: '保存地址' }).click();
  await expect(page.getByText('请输入正确的手机号')).toBeVisible();
  await expect(page.getByText('请输入正确的邮箱')).toBeVisible();
  await expect(page.getByLabel('区县')).toHaveValue('西湖区');
  await page.getByLabel('手机号').fill('13912345678');
  await page.getByLabel('邮箱').fill('zhangsan@example.com');
  await page.getByRole('button', { name: '保存地址' }).click();
  await expect(page.getByRole('status').filter({ hasText: '添加成功' })).toBeVisible();
  await expect(page.getByTestId('address-row')).toHaveCount(1);
  await expect(page.getByTestId('address-row')).toContainText('浙江省 杭州市 西湖区');

  for (const i of [2, 3, 4, 5, 6]) {
    await page.getByLabel('收件人').fill(`收件人${i}`);
    await pickRegion('北京市', '北京市', '朝阳区');
    await page.getByLabel('详细地址').fill(`建国路 ${i} 号`);
    await page.getByLabel('手机号').fill('13912345678');
    await page.getByLabel('邮箱').fill(`u${i}@example.com`);
    await page.getByRole('button', { name: '保存地址' }).click();
    if (i < 6) await expect(page.getByTestId('address-row')).toHaveCount(i);
  }
  await expect(page.getByRole('alert').filter({ hasText: '最多保存5个地址' })).toBeVisible();
  await expect(page.getByTestId('address-row')).toHaveCount(5);

  await page
    .getByTestId('address-row')
    .filter({ hasText: '张三' })
    .getByRole('link', { name: '编辑' })
    .click();
  await expect(page.getByLabel('收件人')).toHaveValue('张三');
  await page.getByLabel('详细地址').fill('文三路 200 号');
  await page.getByLabel('设为默认地址').check();
  await page.getByRole('button', { name: '保存地址' }).click();
  await expect(page.getByRole('status').filter({ hasText: '修改成功' })).toBeVisible();
  const zhang = page.getByTestId('address-row').filter({ hasText: '张三' });
  await expect(zhang).toContainText('文三路 200 号');
  await expect(zhang).toContainText('默认');
  await zhang.locator('summary', { hasText: '删除' }).click();
  await zhang.getByRole('button', { name: '确认删除' }).click();
  await expect(page.getByTestId('address-row')).toHaveCount(4);
});

test('Enter in a field saves the address (the main action), not the region step', async ({
  page,
  freshUser,
}) => {
  await freshUser('/address');
  await page.getByLabel('收件人').fill('李四');
  await page.getByLabel('详细地址').press('Enter');
  // The save ran: its validation answers, and the name typed is still there.
  await expect(page.getByText('请选择所在地区')).toBeVisible();
  await expect(page.getByText('详细地址不能为空')).toBeVisible();
  await expect(page.getByLabel('收件人')).toHaveValue('李四');
});

test('the address page carries no region tree: at most 30 KB of HTML, areas only once their city is chosen', async ({
  page,
  freshUser,
}) => {
  await freshUser('/address');
  const html = await (await page.request.get('/address')).text();
  expect(Buffer.byteLength(html)).toBeLessThanOrEqual(30 * 1024);
  expect(html).toContain('浙江省');
  expect(html).not.toContain('西湖区');
});
