/**
 * Account flows beyond the main one, JS on and off: reset a forgotten password with an SMS code; the captcha
 * refresh keeps what was typed; the unsupported-browser notice for IE 6–9.
 */
import { expect, test } from '@playwright/test';
import {
  apiRegister,
  captchaAnswer,
  latestSmsCode,
  loginViaForm,
  uniqueMobile,
  getText,
} from '../support/e2e.ts';
import { Msg } from '../../contract/messages.ts';

test('a forgotten password is reset with an SMS code, and the new one logs in', async ({ page, request }) => {
  const mobile = uniqueMobile();
  await apiRegister(request, mobile, 'first123');
  await page.goto('/forgetpwd');
  await page.getByLabel('手机号').fill(mobile);
  // Registering sent a code a moment ago: one code a minute per mobile.
  const firstKey = await page.locator('input[name="imgKey"]').inputValue();
  await page.getByLabel('图形验证码').fill(await captchaAnswer(request, firstKey));
  await page.getByRole('button', { name: '获取验证码' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: '验证码发送过于频繁，请一分钟后再试' }),
  ).toBeVisible();
  await request.post('/api/__test/ageSms', { form: { mobile } });
  await expect(page.locator('input[name="imgKey"]')).not.toHaveValue(firstKey);
  const imgKey = await page.locator('input[name="imgKey"]').inputValue();
  await page.getByLabel('图形验证码').fill(await captchaAnswer(request, imgKey));
  await page.getByRole('button', { name: '获取验证码' }).click();
  await expect(page.getByRole('status').filter({ hasText: '验证码已发送' })).toBeVisible();
  await page.getByLabel('短信验证码').fill(latestSmsCode(mobile));
  await page.getByLabel('密码', { exact: true }).fill('second456');
  await page.getByLabel('确认密码').fill('second456');
  await page.getByRole('button', { name: '重置密码' }).click();
  await expect(page).toHaveURL(/:\d+\/login\?notice=reset/);
  await expect(getText(page, '密码重置成功，请登录')).toBeVisible();
  await loginViaForm(page, mobile, 'first123');
  await expect(page.getByRole('alert').filter({ hasText: '手机号或密码错误' })).toBeVisible();
  await loginViaForm(page, mobile, 'second456');
  await expect(page).toHaveURL(/:\d+\/attestation-list\/file$/);
});

test('an unregistered mobile cannot get a reset code, and a wrong captcha is refused', async ({
  page,
  request,
}) => {
  await page.goto('/forgetpwd');
  await page.getByLabel('手机号').fill(uniqueMobile());
  const imgKey = await page.locator('input[name="imgKey"]').inputValue();
  await page.getByLabel('图形验证码').fill(await captchaAnswer(request, imgKey));
  await page.getByRole('button', { name: '获取验证码' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '该手机号未注册' })).toBeVisible();
  // The captcha is single use: a new one is shown, and a wrong answer is refused with the spec message.
  await expect(page.locator('input[name="imgKey"]')).not.toHaveValue(imgKey);
  await page.getByLabel('图形验证码').fill('zzzz');
  await page.getByRole('button', { name: '获取验证码' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '图形验证码不正确' })).toBeVisible();
});

test('换一张 shows a new captcha and keeps the typed mobile', async ({ page }) => {
  await page.goto('/register');
  await page.getByLabel('手机号').fill('13912345678');
  const before = await page.locator('input[name="imgKey"]').inputValue();
  await page.getByRole('button', { name: '换一张' }).click();
  await expect(page.locator('input[name="imgKey"]')).not.toHaveValue(before);
  await expect(page.getByLabel('手机号')).toHaveValue('13912345678');
});

test('Enter in a password field runs the main action, not 换一张, on /register and /forgetpwd', async ({
  page,
}) => {
  for (const path of ['/register', '/forgetpwd']) {
    await page.goto(path);
    await page.getByLabel('手机号').fill('13912345678');
    await page.getByLabel('密码', { exact: true }).fill('abc12345');
    await page.getByLabel('确认密码').fill('abc12345');
    await page.getByLabel('确认密码').press('Enter');
    // The main action validated the form (the SMS code is missing); 换一张 validates nothing.
    await expect(getText(page, Msg.required('短信验证码')).first(), path).toBeVisible();
    await expect(page.getByLabel('手机号'), path).toHaveValue('13912345678');
  }
});

test.describe('Internet Explorer 8', () => {
  test.use({ userAgent: 'Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; Trident/4.0)' });
  test('sees the unsupported-browser notice with recommended browsers', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('alert').filter({ hasText: '浏览器版本过低' })).toContainText(
      'Google Chrome',
    );
  });
});
