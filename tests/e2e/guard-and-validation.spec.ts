/**
 * The route guard (spec 02 "Route guard"; spec 01 §6, §8: redirect to login and back through the login form; an
 * expired upstream token does the same with the spec's message), the spec 02 §5 messages shown in the page, the 404
 * page. Both projects (JS on and off).
 */
import { expect, test } from '../support/e2e-fixtures.ts';
import { DEMO, loginViaForm, getText } from '../support/e2e.ts';

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
  await expect(getText(page, '请输入正确的手机号')).toBeVisible();
  await expect(getText(page, '图形验证码不正确')).toBeVisible();

  await page.getByLabel('手机号').fill('13912345678');
  await page.getByLabel('短信验证码').fill('12ab');
  await page.getByLabel('密码', { exact: true }).fill('abcdefg');
  await page.getByLabel('确认密码').fill('abcdefg');
  await page.getByRole('button', { name: '注册', exact: true }).click();
  await expect(getText(page, '短信验证码错误，请重新输入')).toBeVisible();
  await expect(getText(page, '请输入6-18位字母和数字组合的密码')).toBeVisible();

  await page.getByLabel('手机号').fill('');
  await page.getByRole('button', { name: '注册', exact: true }).click();
  await expect(getText(page, '手机号不能为空')).toBeVisible();
});

test('the login form shows required and wrong-credential messages', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(getText(page, '手机号不能为空')).toBeVisible();
  await expect(getText(page, '密码不能为空')).toBeVisible();
  await loginViaForm(page, DEMO.mobile, 'wrong1234');
  await expect(page.getByRole('alert').filter({ hasText: '手机号或密码错误' })).toBeVisible();
});

test('after a round trip with errors an error summary leads the form, has focus, links to each marked field', async ({
  page,
}, info) => {
  await page.goto('/login');
  if (info.project.name === 'js-on') {
    // With JavaScript, the client validates first: the summary is for what only the server can refuse.
    await page.getByLabel('手机号').fill(DEMO.mobile);
    await page.getByLabel('密码').fill('wrong1234');
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: '手机号或密码错误' })).toBeVisible();
    await expect(page.getByTestId('error-summary')).toHaveCount(0);
    return;
  }
  await page.getByRole('button', { name: '登录', exact: true }).click();
  const summary = page.getByTestId('error-summary');
  await expect(summary).toBeVisible();
  await expect(summary.getByRole('heading')).toHaveText('请修改以下 2 处错误');
  await expect(summary).toBeFocused();
  const mobile = page.getByRole('textbox', { name: '手机号' });
  const mobileId = await mobile.getAttribute('id');
  await expect(summary.getByRole('link', { name: '手机号不能为空' })).toHaveAttribute('href', `#${mobileId}`);
  await expect(summary.getByRole('link', { name: '密码不能为空' })).toBeVisible();
  await expect(mobile).toHaveAttribute('aria-invalid', 'true');
  await summary.getByRole('link', { name: '手机号不能为空' }).click();
  await expect(mobile).toBeFocused();
  await expect(page.locator('.field-invalid')).toHaveCount(2);
  // the summary comes first in the form, before the fields
  const first = await page.locator('form:has([data-testid="error-summary"]) > :not(input)').first();
  await expect(first).toHaveAttribute('data-testid', 'error-summary');
});

test('with JavaScript the submit button is busy until the answer arrives, and a second submit meanwhile sends nothing', async ({
  page,
}, info) => {
  test.skip(info.project.name !== 'js-on', 'the busy state is a JavaScript enhancement');
  await page.goto('/login');
  await expect(page.locator('html')).toHaveAttribute('data-enhanced', '');
  let posts = 0;
  await page.route('**/login.data*', async (route) => {
    if (route.request().method() === 'POST') {
      posts += 1;
      await new Promise((r) => setTimeout(r, 1500));
    }
    await route.continue();
  });
  await page.getByLabel('手机号').fill(DEMO.mobile);
  await page.getByLabel('密码').fill('wrong1234');
  // Record every change of the button's aria-busy, and submit again as soon as it turns busy.
  await page.evaluate(() => {
    const button = document.querySelector<HTMLButtonElement>('form button.primary')!;
    const seen: (string | null)[] = [];
    (window as unknown as { busySeen: (string | null)[] }).busySeen = seen;
    new MutationObserver(() => {
      seen.push(button.getAttribute('aria-busy'));
      if (button.getAttribute('aria-busy') === 'true') button.form!.requestSubmit(button);
    }).observe(button, { attributes: true, attributeFilter: ['aria-busy'] });
    button.click();
  });
  await expect(page.getByRole('alert').filter({ hasText: '手机号或密码错误' })).toBeVisible();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { busySeen: (string | null)[] }).busySeen))
    .toEqual(['true', null]);
  await expect(page.getByRole('button', { name: '登录', exact: true })).not.toHaveAttribute('aria-busy');
  expect(posts).toBe(1);
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
  await expect(getText(page, '抱歉，您访问的页面不存在!')).toBeVisible();
  await page.getByRole('link', { name: '返回首页' }).click();
  await expect(page).toHaveURL(/:\d+\/$/);
});

test('a data request refused by the rate limit (JavaScript on) shows 操作过于频繁，请稍后再试', async ({
  page,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, 'without JavaScript the gateway answers the form post with its own 429 page');
  await page.goto('/login');
  // the gateway's answer to a limited request (server/http/rate-limit.ts): 429, its short HTML page, no React Router header
  await page.route('**/login.data*', (route) =>
    route.fulfill({
      status: 429,
      headers: { 'content-type': 'text/html; charset=utf-8', 'retry-after': '60' },
      body: '<!doctype html><html lang="zh-CN"><body><h1>操作过于频繁，请稍后再试</h1></body></html>',
    }),
  );
  await loginViaForm(page, DEMO.mobile, DEMO.password);
  await expect(page.getByRole('heading', { level: 1, name: '操作过于频繁，请稍后再试' })).toBeVisible();
  await expect(page.getByRole('link', { name: '重试' })).toHaveAttribute('href', '/login');
});
