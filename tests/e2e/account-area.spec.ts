/**
 * Issue 4 "Done when", JS on and off: settings (password, extraction code), notifications with the badge, signature
 * seals and delivery addresses, with every validation message named in the issue shown in the page.
 */
import { expect, test } from '@playwright/test';
import { freshUser, loginViaForm, makeFile, preserveFile, TINY_PNG } from './support.ts';

test('change password: the spec messages, then success ends the session and lands on /login', async ({
  page,
  request,
}) => {
  const user = await freshUser(page, request, '/setting');
  await page.getByRole('button', { name: '修改密码' }).click();
  await expect(page.getByText('原密码不能为空')).toBeVisible();
  await page.getByLabel('原密码').fill(user.password);
  await page.getByLabel('新密码', { exact: true }).fill(user.password);
  await page.getByLabel('确认新密码').fill('other1234');
  await page.getByRole('button', { name: '修改密码' }).click();
  await expect(page.getByText('两次新密码不一致')).toBeVisible();
  await expect(page.getByText('新密码不能与旧密码相同')).toBeVisible();
  await page.getByLabel('原密码').fill(user.password);
  await page.getByLabel('新密码', { exact: true }).fill('short');
  await page.getByLabel('确认新密码').fill('short');
  await page.getByRole('button', { name: '修改密码' }).click();
  await expect(page.getByText('请输入6-18位字母和数字组合的密码')).toBeVisible();
  await page.getByLabel('原密码').fill(user.password);
  await page.getByLabel('新密码', { exact: true }).fill('newpass123');
  await page.getByLabel('确认新密码').fill('newpass123');
  await page.getByRole('button', { name: '修改密码' }).click();
  await expect(page).toHaveURL(/:\d+\/login\?notice=passwordChanged/);
  await expect(page.getByText('修改密码成功，请重新登录')).toBeVisible();
  await page.goto('/setting');
  await expect(page).toHaveURL(/:\d+\/login\?redirect=%2Fsetting/);
  await loginViaForm(page, user.mobile, 'newpass123');
  await expect(page).toHaveURL(/:\d+\/setting$/);
});

test('extraction code: shown, validated, changed; copy with JavaScript', async ({
  page,
  request,
  context,
}, info) => {
  await freshUser(page, request, '/setting?tab=extractCode');
  const before = (await page.getByTestId('extract-code').textContent())!.trim();
  expect(before.length).toBeGreaterThan(0);
  if (info.project.name === 'js-on') {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: '复制' }).click();
    await expect(page.getByRole('status').filter({ hasText: '复制成功' })).toBeVisible();
  }
  await page.getByLabel('新提取码').fill('');
  await page.getByRole('button', { name: '保存提取码' }).click();
  await expect(page.getByText('提取码不能为空')).toBeVisible();
  await page.getByLabel('新提取码').fill('abc<def>');
  await page.getByRole('button', { name: '保存提取码' }).click();
  await expect(page.getByText('提取码不能包含特殊字符')).toBeVisible();
  await page.getByLabel('新提取码').fill('x'.repeat(31));
  await page.getByRole('button', { name: '保存提取码' }).click();
  await expect(page.getByText('提取码不能超过30个字符')).toBeVisible();
  await page.getByLabel('新提取码').fill('my-new-code-2026');
  await page.getByRole('button', { name: '保存提取码' }).click();
  await expect(page.getByTestId('extract-code')).toHaveText('my-new-code-2026');
  await expect(page.getByRole('status').filter({ hasText: '修改成功' })).toBeVisible();
});

test('notifications: saving evidence notifies, opening marks read and the badge drops, delete and mark all', async ({
  page,
  request,
}, info) => {
  await freshUser(page, request, '/attestation-list/file');
  for (const i of [1, 2, 3]) {
    await preserveFile(
      page,
      `通知-${info.project.name}-${i}`,
      makeFile(`news-${info.project.name}-${i}.bin`, 500 + i).file,
    );
  }
  await page.goto('/notifications');
  const badge = page.locator('.topbar .badge');
  await expect(badge).toHaveText('3');
  const rows = page.getByTestId('news-row');
  await expect(rows).toHaveCount(3);
  await expect(page.locator('tr.unread')).toHaveCount(3);
  await page.locator('tr.unread').first().getByRole('button').click();
  await expect(page.locator('tr.unread')).toHaveCount(2);
  await expect(badge).toHaveText('2');
  await rows.nth(2).getByRole('checkbox').check();
  await page.getByRole('button', { name: '删除所选' }).click();
  await expect(page.getByTestId('news-row')).toHaveCount(2);
  await page.getByRole('button', { name: '全部标记已读' }).click();
  await expect(page.locator('tr.unread')).toHaveCount(0);
  await expect(badge).toHaveCount(0);
});

test('signature seals: messages, upload, set default, delete', async ({ page, request }) => {
  await freshUser(page, request, '/signature');
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

test('addresses: messages, region picker, at most 5, edit and delete', async ({ page, request }, info) => {
  await freshUser(page, request, '/address');
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
