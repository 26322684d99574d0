/**
 * Points, orders and payments (spec 02 §2 "Orders", "Notary order payment", §3, §4 "Orders"; decisions 017–019),
 * JS on and off, against the loopback payment sandboxes the platform starts: buying 50 points with Alipay (the
 * handoff page, the sandbox cashier's 支付成功, the return to the result page) and with WeChat Pay (the QR page, the
 * sandbox's pay page opened from its link, the page moving on by itself) as the demo account; the balance and the
 * top bar rise by exactly 50 and the recharge row shows 已支付 with its pay type; a consumption row after the
 * test-only spend; a failed payment credits nothing; a pending order paid again or cancelled; the finance
 * operator's orders view with the notification and the journal, a manual reconcile, and 无权访问 without `finance`;
 * the points history /points (积分明细) with its labels, signs, balances and pages, reached from the top bar and
 * /buyCredits; and a custom amount of `1e3` or `0x10` refused (decision 057).
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { BillingMsg } from '../../contract/billing.ts';
import { expect, test } from '../support/e2e-fixtures.ts';
import { createOperator, DEMO } from '../support/e2e.ts';

/** The points the top bar shows. */
async function topBarPoints(page: Page): Promise<number> {
  return Number(await page.locator('.topbar .points strong').textContent());
}

/** Chooses `points` and the pay type on /buyCredits and submits. */
async function startBuying(page: Page, points: number, payType: '支付宝' | '微信支付') {
  await page.goto('/buyCredits');
  await page.getByRole('radio', { name: new RegExp(`^${points} 积分`) }).check();
  await page.getByRole('radio', { name: payType }).check();
  await page.getByRole('button', { name: '立即支付' }).click();
}

/** From the Alipay sandbox cashier: chooses 支付成功 and follows the return to the result page. */
async function payAtAlipayCashier(page: Page): Promise<string> {
  await expect(page).toHaveURL(/\/cashier\/[0-9a-f]{32}$/);
  await expect(page.getByRole('heading', { name: '支付宝收银台（沙箱）' })).toBeVisible();
  await page.getByRole('button', { name: '支付成功' }).click();
  await expect(page).toHaveURL(/:\d+\/buyCredits\/result\?order_no=R[0-9A-Za-z]+$/);
  return new URL(page.url()).searchParams.get('order_no')!;
}

/** On /weChat/{orderNo}: opens the sandbox pay page from the page's link in another tab and decides there. */
async function decideAtWechatSandbox(page: Page, decision: '支付成功' | '支付失败'): Promise<string> {
  await expect(page).toHaveURL(/:\d+\/weChat\/R[0-9A-Za-z]+$/);
  const orderNo = new URL(page.url()).pathname.split('/').pop()!;
  await expect(page.getByRole('img', { name: '微信支付二维码' })).toBeVisible();
  await expect(page.getByTestId('order-state')).toHaveText('待支付');
  const href = await page.getByTestId('wechat-test-link').getAttribute('href');
  const sandbox = await page.context().newPage();
  await sandbox.goto(href!);
  await sandbox.getByRole('button', { name: decision }).click();
  await expect(sandbox.getByRole('heading', { name: '微信支付（沙箱）' })).toBeVisible();
  await sandbox.close();
  return orderNo;
}

/** The row of `orderNo` on /orders (tab `type`). */
async function orderRow(page: Page, orderNo: string, type = 1) {
  await page.goto(type === 1 ? '/orders' : `/orders?type=${type}`);
  return page.getByTestId('order-row').filter({ hasText: orderNo });
}

/** Spends points through the test-only hook (stands in for notarisation). */
async function spend(request: APIRequestContext, mobile: string, points: number) {
  const res = await request.post('/api/__test/billing/spend', { form: { mobile, points: String(points) } });
  const body = (await res.json()) as { code: number; msg: string };
  expect(body.code, body.msg).toBe(200);
}

test('Alipay: the demo account buys 50 points, the balance rises by exactly 50; a spend shows in 消费记录', async ({
  page,
  loginAs,
  request,
}) => {
  await loginAs(DEMO, '/buyCredits');
  const before = await topBarPoints(page);
  await startBuying(page, 50, '支付宝');
  const orderNo = await payAtAlipayCashier(page);
  await expect(page.getByTestId('pay-result')).toHaveText('支付成功');
  await expect(page.getByTestId('balance')).toHaveText(String(before + 50));
  expect(await topBarPoints(page)).toBe(before + 50);

  const row = await orderRow(page, orderNo);
  await expect(row).toContainText('已支付');
  await expect(row).toContainText('支付宝');
  await expect(row).toContainText('充值50积分');
  await expect(row).toContainText('50.00');
  await expect(row).toContainText('未开票');
  await expect(row.getByRole('link', { name: '去支付' })).toHaveCount(0);

  await spend(request, DEMO.mobile, 7);
  await page.goto('/orders?type=2');
  await expect(page.getByTestId('order-row').first()).toContainText('消费7积分');
  await expect(page.getByTestId('order-row').first()).toContainText('积分余额');
  expect(await topBarPoints(page)).toBe(before + 43);
});

test('WeChat Pay: the demo account buys 50 points on the QR page, which moves on by itself when paid', async ({
  page,
  loginAs,
}) => {
  await loginAs(DEMO, '/buyCredits');
  const before = await topBarPoints(page);
  await startBuying(page, 50, '微信支付');
  const orderNo = await decideAtWechatSandbox(page, '支付成功');
  await expect(page).toHaveURL(new RegExp(`:\\d+/buyCredits/result\\?order_no=${orderNo}$`), {
    timeout: 20_000,
  });
  await expect(page.getByTestId('pay-result')).toHaveText('支付成功');
  await expect(page.getByTestId('balance')).toHaveText(String(before + 50));
  expect(await topBarPoints(page)).toBe(before + 50);

  const row = await orderRow(page, orderNo);
  await expect(row).toContainText('已支付');
  await expect(row).toContainText('微信支付');
});

test('a failed payment credits nothing; a pending order can be paid again or cancelled', async ({
  page,
  freshUser,
}) => {
  await freshUser('/buyCredits');
  expect(await topBarPoints(page)).toBe(0);

  // WeChat Pay 支付失败: the page says so, nothing is credited, the row shows 支付失败
  await startBuying(page, 10, '微信支付');
  const failed = await decideAtWechatSandbox(page, '支付失败');
  await expect(page.getByTestId('order-state')).toHaveText('支付失败', { timeout: 20_000 });
  await expect(page.getByRole('img', { name: '微信支付二维码' })).toHaveCount(0);
  expect(await topBarPoints(page)).toBe(0);
  await expect(await orderRow(page, failed)).toContainText('支付失败');

  // Alipay 支付失败 leaves the order waiting: the result page says 待支付, nothing is credited
  await startBuying(page, 10, '支付宝');
  await expect(page).toHaveURL(/\/cashier\/[0-9a-f]{32}$/);
  await page.getByRole('button', { name: '支付失败' }).click();
  await page.getByRole('link', { name: '返回商户页面' }).click();
  await expect(page.getByTestId('pay-result')).toHaveText('待支付');
  const pending = new URL(page.url()).searchParams.get('order_no')!;
  expect(await topBarPoints(page)).toBe(0);

  // paid again from the list: back to the cashier; then cancelled after the confirmation
  let row = await orderRow(page, pending);
  await expect(row).toContainText('待支付');
  await row.getByRole('link', { name: '去支付' }).click();
  await expect(page).toHaveURL(/\/cashier\/[0-9a-f]{32}$/);
  await expect(page.getByText(pending)).toBeVisible();
  row = await orderRow(page, pending);
  await row.getByText('取消订单').click();
  await row.getByRole('button', { name: '确认取消' }).click();
  await expect(page.getByRole('status').filter({ hasText: '订单已取消' })).toBeVisible();
  row = page.getByTestId('order-row').filter({ hasText: pending });
  await expect(row).toContainText('已取消');
  await expect(row.getByRole('link', { name: '去支付' })).toHaveCount(0);
  expect(await topBarPoints(page)).toBe(0);

  // the status filter and the phone width
  await page.goto('/orders?isType=3');
  await expect(page.getByTestId('order-row')).toHaveCount(1);
  await page.setViewportSize({ width: 375, height: 740 });
  const box = await page.locator('section.page').boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(375);
});

test('finance: the orders view finds the order, shows its notification and journal, reconciles; others: 无权访问', async ({
  page,
  freshUser,
  opsLoginAs,
}) => {
  const user = await freshUser('/buyCredits');
  await startBuying(page, 10, '支付宝');
  const orderNo = await payAtAlipayCashier(page);
  await expect(page.getByTestId('pay-result')).toHaveText('支付成功');

  const op = createOperator('finance');
  await opsLoginAs(op, page);
  await page.getByRole('navigation', { name: '运营后台' }).getByRole('link', { name: '订单管理' }).click();
  await page.getByLabel('订单号或手机号').fill(user.mobile);
  await page.getByRole('button', { name: '查询' }).click();
  const row = page.getByTestId('ops-order-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(orderNo);
  await expect(row).toContainText('已支付');
  await row.getByRole('link', { name: '查看' }).click();
  await expect(page).toHaveURL(new RegExp(`/ops/billing/${orderNo}$`));
  // the sandbox's notification reaches the platform through the gateway's public notify URL
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('ops-notification-row').first()).toContainText('支付宝', { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByTestId('ops-notification-row').first()).toContainText(/已入账|重复通知/);
  await expect(page.getByTestId('ops-journal-row')).toHaveCount(1);
  await expect(page.getByTestId('ops-journal-row')).toContainText('+10');
  await page.getByText('手动对账').click();
  await page.getByRole('button', { name: '确认对账' }).click();
  await expect(page.getByRole('status').filter({ hasText: '已完成对账' })).toBeVisible();
  await expect(page.getByTestId('ops-journal-row')).toHaveCount(1);

  const reviewer = createOperator('reviewer');
  await page.getByRole('button', { name: '退出' }).click();
  await opsLoginAs(reviewer, page);
  const res = await page.goto(`/ops/billing/${orderNo}`);
  expect(res?.status()).toBe(403);
  await expect(page.getByRole('heading', { name: '无权访问' })).toBeVisible();
});

test('积分明细: the balance and every entry newest first with its label, signed points and balance after, paged; linked from the top bar and /buyCredits', async ({
  page,
  freshUser,
  request,
}) => {
  const user = await freshUser('/buyCredits');
  await startBuying(page, 50, '支付宝');
  await payAtAlipayCashier(page);
  await expect(page.getByTestId('pay-result')).toHaveText('支付成功');
  for (let i = 0; i < 21; i++) await spend(request, user.mobile, 1);

  // the top bar's points figure leads to the history
  await page.goto('/buyCredits');
  await page
    .locator('.topbar .points')
    .getByRole('link', { name: /^积分 \d+$/ })
    .click();
  await expect(page).toHaveURL(/\/points$/);
  await expect(page.getByRole('heading', { name: '积分明细' })).toBeVisible();
  await expect(page.getByTestId('points-balance')).toHaveText('29');
  const rows = page.getByTestId('points-row');
  await expect(rows).toHaveCount(20);
  const time = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
  await expect(rows.first().locator('td')).toHaveText([time, '公证消费', '-1', '29']);
  await expect(rows.nth(19).locator('td')).toHaveText([time, '公证消费', '-1', '48']);
  await expect(page.getByRole('link', { name: '购买积分' })).toHaveAttribute('href', '/buyCredits');

  // page 2: the two oldest entries, the recharge last
  await page.getByRole('navigation', { name: '分页' }).getByRole('link', { name: '下一页' }).click();
  await expect(page).toHaveURL(/\/points\?page=2$/);
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0).locator('td')).toHaveText([time, '公证消费', '-1', '49']);
  await expect(rows.nth(1).locator('td')).toHaveText([time, '充值', '+50', '50']);

  // /buyCredits links here too; the page holds at a phone's width
  await page.goto('/buyCredits');
  await page.getByRole('link', { name: '积分明细' }).click();
  await expect(page).toHaveURL(/\/points$/);
  await page.setViewportSize({ width: 375, height: 740 });
  const box = await page.locator('section.page').boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(375);
});

test('/buyCredits takes a custom amount in decimal digits only: 1e3 and 0x10 are refused and nothing is ordered', async ({
  page,
  freshUser,
}) => {
  await freshUser('/buyCredits');
  for (const custom of ['1e3', '0x10']) {
    await page.goto('/buyCredits');
    await page.getByLabel('自定义积分').fill(custom);
    await page.getByRole('radio', { name: '微信支付' }).check();
    await page.getByRole('button', { name: '立即支付' }).click();
    await expect(page.getByText(BillingMsg.integralDigits)).toBeVisible();
    await expect(page).toHaveURL(/\/buyCredits$/);
    await expect(page.getByLabel('自定义积分')).toHaveValue(custom);
  }
  await page.goto('/orders');
  await expect(page.getByTestId('order-row')).toHaveCount(0);
});
