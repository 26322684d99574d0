/**
 * Old engines (decision 030): IE11 and Android 4.x WebViews take the no-JavaScript path and ignore what they do
 * not know in CSS. Emulated in Chromium by serving the built stylesheets with every declaration that uses var() or
 * sets a gap removed and the `@supports (aspect-ratio …)` blocks dropped (what such an engine ignores), then checking
 * login, list, certificate and address: the main buttons stay visible, readable (not white on white), inside the
 * page and apart from each other; a screenshot of each is attached to the report. A browser without `<details>` (by
 * its User-Agent) gets confirmations as `:target` boxes. JavaScript-off project only.
 */
import type { Page, Route, TestInfo } from '@playwright/test';
import postcss from 'postcss';
import { expect, test } from '../support/e2e-fixtures.ts';
import { makeFile, preserveFile } from '../support/e2e.ts';

/** The stylesheet as an engine without custom properties and flex gap reads it. */
function oldEngineCss(css: string): string {
  const root = postcss.parse(css);
  // It knows no newer feature query either: what `@supports (aspect-ratio: …)` holds is not for it.
  root.walkAtRules('supports', (rule) => {
    if (rule.params.includes('aspect-ratio')) rule.remove();
  });
  root.walkDecls((d) => {
    if (d.value.includes('var(') || d.prop === 'gap' || d.prop === 'row-gap' || d.prop === 'column-gap')
      d.remove();
  });
  return root.toString();
}

async function emulateOldEngine(page: Page): Promise<void> {
  await page.route(/\.css(\?.*)?$/, async (route: Route) => {
    const res = await route.fetch();
    await route.fulfill({ response: res, body: oldEngineCss(await res.text()) });
  });
}

/** Attaches a full-page screenshot of what the emulated engine shows to the report, for a human look. */
async function attachShot(page: Page, info: TestInfo, name: string): Promise<void> {
  await info.attach(`old-engine-${name}.png`, {
    body: await page.screenshot({ fullPage: true }),
    contentType: 'image/png',
  });
}

/** Relative luminance contrast of the element's text on its background (WCAG 2.1), 1–21. */
async function contrast(page: Page, selector: string): Promise<number> {
  return page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const rgb = (c: string) => (c.match(/[\d.]+/g) ?? ['0', '0', '0']).slice(0, 3).map(Number);
      const lum = (c: number[]) => {
        const [r, g, b] = c.map((v) => {
          const s = v / 255;
          return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
      };
      const style = getComputedStyle(el);
      let bg = style.backgroundColor;
      for (let p = el.parentElement; p && /rgba\(0, 0, 0, 0\)|transparent/.test(bg); p = p.parentElement)
        bg = getComputedStyle(p).backgroundColor;
      if (/rgba\(0, 0, 0, 0\)|transparent/.test(bg)) bg = 'rgb(255, 255, 255)';
      const [a, b] = [lum(rgb(style.color)), lum(rgb(bg))].sort((x, y) => y - x);
      return (a! + 0.05) / (b! + 0.05);
    });
}

test('without custom properties and gap: login, list, certificate and address keep their buttons readable', async ({
  page,
  freshUser,
}, info) => {
  test.skip(info.project.name !== 'js-off', 'old engines get the no-JavaScript path');
  await emulateOldEngine(page);
  await page.goto('/login');
  const login = page.getByRole('button', { name: '登录', exact: true });
  await expect(login).toBeVisible();
  expect(await contrast(page, 'form button.primary:not(.default-submit)')).toBeGreaterThanOrEqual(4.5);
  await attachShot(page, info, 'login');

  await freshUser('/newAccessCard');
  const baoquan = await preserveFile(page, '旧浏览器检查', makeFile('old-engine.txt', 1000).file);
  await page.goto('/attestation-list/file');
  const create = page.getByRole('link', { name: '新建文件保全' });
  await expect(create).toBeInViewport();
  // without gap, the row's buttons are still apart (old-engines.css: a left margin)
  const batch = await page.getByRole('link', { name: '批量下载' }).boundingBox();
  const created = await create.boundingBox();
  expect(created!.x - (batch!.x + batch!.width)).toBeGreaterThanOrEqual(6);
  expect(await contrast(page, '.head-actions .button.primary')).toBeGreaterThanOrEqual(4.5);
  await attachShot(page, info, 'list');

  await page.goto(`/attestation/${baoquan}`);
  await expect(page.getByRole('button', { name: '下载证据' })).toBeVisible();
  expect(await contrast(page, '.cz-certificate-statement')).toBeGreaterThanOrEqual(4.5);
  await attachShot(page, info, 'certificate');

  await page.goto('/address');
  await expect(page.getByRole('button', { name: '保存地址' })).toBeVisible();
  expect(await contrast(page, 'form button.primary:not(.default-submit)')).toBeGreaterThanOrEqual(4.5);
  await attachShot(page, info, 'address');
});

test.describe('a browser without <details> (Internet Explorer 11)', () => {
  test.use({ userAgent: 'Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko' });

  test('a confirmation is a link to its box, which shows only once followed; confirming deletes the data', async ({
    page,
    freshUser,
  }, info) => {
    test.skip(info.project.name !== 'js-off', 'old engines get the no-JavaScript path');
    await emulateOldEngine(page);
    await freshUser('/newAccessCard');
    await preserveFile(page, '确认步骤检查', makeFile('confirm.txt', 500).file);
    await page.goto('/attestation-list/file');
    const row = page.locator('tbody tr', { hasText: '确认步骤检查' });
    // no <details> around the question: an engine without it would show question and button at once
    await expect(row.locator('details .confirm-box')).toHaveCount(0);
    const question = row.getByText('删除后原始数据不可恢复');
    await expect(question).toBeHidden();
    await expect(row.getByRole('button', { name: '确认删除' })).toBeHidden();

    await row.getByRole('link', { name: '删除', exact: true }).click();
    await expect(question).toBeVisible();
    await row.getByRole('button', { name: '确认删除' }).click();
    // the evidence's data is deleted (its ledger record stays), and the answer is a page without the box open
    await expect(page.getByRole('status').filter({ hasText: '已删除该证据数据' })).toBeVisible();
    await expect(question).toBeHidden();
  });
});
