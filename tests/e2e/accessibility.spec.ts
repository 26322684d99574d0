/**
 * Accessibility: axe-core (WCAG 2.x A and AA rules) finds no violation on the pages of every area, with JavaScript
 * on and off. Pages of an account are checked as a fresh verified user; the console's as an
 * operator would see it after login.
 */
import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, Page } from '@playwright/test';
import { expect, test } from '../support/e2e-fixtures.ts';
import { makeFile, preserveFile } from '../support/e2e.ts';

const PUBLIC_PAGES = [
  '/',
  '/helpCenter',
  '/verify',
  '/activity',
  '/appDownload',
  '/user-agreement',
  '/privacy',
  '/clause',
  '/login',
  '/register',
  '/forgetpwd',
  '/queryAuthentication',
  '/queryAuthentication/certificate',
  '/queryAuthentication/electronicData',
  '/queryAuthentication/notarial',
  '/ops/login',
  '/no-such-page',
];

const ACCOUNT_PAGES = [
  '/attestation-list/file',
  '/attestation-list/hash',
  '/attestation-list/property',
  '/attestation-list/download',
  '/newAccessCard',
  '/newAccessHashCard',
  '/newProperty',
  '/setting',
  '/notifications',
  '/signature',
  '/address',
  '/buyCredits',
  '/orders',
  '/invoice',
  '/orders/makeOutInvoice',
  '/kyc-info',
  '/kyc/authorization-template',
  '/notary',
  '/notary/selectList',
  '/newWeb',
  '/evidences-all/web',
  '/newProcess',
  '/evidences-all/process',
  '/newMobile',
  '/evidences-all/mobile-process',
  '/evidences-all/music',
  '/evidences-all/music/new',
];

/**
 * The violations axe finds at each of `paths` as the test's project shows it, one line each: rule, impact and the
 * first offending node. axe runs as a script in the page, which a context without JavaScript cannot do; for the
 * js-off project the pages are opened in a second context of the same browser (one for all `paths`) with JavaScript
 * on but every script file refused (and the first context's cookies): the server-rendered page no script has
 * touched, which is what a browser without JavaScript shows.
 */
async function violations(page: Page, ...paths: string[]): Promise<string[]> {
  let target = page;
  let scratch: BrowserContext | null = null;
  if (test.info().project.use.javaScriptEnabled === false) {
    scratch = await page.context().browser()!.newContext({ javaScriptEnabled: true });
    await scratch.addCookies(await page.context().cookies());
    await scratch.route(/\.m?js(\?.*)?$/, (route) => route.abort());
    target = await scratch.newPage();
  }
  const found: string[] = [];
  try {
    for (const path of paths) {
      await target.goto(new URL(path, test.info().project.use.baseURL).href);
      const result = await new AxeBuilder({ page: target })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
        .analyze();
      found.push(
        ...result.violations.map(
          (v) =>
            `${path}: ${v.id} (${v.impact ?? ''}): ${v.nodes.length} × ${v.nodes[0]?.target.join(' ') ?? ''} — ${v.help}`,
        ),
      );
    }
  } finally {
    await scratch?.close();
  }
  return found;
}

for (const path of PUBLIC_PAGES) {
  test(`${path} has no axe violations`, async ({ page }) => {
    expect(await violations(page, path)).toEqual([]);
  });
}

test('account pages have no axe violations', async ({ page, freshUser }) => {
  test.setTimeout(180_000);
  await freshUser('/attestation-list/file');
  expect(await violations(page, ...ACCOUNT_PAGES)).toEqual([]);
});

test('a certificate, its print sheets and the public verification pages have no axe violations', async ({
  page,
  freshUser,
}) => {
  test.setTimeout(120_000);
  await freshUser('/newAccessCard');
  const baoquan = await preserveFile(page, '无障碍检查', makeFile('a11y.txt', 2048).file);
  const found = await violations(
    page,
    `/attestation/${baoquan}`,
    `/attestation/${baoquan}/print`,
    `/English/attestation/${baoquan}`,
    `/English/attestation/${baoquan}/print`,
    `/queryAuthentication/certificate?baoquan=${baoquan}`,
    '/English/safekeeping',
  );
  expect(found).toEqual([]);
});

test('the notarisation steps, detail and document print view have no axe violations', async ({
  page,
  freshUser,
}) => {
  test.setTimeout(120_000);
  await freshUser('/newAccessCard');
  await preserveFile(page, '无障碍公证检查', makeFile('a11y-notary.txt', 1024).file);
  await page.goto('/notary/selectList');
  await page.getByRole('checkbox', { name: '选择 无障碍公证检查' }).check();
  await page.getByRole('button', { name: '提交订单' }).click();
  await expect(page).toHaveURL(/\/applicationForm\/\d+\/1$/);
  // the form showing its errors, as the user sees it after an empty submit
  await page.getByRole('button', { name: '提交申请表' }).click();
  const id = /applicationForm\/(\d+)\/1/.exec(page.url())![1]!;
  const found = await violations(
    page,
    `/attestation-list/readingMaterial/applicationForm/${id}/1`,
    `/notary/detail?orderId=${id}&type=1`,
  );
  expect(found).toEqual([]);
});

test('the first Tab reaches the skip link, which moves focus to the page content', async ({ page }) => {
  for (const [path, label] of [
    ['/login', '跳到主要内容'],
    ['/English/safekeeping', 'Skip to main content'],
  ] as const) {
    await page.goto(path);
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: label });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.locator('main#main')).toBeFocused();
  }
});

test('a form showing its errors and error summary has no axe violations', async ({ page }, info) => {
  test.skip(
    info.project.name !== 'js-on',
    'axe runs as a script; the summary is the same markup without JavaScript',
  );
  await page.goto('/login');
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page.getByTestId('error-summary')).toBeVisible();
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  expect(result.violations.map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ') ?? ''} — ${v.help}`)).toEqual(
    [],
  );
});
