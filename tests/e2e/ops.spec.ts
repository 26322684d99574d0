/**
 * The operator console (decisions 011, 013), JS on and off. Its own login (guarded pages, the messages, a wrong
 * password), the queue tabs, a submission's detail with masked numbers and the images, a reject that needs a
 * remark, the audit log with the decision, and logout; the roles (decision 015): the home lists only the permitted
 * queues and a queue without its role answers 403. The KYC screens themselves are in kyc.spec.ts.
 */
import { randomInt } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { idCardCheckChar } from '../../contract/validators.ts';
import { expect, test } from '../support/e2e-fixtures.ts';
import {
  apiLogin,
  apiRegister,
  createOperator,
  DEMO,
  logoutViaMenu,
  TINY_PNG,
  uniqueMobile,
  getText,
} from '../support/e2e.ts';

/**
 * A random valid ID number of a woman born 1950–1998: one number verifies one personal account (decision 025), so
 * every submission needs its own.
 */
function uniqueIdCard(): string {
  const birth = new Date(Date.UTC(1950, 0, 1) + randomInt(0, 17_500) * 86_400_000);
  const ymd = birth.toISOString().slice(0, 10).replaceAll('-', '');
  const first17 = `110102${ymd}${String(randomInt(0, 500) * 2).padStart(3, '0')}`;
  return first17 + idCardCheckChar(first17);
}

/** A new user with a personal photo submission waiting for review (made through the API). */
async function submittedUser(request: APIRequestContext): Promise<{ mobile: string; idCard: string }> {
  const idCard = uniqueIdCard();
  const mobile = uniqueMobile();
  await apiRegister(request, mobile, 'abc12345');
  const { token } = await apiLogin(request, mobile, 'abc12345');
  const image = (name: string) => ({ name, mimeType: 'image/png', buffer: TINY_PNG });
  const res = await request.post('/api/peruser/perAuthorize', {
    headers: { Authorization: `Bearer ${token}` },
    multipart: {
      userName: '赵六',
      idCard,
      sex: '1',
      type: '1',
      address: '北京市西城区西长安街1号',
      consent: '1',
      authorFront: image('front.png'),
      authorBack: image('back.png'),
      authorHand: image('hand.png'),
    },
  });
  const body = (await res.json()) as { code: number; msg: string };
  expect(body.code, body.msg).toBe(200);
  return { mobile, idCard };
}

test('operator console: separate login, queue, detail, reject needs a remark, audit log, logout', async ({
  page,
  request,
}) => {
  const op = createOperator();
  const { mobile, idCard } = await submittedUser(request);

  await page.goto('/ops');
  await expect(page).toHaveURL(/:\d+\/ops\/login\?redirect=%2Fops$/);
  await expect(page.locator('.topbar')).toHaveCount(0); // bare console pages
  await page.getByRole('button', { name: '登录' }).click();
  await expect(getText(page, '请输入用户名')).toBeVisible();
  await expect(getText(page, '请输入密码')).toBeVisible();
  await page.getByLabel('用户名').fill(op.username);
  await page.getByLabel('密码').fill('wrong-password');
  await page.getByRole('button', { name: '登录' }).click();
  await expect(getText(page, '用户名或密码错误')).toBeVisible();
  await page.getByLabel('用户名').fill(op.username);
  await page.getByLabel('密码').fill(op.password);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page).toHaveURL(/:\d+\/ops$/);
  await expect(getText(page, `操作员：${op.username}`)).toBeVisible();

  // the queue: the waiting submission, masked in the detail, with its three photos
  const row = page.getByTestId('ops-row').filter({ hasText: mobile });
  await expect(row).toContainText('赵六');
  await expect(row).toContainText('待审核');
  await row.getByRole('link', { name: '审核' }).click();
  await expect(getText(page, `110***********${idCard.slice(-4)}`)).toBeVisible();
  await expect(getText(page, idCard)).toHaveCount(0);
  const images = page.locator('.ops-images img');
  await expect(images).toHaveCount(3);
  const src = await images.first().getAttribute('src');
  expect(src).toMatch(/^\/api\/kyc\/image\//);
  expect((await page.request.get(src!)).status()).toBe(200);

  // reject: a remark is required; the decision lands in the 已驳回 tab and the audit log
  await page.getByRole('button', { name: '驳回' }).click();
  await expect(getText(page, '请填写驳回原因')).toBeVisible();
  await page.getByLabel('驳回原因').fill('手持照片看不清');
  await page.getByRole('button', { name: '驳回' }).click();
  await expect(page).toHaveURL(/:\d+\/ops\?done=rejected$/);
  await expect(getText(page, '已驳回该实名认证')).toBeVisible();
  await expect(page.getByTestId('ops-row').filter({ hasText: mobile })).toHaveCount(0);
  await page.getByRole('link', { name: '已驳回' }).click();
  await expect(page.getByTestId('ops-row').filter({ hasText: mobile })).toContainText('已驳回');
  await page.getByRole('link', { name: '审计日志' }).click();
  await expect(page).toHaveURL(/:\d+\/ops\/audit$/);
  const entry = page.getByTestId('audit-row').filter({ hasText: mobile });
  await expect(entry).toContainText('驳回');
  await expect(entry).toContainText('手持照片看不清');
  await expect(entry).toContainText(op.username);

  // logout ends the console session only
  await page.getByRole('button', { name: '退出' }).click();
  await expect(page).toHaveURL(/:\d+\/ops\/login\?done=logout$/);
  await expect(getText(page, '已退出运营后台')).toBeVisible();
  await page.goto('/ops/audit');
  await expect(page).toHaveURL(/:\d+\/ops\/login\?redirect=%2Fops%2Faudit$/);
});

test('the operator and the user sessions of one browser end independently', async ({
  page,
  loginAs,
  opsLoginAs,
}) => {
  const op = createOperator();
  await opsLoginAs(op, page);
  await expect(getText(page, `操作员：${op.username}`)).toBeVisible();
  const cookieNames = async () => (await page.context().cookies()).map((c) => c.name);
  expect(await cookieNames()).toContain('cz_ops');

  // the user logs in and out in the same browser: the console stays open
  await loginAs(DEMO, '/notifications');
  await logoutViaMenu(page);
  expect(await cookieNames()).not.toContain('cz_session');
  await page.goto('/ops');
  await expect(page).toHaveURL(/:\d+\/ops$/);
  await expect(getText(page, `操作员：${op.username}`)).toBeVisible();

  // the operator logs out: the user's login stays
  await loginAs(DEMO, '/notifications');
  await page.goto('/ops');
  await page.getByRole('button', { name: '退出' }).click();
  await expect(page).toHaveURL(/:\d+\/ops\/login\?done=logout$/);
  expect(await cookieNames()).not.toContain('cz_ops');
  await page.goto('/notifications');
  await expect(page).toHaveURL(/:\d+\/notifications$/);
});

test('roles: the home lists only the permitted queues; a queue without its role answers 403 无权访问', async ({
  page,
}) => {
  const op = createOperator('admin'); // a role with no queue (it reads the audit log, the ledger's witnesses, the jobs)
  await page.goto('/ops/login');
  await page.getByLabel('用户名').fill(op.username);
  await page.getByLabel('密码').fill(op.password);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page).toHaveURL(/:\d+\/ops$/);
  await expect(getText(page, '暂无可处理的队列')).toBeVisible();
  await expect(page.getByTestId('ops-row')).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: '运营后台' }).getByRole('link')).toHaveText([
    '工作台',
    '审计日志',
    '账本见证',
    '后台任务',
  ]);
  const res = await page.goto('/ops/kyc');
  expect(res?.status()).toBe(403);
  await expect(page.getByRole('heading', { name: '无权访问' })).toBeVisible();
  await expect(getText(page, `操作员：${op.username}`)).toBeVisible();

  // a reviewer's home lists the KYC queue and links it
  const reviewer = createOperator('reviewer');
  await page.getByRole('button', { name: '退出' }).click();
  await page.getByLabel('用户名').fill(reviewer.username);
  await page.getByLabel('密码').fill(reviewer.password);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page.getByRole('heading', { name: /实名审核/ })).toBeVisible();
  await page.getByRole('navigation', { name: '运营后台' }).getByRole('link', { name: '实名审核' }).click();
  await expect(page).toHaveURL(/:\d+\/ops\/kyc$/);
  await expect(page.getByRole('heading', { name: '实名认证审核' })).toBeVisible();
});
