/**
 * The footer's links and the legal documents of spec 01 §2 (/user-agreement, /privacy, /clause; content ours,
 * decision 014), JS on and off: every footer link leads to a real page, each document shows its version and
 * effective date and the configured notary office, the register page and the KYC consent link to them.
 */
import { expect, test } from '../support/e2e-fixtures.ts';

const NOT_FOUND = '抱歉，您访问的页面不存在!';

test('every footer link leads to a page, not the 404', async ({ page }) => {
  await page.goto('/');
  const hrefs = await page
    .locator('footer a')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  expect(hrefs).toEqual(
    expect.arrayContaining(['/helpCenter', '/user-agreement', '/privacy', '/clause', '/queryAuthentication']),
  );
  for (const href of hrefs) {
    const res = await page.goto(href);
    expect(res?.status(), href).toBe(200);
    await expect(page.getByText(NOT_FOUND)).toHaveCount(0);
    await expect(page.locator('main h1').first()).toBeVisible();
  }
});

test('the legal documents: version, effective date, the notary office, tabs between them', async ({
  page,
}) => {
  await page.goto('/user-agreement');
  await expect(page).toHaveTitle('用户协议 - 存证云');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('用户协议');
  await expect(page.getByText(/版本 V\d+\.\d+ · 生效日期 \d{4}-\d{2}-\d{2}/)).toBeVisible();
  await expect(page.locator('main').getByText(/公证服务由测试市公证处依法办理/)).toBeVisible();
  await expect(page.locator('main').getByText('{office}')).toHaveCount(0);

  await page.getByRole('navigation', { name: '平台规则' }).getByRole('link', { name: '隐私政策' }).click();
  await expect(page).toHaveURL(/:\d+\/privacy$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('隐私政策');
  await expect(page.getByRole('heading', { name: '五、保存期限' })).toBeVisible();
  await expect(page.getByTestId('support-contact')).toHaveText('客服电话 400-800-0000');
  await expect(
    page.getByRole('navigation', { name: '平台规则' }).getByRole('link', { name: '隐私政策' }),
  ).toHaveAttribute('aria-current', 'page');

  await page.getByRole('navigation', { name: '平台规则' }).getByRole('link', { name: '服务规则' }).click();
  await expect(page).toHaveURL(/:\d+\/clause$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('电子数据保全服务规则');
  await expect(page.getByText('/.well-known/cunzheng-ledger-key.pem', { exact: false })).toBeVisible();
  // the key the rules point to is really published there
  const key = await page.request.get('/.well-known/cunzheng-ledger-key.pem');
  expect(key.status()).toBe(200);
  expect(await key.text()).toContain('BEGIN PUBLIC KEY');
});

test('the register page and the personal KYC consent link to the documents', async ({ page, freshUser }) => {
  await page.goto('/register');
  const note = page.getByText('注册即表示您已阅读并同意');
  await expect(note.getByRole('link', { name: '《用户协议》' })).toHaveAttribute('href', '/user-agreement');
  await expect(note.getByRole('link', { name: '《隐私政策》' })).toHaveAttribute('href', '/privacy');

  await page.goto('/helpCenter');
  await expect(page.getByTestId('support-contact')).toHaveText('客服：客服电话 400-800-0000');
  // the independent-verification answer links the published keys and the checkpoint, and they answer
  const independent = page.getByTestId('faq-independent');
  await independent.getByText('不依赖存证云，如何独立核验证据包？').click();
  for (const name of ['PEM 格式', '签名笔记验证密钥', '/ledger/checkpoint']) {
    const href = await independent.getByRole('link', { name }).getAttribute('href');
    const res = await page.request.get(href!);
    expect(res.status(), href!).toBe(200);
    expect(res.headers()['content-type']).toMatch(/^(text\/plain|application\/x-pem-file)/);
  }

  await freshUser('/personage-kyc?method=photo', { verified: false });
  await expect(page.locator('main').getByRole('link', { name: '《隐私政策》' }).first()).toHaveAttribute(
    'href',
    '/privacy',
  );
});
