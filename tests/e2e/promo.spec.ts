/**
 * Promotion codes (兑换码; docs/decisions/062-promotion-codes.md), JS on and off: finance mints a batch on the
 * console's form (a points value of `1e3` refused with its message first) and lands on the batch page with its
 * codes; a user reaches /redeem from /points, redeems a code typed in lower case with blanks, sees the notice naming
 * the points, the balance and the top bar rise by exactly that, and /points shows the entry as 兑换码; the same code
 * again is refused, another user finds it used; a disabled batch's code is refused; /buyCredits links to /redeem; an
 * operator without `finance` gets 无权访问.
 */
import type { Page } from '@playwright/test';
import { PromoMsg } from '../../contract/promo-codes.ts';
import { expect, test } from '../support/e2e-fixtures.ts';
import { createOperator } from '../support/e2e.ts';
import { dayFromNow } from '../support/promo.ts';

/** The points the top bar shows. */
async function topBarPoints(page: Page): Promise<number> {
  return Number(await page.locator('.topbar .points strong').textContent());
}

/** Mints a batch on /ops/promo as the logged-in finance operator. @returns the batch page's path and its codes */
async function mintOnConsole(
  page: Page,
  fields: { name: string; points: string; count: string; uses: string },
): Promise<{ path: string; codes: string[] }> {
  await page.goto('/ops/promo');
  const form = page.getByRole('form', { name: '生成兑换码' });
  await form.getByLabel('批次名称').fill(fields.name);
  await form.getByLabel('每次兑换积分').fill(fields.points);
  await form.getByLabel('兑换码数量').fill(fields.count);
  await form.getByLabel('每码可用次数').fill(fields.uses);
  await form.getByLabel('有效期至').fill(dayFromNow(30));
  await form.getByRole('button', { name: '生成' }).click();
  await expect(page).toHaveURL(/\/ops\/promo\/\d+\?done=minted$/);
  await expect(page.getByRole('status').filter({ hasText: PromoMsg.minted })).toBeVisible();
  const rows = page.getByTestId('promo-code-row');
  await expect(rows).toHaveCount(Number(fields.count));
  const codes = (await rows.locator('td.mono').allTextContents()).map((c) => c.trim());
  return { path: new URL(page.url()).pathname, codes };
}

/** Submits `code` on /redeem. */
async function redeemOnPage(page: Page, code: string) {
  await page.goto('/redeem');
  await page.getByLabel('兑换码').fill(code);
  await page.getByRole('button', { name: '立即兑换' }).click();
}

test('finance mints a batch; a user redeems a code on /redeem, the balance rises, /points shows 兑换码', async ({
  page,
  freshUser,
  opsLoginAs,
}) => {
  await opsLoginAs(createOperator('finance'), page);
  await page.getByRole('navigation', { name: '运营后台' }).getByRole('link', { name: '兑换码管理' }).click();
  await expect(page).toHaveURL(/\/ops\/promo$/);
  // decimal digits only (decision 057)
  const form = page.getByRole('form', { name: '生成兑换码' });
  await form.getByLabel('批次名称').fill('展会礼包');
  await form.getByLabel('每次兑换积分').fill('1e3');
  await form.getByLabel('兑换码数量').fill('2');
  await form.getByLabel('有效期至').fill(dayFromNow(30));
  await form.getByRole('button', { name: '生成' }).click();
  await expect(page.getByText(PromoMsg.pointsDigits)).toBeVisible();
  await expect(form.getByLabel('批次名称')).toHaveValue('展会礼包');

  const { path, codes } = await mintOnConsole(page, {
    name: '展会礼包',
    points: '66',
    count: '2',
    uses: '1',
  });
  expect(codes[0]).toMatch(/^[2-9A-HJKMNP-Z]{4}(-[2-9A-HJKMNP-Z]{4}){3}$/);

  await freshUser('/points');
  await page.getByRole('link', { name: '兑换码兑换' }).click();
  await expect(page).toHaveURL(/\/redeem$/);
  const before = await topBarPoints(page);
  await page.getByLabel('兑换码').fill(` ${codes[0]!.toLowerCase().replace(/-/g, ' ')} `);
  await page.getByRole('button', { name: '立即兑换' }).click();
  await expect(page).toHaveURL(/\/redeem\?redeemed=66$/);
  await expect(page.getByRole('status').filter({ hasText: PromoMsg.redeemed(66) })).toBeVisible();
  await expect(page.getByTestId('redeem-balance')).toHaveText(String(before + 66));
  expect(await topBarPoints(page)).toBe(before + 66);

  await page.getByRole('link', { name: '积分明细' }).first().click();
  await expect(page).toHaveURL(/\/points$/);
  const first = page.getByTestId('points-row').first();
  await expect(first).toContainText('兑换码');
  await expect(first).toContainText('+66');
  await expect(page.getByTestId('points-balance')).toHaveText(String(before + 66));

  // once per user, and a single-use code once in all
  await redeemOnPage(page, codes[0]!);
  await expect(page.getByRole('alert').filter({ hasText: PromoMsg.alreadyRedeemed })).toBeVisible();
  await expect(page.getByLabel('兑换码')).toHaveValue(codes[0]!);
  await freshUser('/redeem'); // another user, in place of the first
  await redeemOnPage(page, codes[0]!);
  await expect(page.getByRole('alert').filter({ hasText: PromoMsg.usedUp })).toBeVisible();

  // the batch page counts the use
  await page.goto(path);
  await expect(page.getByTestId('promo-code-row').filter({ hasText: codes[0]! })).toContainText('1/1');
});

test('a disabled batch no longer redeems; /buyCredits links to /redeem; without finance: 无权访问', async ({
  page,
  freshUser,
  opsLoginAs,
}) => {
  await opsLoginAs(createOperator('finance'), page);
  const { path, codes } = await mintOnConsole(page, { name: '停用测试', points: '5', count: '1', uses: '3' });
  await expect(page.getByTestId('promo-code-row')).toContainText('0/3');
  await page.getByText('停用批次').click();
  await page.getByRole('button', { name: '确认停用' }).click();
  await expect(page).toHaveURL(/\/ops\/promo\/\d+\?done=disabled$/);
  await expect(page.getByRole('status').filter({ hasText: PromoMsg.disabled })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('已停用');

  await freshUser('/buyCredits');
  await page.getByRole('link', { name: '兑换码兑换' }).click();
  await expect(page).toHaveURL(/\/redeem$/);
  await page.getByLabel('兑换码').fill(codes[0]!);
  await page.getByRole('button', { name: '立即兑换' }).click();
  await expect(page.getByRole('alert').filter({ hasText: PromoMsg.batchDisabled })).toBeVisible();
  await redeemOnPage(page, 'ZZZZ-ZZZZ-ZZZZ-ZZZZ');
  await expect(page.getByRole('alert').filter({ hasText: PromoMsg.codeUnknown })).toBeVisible();

  await opsLoginAs(createOperator('reviewer'), page);
  const res = await page.goto(path);
  expect(res?.status()).toBe(403);
  await expect(page.getByRole('heading', { name: '无权访问' })).toBeVisible();
});
