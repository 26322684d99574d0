/**
 * Phones (decision 030) at 375 × 740 CSS pixels: no page scrolls sideways; list tables are one card per row
 * with each cell led by its column's label (so no column is squeezed to a character a line and the actions stay in
 * view); buttons keep their words on one line and stay inside the screen; the certificate's labels sit above their
 * values. Checked on the evidence list, the address book, the certificate, KYC, orders and invoices; a screenshot of
 * each page is attached to the report for a human look. CSS only, so one project (JavaScript on) checks it.
 */
import type { Page } from '@playwright/test';
import { expect, test } from '../support/e2e-fixtures.ts';
import { makeFile, preserveFile } from '../support/e2e.ts';

test.use({ viewport: { width: 375, height: 740 } });

/** What breaks a phone layout on the current page, one line each (empty when it holds). */
async function phoneProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const width = window.innerWidth;
    if (document.documentElement.scrollWidth > width)
      problems.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
    };
    for (const el of document.querySelectorAll<HTMLElement>('.button, button')) {
      if (!visible(el) || el.closest('.default-submit, .visually-hidden')) continue;
      const r = el.getBoundingClientRect();
      const name = (el.textContent ?? '').trim();
      if (r.right > width + 0.5 || r.left < -0.5) problems.push(`button "${name}" leaves the screen`);
      if (el.scrollWidth > el.clientWidth + 1) problems.push(`button "${name}" overflows its box`);
      const line =
        parseFloat(getComputedStyle(el).lineHeight) || parseFloat(getComputedStyle(el).fontSize) * 1.5;
      const range = document.createRange();
      range.selectNodeContents(el);
      const lines = new Set([...range.getClientRects()].map((q) => Math.round(q.top))).size;
      if (lines > 1 && r.height > line * 1.8) problems.push(`button "${name}" wraps onto ${lines} lines`);
    }
    for (const table of document.querySelectorAll<HTMLElement>('table.table')) {
      if (!visible(table)) continue;
      for (const row of table.querySelectorAll<HTMLElement>('tbody tr')) {
        if (getComputedStyle(row).display !== 'block') problems.push('a table row is not a card');
        for (const cell of row.querySelectorAll<HTMLElement>('td')) {
          if (cell.classList.contains('empty')) continue;
          const label = cell.getAttribute('data-label');
          const before = getComputedStyle(cell, '::before').content;
          if (label && before !== JSON.stringify(label)) problems.push(`cell "${label}" shows no label`);
          if (cell.getBoundingClientRect().right > width + 0.5)
            problems.push(`cell "${label}" leaves the screen`);
        }
      }
    }
    for (const th of document.querySelectorAll<HTMLElement>('.cz-certificate-facts th')) {
      if (visible(th) && getComputedStyle(th).display !== 'block')
        problems.push('certificate label beside value');
    }
    return problems;
  });
}

test('at 375 px: list, addresses, certificate, KYC, orders and invoices read as cards, nothing sideways', async ({
  page,
  freshUser,
}, info) => {
  test.skip(info.project.name !== 'js-on', 'layout is CSS: the same with and without JavaScript');
  test.setTimeout(120_000);
  await freshUser('/address');
  await page.getByLabel('收件人').fill('张三');
  await page.getByLabel('省份').selectOption('浙江省');
  await page.getByLabel('城市').selectOption('杭州市');
  await page.getByLabel('区县').selectOption('西湖区');
  await page.getByLabel('详细地址').fill('文三路 100 号 某某科技园 3 号楼 1201 室');
  await page.getByLabel('手机号').fill('13912345678');
  await page.getByLabel('邮箱').fill('zhangsan@example.com');
  await page.getByRole('button', { name: '保存地址' }).click();
  await expect(page.getByTestId('address-row')).toHaveCount(1);
  const baoquan = await preserveFile(
    page,
    '房屋租赁合同扫描件（第一页至第十二页）',
    makeFile('phone.pdf', 3000).file,
  );

  for (const path of [
    '/attestation-list/file',
    '/address',
    `/attestation/${baoquan}`,
    `/English/attestation/${baoquan}`,
    '/kyc-info',
    '/orders',
    '/invoice',
  ]) {
    await page.goto(path);
    await info.attach(`${path.replace(/\W+/g, '_')}.png`, {
      body: await page.screenshot({ fullPage: true }),
      contentType: 'image/png',
    });
    expect(await phoneProblems(page), path).toEqual([]);
  }
  // the list's row is a card with its actions in view
  await page.goto('/attestation-list/file');
  const card = page.locator('tbody tr').first();
  await expect(card.getByRole('link', { name: '查看证书' })).toBeInViewport();
});
