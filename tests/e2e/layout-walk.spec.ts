/**
 * Every page laid out with a real CJK font (decision 049), with JavaScript on and off, at 375 and 1280 CSS px: no
 * page wider than the screen, no element sticking out of its box, no short term broken over lines, no control under
 * 24 × 24 px without WCAG 2.2 2.5.8's exceptions, no axe violation of impact serious or critical
 * (tests/support/layout-walk.ts, tests/support/layout-check.ts). Every route of app/routes.ts that renders a page is
 * walked once per width, with real rows: a fresh verified user's evidence of each kind, captures, points, orders, an
 * invoice application, a notarisation order at each of its steps, KYC states, a batch of promotion codes and one
 * redeemed, and the console as an operator of each role. Left out are the routes that render no page of their own: the ledger's files (checkpoint, tiles, keys),
 * /verify/offline (a download), the console's file routes and the previewProgress guard (a redirect).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '../support/e2e-fixtures.ts';
import { apiLogin, createOperator, getText, preserveFile, TINY_PNG } from '../support/e2e.ts';
import {
  addAddress,
  addInvoiceHead,
  appUpload,
  buyWithAlipay,
  LONG_TITLE,
  pendingAlipay,
  pendingWechat,
  preserveHash,
  preserveMusic,
  preserveUserData,
  startCaptureSite,
  submitPersonalKyc,
  uniqueIdCard,
} from '../support/layout-data.ts';
import { walkPages } from '../support/layout-walk.ts';

/** An image file under a long Chinese name (an image: the certificate then links a preview). */
function pngFile(): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cz-layout-')), `${LONG_TITLE}.png`);
  fs.writeFileSync(file, TINY_PNG);
  return file;
}

/** The number at the end of the page's path (a certificate's, an order's). */
const lastSegment = (url: string) => decodeURIComponent(new URL(url).pathname.split('/').pop()!);

test('public pages', async ({ page }, info) => {
  test.setTimeout(360_000);
  const problems = await walkPages(page, info, [
    '/',
    '/home',
    '/helpCenter',
    '/activity',
    '/appDownload',
    '/user-agreement',
    '/privacy',
    '/clause',
    '/login',
    '/register',
    '/forgetpwd',
    '/logout',
    '/verify',
    '/queryAuthentication',
    '/queryAuthentication/safekeeping',
    '/queryAuthentication/certificate',
    '/queryAuthentication/keepSingle',
    '/queryAuthentication/electronicData',
    '/queryAuthentication/mutualEvidence',
    '/queryAuthentication/notarial',
    '/English/safekeeping',
    '/ops/login',
    { path: '/404', status: 404 },
    { path: '/no-such-page', status: 404 },
  ]);
  expect(problems).toEqual([]);
});

test('evidence of each kind: lists, forms, certificates, previews, the ledger and the public look-ups', async ({
  page,
  freshUser,
}, info) => {
  test.setTimeout(480_000);
  await freshUser('/newAccessCard');
  const file = await preserveFile(page, LONG_TITLE, pngFile());
  const mobile = new URL((await page.getByTestId('mobile-link').getAttribute('href'))!).pathname;
  const token = mobile.split('/').pop()!;
  const preview = (await page.getByTestId('preview-link').getAttribute('href'))!;
  const chain = (await page.getByTestId('chainhash').textContent())!.trim();
  const hash = await preserveHash(page, `${LONG_TITLE}（哈希）`);
  const data = await preserveUserData(page, `${LONG_TITLE}（数据）`);
  const music = await preserveMusic(page, `${LONG_TITLE}（音乐）`);
  const problems = await walkPages(page, info, [
    '/attestation-list',
    '/attestation-list/file',
    '/attestation-list/hash',
    '/attestation-list/property',
    '/attestation-list/download',
    '/newAccessCard',
    '/newAccessHashCard',
    '/newProperty',
    '/evidences-all/music',
    '/evidences-all/music/new',
    `/attestation/${file}`,
    preview,
    `/attestation/${file}/print`,
    `/English/attestation/${file}`,
    `/English/attestation/${file}/print`,
    `/attestation/${hash}`,
    `/attestation/${data}`,
    `/English/attestation/${data}`,
    `/attestation/${music}`,
    `/evidencesPro/${file}`,
    `/evidencesWeb/${file}`,
    mobile,
    `/mobile/preview/${token}/2/${file}`,
    `/mobile/previewDoc/${token}/1`,
    `/mobile/previewProgress/${token}`,
    `/chain/tx/${chain}?baoquan=${file}`,
    `/queryAuthentication/safekeeping?no=${file}`,
    `/queryAuthentication/certificate?baoquan=${file}`,
    `/English/safekeeping?no=${file}`,
    '/notifications',
  ]);
  expect(problems).toEqual([]);
});

test('online captures: web and process captures of the local site, an app upload', async ({
  page,
  freshUser,
  baseURL,
  request,
}, info) => {
  test.setTimeout(480_000);
  const site = await startCaptureSite(baseURL!);
  try {
    const user = await freshUser('/newWeb');
    await page.getByLabel('网址').fill(site.url);
    await page.getByLabel('证据名称').fill(`${LONG_TITLE}（网页）`);
    await page.getByRole('button', { name: '开始取证' }).click();
    await expect(page).toHaveURL(/\/evidences-all\/web\?job=\d+$/);
    await page.goto('/newProcess');
    await page.getByLabel('第 1 步的网址、元素或数值').fill(site.url);
    await page.getByLabel('证据名称').fill(`${LONG_TITLE}（过程）`);
    await page.getByRole('button', { name: '开始取证' }).click();
    await expect(page).toHaveURL(/\/evidences-all\/process\/queue\/\d+$/);
    const queue = new URL(page.url()).pathname;
    // the progress pages refresh themselves until the job ends: walked once it has
    await expect(page.getByTestId('queue-status')).toHaveAttribute('data-status', 'done', {
      timeout: 120_000,
    });
    await page.goto('/evidences-all/web');
    const web = page.getByTestId('capture-row').first();
    await expect(web).toHaveAttribute('data-status', 'done', { timeout: 120_000 });
    await web.getByRole('link', { name: /查看证书/ }).click();
    await expect(page).toHaveURL(/\/attestation\/BQ[0-9A-Z]+$/);
    const webNo = lastSegment(page.url());
    await page.goto('/evidences-all/process');
    await page
      .getByTestId('capture-row')
      .first()
      .getByRole('link', { name: /查看证书/ })
      .click();
    await expect(page).toHaveURL(/\/attestation\/BQ[0-9A-Z]+$/);
    const processNo = lastSegment(page.url());
    const app = await appUpload(request, user, baseURL!);
    const problems = await walkPages(page, info, [
      '/newWeb',
      '/newProcess',
      '/newMobile',
      '/evidences-all',
      '/evidences-all/web',
      '/evidences-all/process',
      queue,
      `/evidences-all/process/preview?baoquan=${processNo}`,
      '/evidences-all/mobile-process',
      `/evidences-all/mobile/queue/${app}`,
      `/attestation/${webNo}`,
      `/attestation/${processNo}`,
      `/attestation/${app}`,
      '/kyc-info',
    ]);
    expect(problems).toEqual([]);
  } finally {
    await site.close();
  }
});

test('account, points, orders and invoices, and the finance console', async ({
  page,
  freshUser,
  opsLoginAs,
  request,
}, info) => {
  test.setTimeout(480_000);
  const user = await freshUser('/buyCredits');
  await addAddress(request, user);
  await addInvoiceHead(request, user);
  const paid = await buyWithAlipay(page, 120);
  const pending = await pendingWechat(page);
  const handoff = await pendingAlipay(request, user);
  // an invoice application over the paid recharge
  await page.goto('/orders');
  await page.getByRole('checkbox', { name: `选择订单${paid}开票` }).check();
  await page.getByRole('button', { name: '申请开票' }).click();
  await expect(page).toHaveURL(/\/orders\/makeOutInvoice\?ids=\d+/);
  const makeOut = new URL(page.url());
  await page.getByTestId('userInvoiceId-choices').getByRole('radio').first().check();
  await page.getByTestId('userAddressId-choices').getByRole('radio').first().check();
  await page.getByRole('button', { name: '提交申请' }).click();
  await expect(page).toHaveURL(/\/invoice\?activeName=1&done=asked$/);
  const details = (await page
    .getByTestId('apply-row')
    .first()
    .getByRole('link', { name: '查看详情' })
    .getAttribute('href'))!;
  const applyId = new URL(details, 'http://x').searchParams.get('id')!;
  // a signature seal, a row with an image
  await page.goto('/signature');
  await page.getByLabel('签章名称').fill('杭州存证云电子数据司法鉴定科技服务有限公司合同专用章');
  await page
    .getByLabel('签章图片（PNG，不超过10MB）')
    .setInputFiles({ name: 'seal.png', mimeType: 'image/png', buffer: TINY_PNG });
  await page.getByRole('button', { name: '上传签章' }).click();
  await expect(page.getByRole('status').filter({ hasText: '添加成功' })).toBeVisible();
  await opsLoginAs(createOperator('finance'), page);
  const problems = await walkPages(page, info, [
    '/setting',
    '/signature',
    '/address',
    '/buyCredits',
    '/points',
    `/buyCredits/pay/${handoff}`,
    `/buyCredits/result?order_no=${paid}`,
    `/weChat/${pending}`,
    '/orders',
    '/orders?type=2',
    `${makeOut.pathname}${makeOut.search}`,
    '/invoice',
    '/invoice?activeName=2',
    details,
    '/ops',
    '/ops/billing',
    `/ops/billing/${paid}`,
    '/ops/invoice',
    `/ops/invoice/${applyId}`,
  ]);
  expect(problems).toEqual([]);
});

test('real-name verification, its forms and states, and the reviewer console', async ({
  page,
  freshUser,
  opsLoginAs,
  request,
}, info) => {
  test.setTimeout(360_000);
  // unverified: the choice, both forms, the face method's QR page, the template
  await freshUser('/personage-kyc?method=face', { verified: false });
  await page.getByLabel('姓名').fill('欧阳诸葛明');
  await page.getByLabel('身份证号码').fill(uniqueIdCard());
  await page.getByLabel('身份证地址').fill('内蒙古自治区呼和浩特市赛罕区敕勒川大街100号');
  await page.getByLabel('我已阅读并同意实名认证').check();
  await page.getByRole('button', { name: '下一步' }).click();
  await expect(page).toHaveURL(/\/personage-face-kyc\?certify_id=/);
  const face = new URL(page.url());
  await expect(getText(page, '认证完成前请不要关闭本页面')).toBeVisible();
  const unverified = await walkPages(page, info, [
    '/no-type',
    '/personage-kyc',
    '/personage-kyc?method=face',
    '/organization-kyc',
    `${face.pathname}${face.search}`,
    '/kyc/authorization-template',
  ]);
  // submitted: waiting for review, as the user and in the reviewer's queue
  const waiting = await freshUser('/person-info', { verified: false });
  await submitPersonalKyc(request, waiting);
  await opsLoginAs(createOperator('reviewer'), page);
  await page.goto('/ops/kyc');
  const review = (await page
    .getByTestId('ops-row')
    .filter({ hasText: waiting.mobile })
    .getByRole('link', { name: '审核' })
    .getAttribute('href'))!;
  const submitted = await walkPages(page, info, ['/person-info', '/personage-kyc', '/ops/kyc', review]);
  expect([...unverified, ...submitted]).toEqual([]);
});

test('notarisation: each step, the detail, the documents, and the notary office console', async ({
  page,
  freshUser,
  opsLoginAs,
  request,
}, info) => {
  test.setTimeout(600_000);
  const user = await freshUser('/buyCredits');
  await addAddress(request, user);
  await buyWithAlipay(page, 400);
  const { userInfo } = await apiLogin(request, user.mobile, user.password);
  // a long title, and a short one that a squeezed column would break (设计稿最/终版)
  const titles = [`${LONG_TITLE}（公证）`, '设计稿最终版'];
  for (const title of titles) await preserveFile(page, title, pngFile());
  const problems = await walkPages(page, info, ['/notary', '/notary/selectList']);
  await page.goto('/notary/selectList');
  for (const title of titles) await page.getByRole('checkbox', { name: `选择 ${title}` }).check();
  await page.getByRole('button', { name: '提交订单' }).click();
  await expect(page).toHaveURL(/\/applicationForm\/\d+\/1$/);
  const [, id, type] = /applicationForm\/(\d+)\/(\d+)$/.exec(page.url())!;
  const step = (name: string) => `/attestation-list/readingMaterial/${name}/${id}/${type}`;
  problems.push(...(await walkPages(page, info, [step('applicationForm')])));
  // step 1 → 2
  await page.goto(step('applicationForm'));
  await page.getByLabel('公证用途').fill('民事诉讼');
  await page.getByLabel('使用地').fill('内蒙古自治区呼和浩特市');
  await page.getByLabel('公证书份数').fill('2');
  await page.getByTestId('notary-addresses').getByRole('radio').first().check();
  await page.getByLabel('我已阅读并同意《公证告知书》').check();
  await page.getByRole('button', { name: '提交申请表' }).click();
  await expect(page).toHaveURL(/\/readingMaterial\/signature\/\d+\/1$/);
  problems.push(
    ...(await walkPages(page, info, [
      step('signature'),
      ...[1, 2, 3, 4].map((doc) => `/notary/document/${id}/${doc}`),
    ])),
  );
  // step 2 → 3 → 4
  await page.goto(step('signature'));
  await page.getByRole('button', { name: '确认签署' }).click();
  await expect(page).toHaveURL(/\/readingMaterial\/deCode\/\d+\/1$/, { timeout: 90_000 });
  problems.push(...(await walkPages(page, info, [step('deCode')])));
  await page.goto(step('deCode'));
  await page.getByLabel('提取码').fill(userInfo.extractCode);
  await page.getByRole('button', { name: '确认授权' }).click();
  await expect(page).toHaveURL(/\/readingMaterial\/pay\/\d+\/1$/);
  problems.push(...(await walkPages(page, info, [step('pay')])));
  await page.goto(step('pay'));
  await page.getByRole('button', { name: '确认支付' }).click();
  await expect(page).toHaveURL(/\/notary\/detail\?orderId=\d+&type=1&done=paid$/);
  // the office accepts (the certificate's print view exists until it is issued), then issues
  await opsLoginAs(createOperator('notary'), page);
  await page.goto(`/ops/notary/${id}`);
  await page.getByText('受理', { exact: true }).click();
  await page.getByRole('button', { name: '确认受理' }).click();
  await expect(page.getByText('已受理').first()).toBeVisible();
  problems.push(
    ...(await walkPages(page, info, [
      '/ops/notary',
      `/ops/notary/${id}`,
      `/ops/notary/${id}/certificate`,
      `/notary/detail?orderId=${id}&type=${type}`,
    ])),
  );
  await page.goto(`/ops/notary/${id}`);
  await page.getByText('出证', { exact: true }).click();
  await page.getByRole('button', { name: '确认出证' }).click();
  await expect(page.getByText('已出证').first()).toBeVisible({ timeout: 90_000 });
  await page.goto(`/notary/detail?orderId=${id}&type=${type}`);
  const certNo = (await page.getByTestId('detail-certificate-no').textContent())!.trim();
  problems.push(
    ...(await walkPages(page, info, [
      `/notary/detail?orderId=${id}&type=${type}`,
      '/notary',
      `/ops/notary?state=3`,
      `/queryAuthentication/notarial?number=${encodeURIComponent(certNo)}`,
      '/notifications',
    ])),
  );
  expect(problems).toEqual([]);
});

test('the console home, audit log, ledger witnesses and jobs, as an operator with every role', async ({
  page,
  opsLoginAs,
}, info) => {
  test.setTimeout(240_000);
  await opsLoginAs(createOperator('reviewer,finance,notary,admin'), page);
  const problems = await walkPages(page, info, [
    '/ops',
    '/ops/audit',
    '/ops/ledger',
    '/ops/jobs',
    '/ops/logout',
  ]);
  expect(problems).toEqual([]);
});

test('promotion codes: the redeem page, and the finance console batches with a batch of codes', async ({
  page,
  freshUser,
  opsLoginAs,
}, info) => {
  test.setTimeout(240_000);
  await opsLoginAs(createOperator('finance'), page);
  await page.goto('/ops/promo');
  const form = page.getByRole('form', { name: '生成兑换码' });
  await form.getByLabel('批次名称').fill(LONG_TITLE.slice(0, 50));
  await form.getByLabel('备注').fill(LONG_TITLE.slice(0, 200));
  await form.getByLabel('每次兑换积分').fill('50000');
  await form.getByLabel('兑换码数量').fill('30');
  await form.getByLabel('每码可用次数').fill('10000');
  const expiry = new Date(Date.now() + 30 * 86400_000).toISOString().slice(0, 10);
  await form.getByLabel('有效期至').fill(expiry);
  await form.getByRole('button', { name: '生成' }).click();
  await expect(page).toHaveURL(/\/ops\/promo\/\d+\?done=minted$/);
  const batch = new URL(page.url()).pathname;
  const code = (await page.getByTestId('promo-code-row').first().locator('td.mono').textContent())!.trim();
  await freshUser('/redeem');
  await page.getByLabel('兑换码').fill(code);
  await page.getByRole('button', { name: '立即兑换' }).click();
  await expect(page).toHaveURL(/\/redeem\?redeemed=50000$/);
  const problems = await walkPages(page, info, ['/redeem', '/redeem?redeemed=50000', '/ops/promo', batch]);
  expect(problems).toEqual([]);
});
