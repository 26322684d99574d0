/**
 * Online notarisation end to end (decision 034; spec 02 §2 "Notary list", "Notary detail", "Notary order payment",
 * §4), JS on and off, as the verified demo account: points bought in the Alipay sandbox; two preserved evidences
 * picked on /notary/selectList; step 1 (the application, its messages), a later step's URL redirected to the current
 * step, step 2 signs the four documents (PDFs printed by the gateway and signed, PAdES), step 3 authorises the office
 * with the extraction code, step 4 pays with points (one consumption row); the notary office accepts and issues the
 * notarial certificate; the user downloads the four documents and the certificate, pdfsig reports every signature
 * valid, /queryAuthentication/notarial confirms the number and the file; the list shows 已支付 / 出证成功. Then
 * "end operation" before payment voids an order and after payment refunds the points; an unverified user is sent to
 * verification.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '../support/e2e-fixtures.ts';
import {
  apiLogin,
  createOperator,
  DEMO,
  ensureAddress,
  getText,
  makeFile,
  preserveFile,
} from '../support/e2e.ts';
import { pdfsig } from '../support/pdfsig.ts';

/** Buys `points` points with Alipay in the sandbox cashier. */
async function buyPoints(page: Page, points: number) {
  await page.goto('/buyCredits');
  await page.getByLabel('自定义积分').fill(String(points));
  await page.getByRole('radio', { name: '支付宝' }).check();
  await page.getByRole('button', { name: '立即支付' }).click();
  await expect(page).toHaveURL(/\/cashier\/[0-9a-f]{32}$/);
  await page.getByRole('button', { name: '支付成功' }).click();
  await expect(page.getByTestId('pay-result')).toHaveText('支付成功');
}

/** The demo account's balance, points (through the API with a token of its own). */
async function balance(request: APIRequestContext): Promise<number> {
  const { token } = await apiLogin(request, DEMO.mobile, DEMO.password);
  const res = await request.post('/api/user/getAuthInfo', { headers: { Authorization: `Bearer ${token}` } });
  return ((await res.json()) as { data: { points: number } }).data.points;
}

/** Preserves two files and creates an order over them on /notary/selectList; lands on step 1. Returns the order id. */
async function newOrder(page: Page, tag: string): Promise<{ id: string; type: string }> {
  const titles = [`公证证据甲-${tag}`, `公证证据乙-${tag}`];
  for (const [i, title] of titles.entries()) {
    await preserveFile(page, title, makeFile(`notary-${tag}-${i}.bin`, 2_000 + i).file);
  }
  await page.goto('/notary');
  await page.getByRole('link', { name: '新增公证' }).click();
  await expect(page).toHaveURL(/\/notary\/selectList$/);
  for (const title of titles) await page.getByRole('checkbox', { name: `选择 ${title}` }).check();
  await page.getByRole('button', { name: '提交订单' }).click();
  await expect(page).toHaveURL(/\/attestation-list\/readingMaterial\/applicationForm\/\d+\/1$/);
  const [, id, type] = /applicationForm\/(\d+)\/(\d+)$/.exec(page.url())!;
  return { id: id!, type: type! };
}

/** Fills and submits step 1 with the address `recipient`; lands on step 2. */
async function fillApplication(page: Page, recipient: string) {
  await page.getByLabel('公证用途').fill('民事诉讼');
  await page.getByLabel('使用地').fill('北京市');
  await page.getByLabel('公证书份数').fill('2');
  await page
    .getByTestId('notary-addresses')
    .getByRole('radio', { name: new RegExp(recipient) })
    .first()
    .check();
  await page.getByLabel('我已阅读并同意《公证告知书》').check();
  await page.getByRole('button', { name: '提交申请表' }).click();
  await expect(page).toHaveURL(/\/readingMaterial\/signature\/\d+\/1$/);
}

/**
 * Takes an order at step 2 through signing, authorisation and payment with points, or with Alipay in the sandbox
 * cashier (a recharge of the price that pays the order); lands on its detail.
 */
async function signAuthorisePay(page: Page, extractCode: string, payWith: 'points' | 'alipay' = 'points') {
  await page.getByRole('button', { name: '确认签署' }).click();
  await expect(page).toHaveURL(/\/readingMaterial\/deCode\/\d+\/1$/, { timeout: 60_000 });
  await page.getByLabel('提取码').fill('WRONGCODE');
  await page.getByRole('button', { name: '确认授权' }).click();
  await expect(getText(page, '提取码错误')).toBeVisible();
  await page.getByLabel('提取码').fill(extractCode);
  await page.getByRole('button', { name: '确认授权' }).click();
  await expect(page).toHaveURL(/\/readingMaterial\/pay\/\d+\/1$/);
  if (payWith === 'alipay') {
    await page.getByRole('radio', { name: '支付宝' }).check();
    await page.getByRole('button', { name: '确认支付' }).click();
    await expect(page).toHaveURL(/\/cashier\/[0-9a-f]{32}$/);
    await page.getByRole('button', { name: '支付成功' }).click();
    await expect(page).toHaveURL(/\/notary\/detail\?orderId=\d+&order_no=R[0-9A-Za-z]+/);
    await expect(page.getByRole('status').filter({ hasText: '支付成功' })).toBeVisible();
  } else {
    await page.getByRole('button', { name: '确认支付' }).click();
    await expect(page).toHaveURL(/\/notary\/detail\?orderId=\d+&type=1&done=paid$/);
  }
  await expect(page.getByTestId('detail-pay')).toHaveText('已支付');
}

/**
 * GETs `href` with the page's session (following the redirect to the signed link) and saves the PDF as `file` (the
 * test's output directory, which Playwright clears).
 */
async function savePdf(page: Page, href: string, file: string): Promise<{ file: string; sha256: string }> {
  const res = await page.request.get(href);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('application/pdf');
  const bytes = await res.body();
  writeFileSync(file, bytes);
  return { file, sha256: createHash('sha256').update(bytes).digest('hex') };
}

for (const payWith of ['points', 'alipay'] as const) {
  test(`notarisation: select two evidences, every step, ${payWith}, the office issues, documents and certificate verify`, async ({
    page,
    browser,
    loginAs,
    opsLoginAs,
    request,
  }, info) => {
    test.setTimeout(240_000);
    const tag = `${payWith}-${info.project.name}-${Date.now().toString(36)}`;
    const recipient = await ensureAddress(request);
    const { userInfo } = await apiLogin(request, DEMO.mobile, DEMO.password);
    await loginAs(DEMO, '/buyCredits');
    if (payWith === 'points') await buyPoints(page, 400);
    const before = await balance(request);

    const order = await newOrder(page, tag);
    // the application's rules, at their fields
    await page.getByRole('button', { name: '提交申请表' }).click();
    await expect(getText(page, '请阅读并同意《公证告知书》')).toBeVisible();
    // a later step's URL leads back to the current one
    await page.goto(`/attestation-list/readingMaterial/pay/${order.id}/1`);
    await expect(page).toHaveURL(new RegExp(`/readingMaterial/applicationForm/${order.id}/1$`));
    await fillApplication(page, recipient);
    await page.goto(`/attestation-list/readingMaterial/deCode/${order.id}/1`);
    await expect(page).toHaveURL(new RegExp(`/readingMaterial/signature/${order.id}/1$`));
    await expect(page.getByTestId('notary-documents').getByRole('link')).toHaveCount(4);
    await signAuthorisePay(page, userInfo.extractCode, payWith);
    // points: 400 spent; Alipay: 400 bought and spent
    expect(await balance(request)).toBe(payWith === 'points' ? before - 400 : before);
    // one consumption row for it on /orders (tab 2)
    const orderNo = (await page.getByTestId('notary-info').locator('.mono').first().textContent())!.trim();
    await page.goto('/orders?type=2');
    await expect(page.getByText(`公证订单${orderNo}`, { exact: true })).toHaveCount(1);

    // the notary office accepts and issues
    const office = createOperator('notary');
    const opsPage = await browser.newPage();
    await opsLoginAs(office, opsPage);
    await opsPage.goto(`/ops/notary/${order.id}`);
    await opsPage.getByText('受理', { exact: true }).click();
    await opsPage.getByRole('button', { name: '确认受理' }).click();
    await expect(opsPage.getByText('已受理').first()).toBeVisible();
    await opsPage.getByText('出证', { exact: true }).click();
    await opsPage.getByRole('button', { name: '确认出证' }).click();
    await expect(opsPage.getByText('已出证').first()).toBeVisible({ timeout: 60_000 });

    // the user: 已支付 / 出证成功, four signed documents and the certificate
    await page.goto(`/notary/detail?orderId=${order.id}&type=1`);
    await expect(page.getByTestId('detail-notarial')).toHaveText('出证成功');
    const pdfs = [];
    for (const type of [1, 2, 3, 4, 5]) {
      pdfs.push(
        await savePdf(
          page,
          `/notary/detail?orderId=${order.id}&type=1&doc=${type}`,
          info.outputPath(`notary-${tag}-${type}.pdf`),
        ),
      );
    }
    for (const [i, pdf] of pdfs.entries()) {
      const report = pdfsig(pdf.file);
      // the four documents by the platform, the notarial certificate by the notary office's own certificate
      // (the e2e servers name the office 测试市公证处: playwright.config.ts NOTARY_OFFICE)
      expect(report).toContain(`Signer Certificate Common Name: ${i < 4 ? '存证云' : '测试市公证处'}`);
      expect(report).toContain('Signature Type: ETSI.CAdES.detached');
      expect(report).toContain('Total document signed');
      expect(report).toContain('Signature Validation: Signature is Valid.');
    }
    // the paper copies: the user asks for them to be mailed, the office records the waybill, the user sees it
    await page.goto(`/notary/detail?orderId=${order.id}&type=1`);
    await page.getByRole('button', { name: '申请寄送纸质公证书' }).click();
    await expect(page.getByRole('status').filter({ hasText: '已申请寄送纸质公证书' })).toBeVisible();
    await opsPage.goto(`/ops/notary/${order.id}`);
    await opsPage.getByLabel('快递单号').fill('SF1234567890');
    await opsPage.getByRole('button', { name: '登记寄送' }).click();
    await expect(opsPage.getByText('已登记寄送').first()).toBeVisible();
    await opsPage.close();
    await page.goto(`/notary/detail?orderId=${order.id}&type=1`);
    await expect(page.getByTestId('detail-courier')).toHaveText('SF1234567890');
    // the list shows it paid and issued
    await page.goto('/notary');
    const row = page
      .getByTestId('notary-row')
      .filter({ has: page.getByRole('link', { name: '查看详情' }) })
      .first();
    await expect(row.getByTestId('notary-pay')).toHaveText('已支付');
    await expect(row.getByTestId('notary-notarial')).toHaveText('出证成功');

    // the public check confirms the number and the file
    const cert = pdfs[4]!;
    await page.goto(`/notary/detail?orderId=${order.id}&type=1`);
    const certNo = (await page.getByTestId('detail-certificate-no').textContent())!.trim();
    expect(certNo).toMatch(/^\(\d{4}\)存证云公字第\d{6}号$/);
    await page.goto('/queryAuthentication/notarial');
    await page.getByLabel('公证书编号').fill(certNo);
    await page.getByLabel(/SHA-256/).fill(cert.sha256);
    await page.getByRole('button', { name: /查询|核验/ }).click();
    await expect(page.getByText('文件一致')).toBeVisible();
    await expect(page.getByText(certNo).first()).toBeVisible();
  });
}

test('notarisation: end operation voids an unpaid order and refunds a paid one; an unverified user is sent to verification', async ({
  page,
  loginAs,
  freshUser,
  request,
}, info) => {
  test.setTimeout(180_000);
  const tag = `end-${info.project.name}-${Date.now().toString(36)}`;
  const recipient = await ensureAddress(request);
  const { userInfo } = await apiLogin(request, DEMO.mobile, DEMO.password);
  await loginAs(DEMO, '/buyCredits');
  await buyPoints(page, 400);

  // unpaid: ended and void
  const unpaid = await newOrder(page, `${tag}-a`);
  await page.goto('/notary');
  const rowOf = (id: string) =>
    page.getByTestId('notary-row').filter({ has: page.locator(`a[href*="/${id}/1"]`) });
  await rowOf(unpaid.id).getByText('结束操作').click();
  await expect(rowOf(unpaid.id).getByText('确认关闭此订单，关闭后订单将作废？')).toBeVisible();
  await rowOf(unpaid.id).getByRole('button', { name: '确认关闭' }).click();
  await expect(page.getByRole('status').filter({ hasText: '订单已关闭' })).toBeVisible();
  await page.goto(`/attestation-list/readingMaterial/applicationForm/${unpaid.id}/1`);
  await expect(page).toHaveURL(/\/notary$/);

  // paid, not accepted: ended with the points back
  const paid = await newOrder(page, `${tag}-b`);
  await fillApplication(page, recipient);
  await signAuthorisePay(page, userInfo.extractCode);
  const afterPay = await balance(request);
  await page.goto('/notary');
  const paidRow = page
    .getByTestId('notary-row')
    .filter({ has: page.locator(`a[href*="orderId=${paid.id}&"]`) });
  const paidNo = (await paidRow.locator('.mono').first().textContent())!.trim();
  await paidRow.getByText('结束操作').click();
  await paidRow.getByRole('button', { name: '确认关闭' }).click();
  await expect(page.getByRole('status').filter({ hasText: '订单已关闭，积分已退回' })).toBeVisible();
  expect(await balance(request)).toBe(afterPay + 400);
  // 消费记录 shows its consumption as given back, once (decision 019 "Refunded consumptions")
  await page.goto('/orders?type=2');
  const spend = page.getByTestId('order-row').filter({ hasText: `公证订单${paidNo}` });
  await expect(spend).toHaveCount(1);
  await expect(spend).toContainText('已退款');

  // an unverified user is sent to verification
  await freshUser('/notary', { verified: false });
  await page.goto('/notary/selectList');
  await expect(page).not.toHaveURL(/selectList/);
  await expect(page).toHaveURL(/no-type|kyc/);
});
