/**
 * The route guard (spec 02 "Route guard"; spec 01 §6, §8: redirect to login and back through the login form; an
 * expired upstream token does the same with the spec's message), the spec 02 §5 messages shown in the page, the 404
 * page. Both projects (JS on and off).
 */
import { expect, test } from '../support/e2e-fixtures.ts';
import { DEMO, loginViaForm } from '../support/e2e.ts';

test('a login-required path redirects to /login?redirect=… and returns there after login', async ({
  page,
}) => {
  await page.goto('/attestation-list/file?keyword=%E5%90%88%E5%90%8C');
  await expect(page).toHaveURL(/:\d+\/login\?redirect=%2Fattestation-list%2Ffile%3Fkeyword%3D/);
  await loginViaForm(page, DEMO.mobile, DEMO.password);
  await expect(page).toHaveURL(/:\d+\/attestation-list\/file\?keyword=%E5%90%88%E5%90%8C$/);
  await expect(page.getByLabel('关键词')).toHaveValue('合同');
});

test('a link followed in the page (a data request with JavaScript) to a login-required path returns to that path', async ({
  page,
}) => {
  await page.goto('/');
  await page.locator('.topbar').getByRole('link', { name: '数据保全' }).click();
  await expect(page).toHaveURL(/:\d+\/login\?redirect=%2Fattestation-list$/);
  await loginViaForm(page, DEMO.mobile, DEMO.password);
  await expect(page).toHaveURL(/:\d+\/attestation-list\/file$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('an expired upstream token sends the user to login with the spec message, then back', async ({
  page,
  request,
  loginAs,
}) => {
  await loginAs(DEMO, '/newAccessCard');
  await expect(page).toHaveURL(/:\d+\/newAccessCard$/);
  const res = await request.post('/api/__test/expireTokens', { form: { mobile: DEMO.mobile } });
  expect(((await res.json()) as { code: number }).code).toBe(200);
  await page.goto('/attestation-list/file');
  await expect(page).toHaveURL(/:\d+\/login\?redirect=%2Fattestation-list%2Ffile&expired=1/);
  await expect(page.getByRole('alert').filter({ hasText: '长时间未操作，请重新登录' })).toBeVisible();
  await loginViaForm(page, DEMO.mobile, DEMO.password);
  await expect(page).toHaveURL(/:\d+\/attestation-list\/file$/);
});

test('the register form answers each validation rule with the spec message in the page', async ({ page }) => {
  await page.goto('/register');
  await page.getByLabel('手机号').fill('12345');
  await page.getByLabel('图形验证码').fill('ab');
  await page.getByRole('button', { name: '获取验证码' }).click();
  await expect(page.getByText('请输入正确的手机号')).toBeVisible();
  await expect(page.getByText('图形验证码不正确')).toBeVisible();

  await page.getByLabel('手机号').fill('13912345678');
  await page.getByLabel('短信验证码').fill('12ab');
  await page.getByLabel('密码', { exact: true }).fill('abcdefg');
  await page.getByLabel('确认密码').fill('abcdefg');
  await page.getByRole('button', { name: '注册', exact: true }).click();
  await expect(page.getByText('短信验证码错误，请重新输入')).toBeVisible();
  await expect(page.getByText('请输入6-18位字母和数字组合的密码')).toBeVisible();

  await page.getByLabel('手机号').fill('');
  await page.getByRole('button', { name: '注册', exact: true }).click();
  await expect(page.getByText('手机号不能为空')).toBeVisible();
});

test('the login form shows required and wrong-credential messages', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page.getByText('手机号不能为空')).toBeVisible();
  await expect(page.getByText('密码不能为空')).toBeVisible();
  await loginViaForm(page, DEMO.mobile, 'wrong1234');
  await expect(page.getByRole('alert').filter({ hasText: '手机号或密码错误' })).toBeVisible();
});

test('the upload form refuses forbidden special characters in the title', async ({ page, loginAs }) => {
  await loginAs(DEMO, '/newAccessCard');
  await page.getByLabel('证据名称').fill('合同<script>');
  await page
    .getByLabel('选择文件')
    .setInputFiles({ name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await page.getByRole('button', { name: '提交保全' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '证据名称不能包含特殊字符' })).toBeVisible();
});

test('unknown paths show the 404 page with a way home', async ({ page }) => {
  const res = await page.goto('/no-such-page');
  expect(res?.status()).toBe(404);
  await expect(page.getByText('抱歉，您访问的页面不存在!')).toBeVisible();
  await page.getByRole('link', { name: '返回首页' }).click();
  await expect(page).toHaveURL(/:\d+\/$/);
});
