/**
 * Settings (spec 01 §2.5, §5), JS on and off: the password change with the spec's messages (success ends the session
 * and lands on /login, and the login form brings the user back), the extraction code shown, validated, changed and
 * copied with JavaScript.
 */
import { expect, test } from '../support/e2e-fixtures.ts';
import { loginViaForm, getText } from '../support/e2e.ts';

test('change password: the spec messages, then success ends the session and lands on /login', async ({
  page,
  freshUser,
}) => {
  const user = await freshUser('/setting');
  await page.getByRole('button', { name: '修改密码' }).click();
  await expect(getText(page, '原密码不能为空')).toBeVisible();
  await page.getByLabel('原密码').fill(user.password);
  await page.getByLabel('新密码', { exact: true }).fill(user.password);
  await page.getByLabel('确认新密码').fill('other1234');
  await page.getByRole('button', { name: '修改密码' }).click();
  await expect(getText(page, '两次新密码不一致')).toBeVisible();
  await expect(getText(page, '新密码不能与旧密码相同')).toBeVisible();
  await page.getByLabel('原密码').fill(user.password);
  await page.getByLabel('新密码', { exact: true }).fill('short');
  await page.getByLabel('确认新密码').fill('short');
  await page.getByRole('button', { name: '修改密码' }).click();
  await expect(getText(page, '请输入6-18位字母和数字组合的密码')).toBeVisible();
  await page.getByLabel('原密码').fill(user.password);
  await page.getByLabel('新密码', { exact: true }).fill('newpass123');
  await page.getByLabel('确认新密码').fill('newpass123');
  await page.getByRole('button', { name: '修改密码' }).click();
  await expect(page).toHaveURL(/:\d+\/login\?notice=passwordChanged/);
  await expect(getText(page, '修改密码成功')).toBeVisible();
  await page.goto('/setting');
  await expect(page).toHaveURL(/:\d+\/login\?redirect=%2Fsetting/);
  await loginViaForm(page, user.mobile, 'newpass123');
  await expect(page).toHaveURL(/:\d+\/setting$/);
});

test('extraction code: shown, validated, changed; copy with JavaScript', async ({
  page,
  context,
  freshUser,
}, info) => {
  await freshUser('/setting?tab=extractCode');
  const before = (await page.getByTestId('extract-code').textContent())!.trim();
  expect(before.length).toBeGreaterThan(0);
  if (info.project.name === 'js-on') {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: '复制' }).click();
    await expect(page.getByRole('status').filter({ hasText: '复制成功' })).toBeVisible();
  }
  await page.getByLabel('新提取码').fill('');
  await page.getByRole('button', { name: '保存提取码' }).click();
  await expect(getText(page, '提取码不能为空')).toBeVisible();
  await page.getByLabel('新提取码').fill('abc<def>');
  await page.getByRole('button', { name: '保存提取码' }).click();
  await expect(getText(page, '提取码不能包含特殊字符')).toBeVisible();
  await page.getByLabel('新提取码').fill('x'.repeat(31));
  await page.getByRole('button', { name: '保存提取码' }).click();
  await expect(getText(page, '提取码不能超过30个字符')).toBeVisible();
  await page.getByLabel('新提取码').fill('my-new-code-2026');
  await page.getByRole('button', { name: '保存提取码' }).click();
  await expect(page.getByTestId('extract-code')).toHaveText('my-new-code-2026');
  await expect(page.getByRole('status').filter({ hasText: '修改成功' })).toBeVisible();
});
