/**
 * The browser build hydrates the server's HTML with Preact (docs/decisions/031). What that must not break, checked
 * with JavaScript on: no page error; the page's stylesheet survives hydration (React's server renderer moves the
 * module preloads into <head>, where Preact would otherwise take them for the stylesheet link and drop the real
 * one); the content exists once (a failed hydration appends a second copy); forms submit through the router; and
 * in-app navigation keeps the stylesheet, changes the title and switches <html lang> between Chinese and English.
 */
import type { Page } from '@playwright/test';
import { expect, test } from '../support/e2e-fixtures.ts';
import { makeFile, preserveFile } from '../support/e2e.ts';

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'hydration needs JavaScript');

/** Errors thrown in the page from now on. */
function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

/** Waits for hydration (the root marks `html[data-enhanced]`) and reads what it may have broken. */
async function hydratedState(page: Page) {
  await expect(page.locator('html[data-enhanced]')).toHaveCount(1);
  return page.evaluate(() => ({
    sheets: document.styleSheets.length,
    topBarBackground: getComputedStyle(document.querySelector('.topbar')!).backgroundColor,
    mains: document.querySelectorAll('main').length,
    heads: document.querySelectorAll('head').length,
    lang: document.documentElement.lang,
    title: document.title,
  }));
}

test('the login page hydrates once with its stylesheet, and logging in goes through the router', async ({
  page,
}) => {
  const errors = pageErrors(page);
  await page.goto('/login');
  const state = await hydratedState(page);
  expect(state.sheets).toBeGreaterThanOrEqual(1);
  expect(state.topBarBackground).not.toBe('rgba(0, 0, 0, 0)');
  expect(state).toMatchObject({ mains: 1, heads: 1, lang: 'zh-CN' });
  await expect(page.locator('form#login-form')).toHaveCount(1);

  // A client-side validation message (Conform finds its form by the explicit id) without a page load.
  await page.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page.getByText('手机号不能为空').first()).toBeVisible();
  expect(errors).toEqual([]);
});

test('in-app navigation keeps the stylesheet and switches title and <html lang> to the English certificate', async ({
  page,
  freshUser,
}) => {
  await freshUser('/newAccessCard');
  const baoquan = await preserveFile(page, '水合检查', makeFile('hydration.txt', 1024).file);
  const errors = pageErrors(page);
  await page.goto(`/attestation/${baoquan}`);
  const before = await hydratedState(page);
  expect(before.lang).toBe('zh-CN');

  // A router navigation (no document load): the marker set on this document stays.
  await page.evaluate(() => document.documentElement.setAttribute('data-same-document', ''));
  await page.getByRole('link', { name: 'English', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/English/attestation/${baoquan}$`));
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.locator('html[data-same-document]')).toHaveCount(1);
  const after = await hydratedState(page);
  expect(after.sheets).toBeGreaterThanOrEqual(1);
  expect(after.mains).toBe(1);
  expect(after.title).not.toBe(before.title);
  expect(errors).toEqual([]);
});

test('a form loads its schema on first focus, then validates in the browser without asking the server', async ({
  page,
}) => {
  const scripts: string[] = [];
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(r.url());
    if (r.method() !== 'GET') sent.push(`${r.method()} ${r.url()}`);
  });
  // The validator arrives only when the test lets it (a slow line).
  let release!: () => void;
  const arrived = new Promise<void>((resolve) => (release = resolve));
  await page.route(/login-validation/, async (route) => {
    await arrived;
    await route.continue();
  });
  await page.goto('/login');
  await expect(page.locator('html[data-enhanced]')).toHaveCount(1);
  expect(scripts.some((u) => u.includes('login-validation'))).toBe(false);

  const mobile = page.getByLabel('手机号');
  const marked = page.locator('#login-form-mobile');
  await mobile.focus();
  await expect.poll(() => scripts.some((u) => u.includes('login-validation'))).toBe(true);
  // Before it has arrived a blur reports nothing and asks the server nothing.
  await mobile.fill('123');
  await page.getByLabel('密码').focus();
  await page.waitForTimeout(300);
  await expect(marked).not.toHaveAttribute('aria-invalid', 'true');
  expect(sent, 'requests sent').toEqual([]);

  // Once it has, the blur validates in the browser.
  release();
  await expect(async () => {
    await mobile.fill('1234');
    await page.getByLabel('密码').focus();
    await expect(marked).toHaveAttribute('aria-invalid', 'true', { timeout: 1000 });
  }).toPass();
  expect(sent, 'requests sent').toEqual([]);
});
