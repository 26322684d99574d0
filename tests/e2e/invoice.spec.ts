/**
 * Invoices (spec 02 §2 "Invoices", §3, §4 "Orders", "Invoice application status", §5 "Invoice heads", "Invoice
 * application", §9; decision 022), JS on and off, as the demo account: a special-invoice head (a missing bank field
 * shows 开户银行不能为空; edited, and deleted at the end so reruns and the other project stay under the 5-head
 * limit), two recharges bought in the Alipay sandbox and ticked on /orders, the application page (nothing ticked, a
 * forged money, the required choices, a remark of 151 characters refused), the application 待开票; the finance
 * operator issues it with a PDF; the user sees 已开票 and downloads the same bytes; a second application rejected
 * with a reason shows it and lets its order be ticked again; another user's application answers 404.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { creditCodeCheckChar } from '../../contract/validators.ts';
import { expect, test } from '../support/e2e-fixtures.ts';
import { createOperator, DEMO, ensureAddress, getText } from '../support/e2e.ts';

/** A valid unified social credit code (GB 32100) with a random organisation part. */
function creditCode(): string {
  const digits = Array.from(randomBytes(9), (b) => String(b % 10)).join('');
  const first17 = `91110108${digits}`;
  return first17 + creditCodeCheckChar(first17);
}

/** A tiny PDF the platform accepts by its bytes (`%PDF-`). */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
);

/** Buys 10 points with Alipay in the sandbox cashier (支付成功) and returns the order number. */
async function buyInSandbox(page: Page): Promise<string> {
  await page.goto('/buyCredits');
  await page.getByRole('radio', { name: /^10 积分/ }).check();
  await page.getByRole('radio', { name: '支付宝' }).check();
  await page.getByRole('button', { name: '立即支付' }).click();
  await expect(page).toHaveURL(/\/cashier\/[0-9a-f]{32}$/);
  await page.getByRole('button', { name: '支付成功' }).click();
  await expect(page).toHaveURL(/:\d+\/buyCredits\/result\?order_no=R[0-9A-Za-z]+$/);
  await expect(page.getByTestId('pay-result')).toHaveText('支付成功');
  return new URL(page.url()).searchParams.get('order_no')!;
}

/** Ticks the recharges `orderNos` on /orders and submits 申请开票; lands on /orders/makeOutInvoice. */
async function tickAndApply(page: Page, orderNos: string[]) {
  await page.goto('/orders');
  for (const no of orderNos) await page.getByRole('checkbox', { name: `选择订单${no}开票` }).check();
  await page.getByRole('button', { name: '申请开票' }).click();
  await expect(page).toHaveURL(/\/orders\/makeOutInvoice\?ids=\d+/);
  await expect(page.getByTestId('invoice-order-row')).toHaveCount(orderNos.length);
}

/** Chooses the head and the address on the application page and submits; lands on the list with 提交成功. */
async function chooseAndSubmit(
  page: Page,
  head: string,
  address: string,
): Promise<{ id: string; no: string }> {
  await page
    .getByTestId('userInvoiceId-choices')
    .getByRole('radio', { name: new RegExp(head) })
    .check();
  await page
    .getByTestId('userAddressId-choices')
    .getByRole('radio', { name: new RegExp(address) })
    .check();
  await page.getByRole('button', { name: '提交申请' }).click();
  await expect(page).toHaveURL(/\/invoice\?activeName=1&done=asked$/);
  await expect(page.getByRole('status').filter({ hasText: '提交成功' })).toBeVisible();
  const row = page.getByTestId('apply-row').first();
  await expect(row).toContainText('待开票');
  const href = await row.getByRole('link', { name: '查看详情' }).getAttribute('href');
  return {
    id: new URL(href!, 'http://x').searchParams.get('id')!,
    no: (await row.locator('td').first().textContent())!,
  };
}

/** As the finance operator: opens the application `no` from the queue. */
async function openInQueue(page: Page, no: string, status: 'waiting' | '3' | '4' = 'waiting') {
  await page.goto(status === 'waiting' ? '/ops/invoice' : `/ops/invoice?status=${status}`);
  await page
    .getByTestId('ops-invoice-row')
    .filter({ hasText: no })
    .getByRole('link', { name: status === 'waiting' ? '处理' : '查看' })
    .click();
  await expect(page.getByRole('heading', { name: new RegExp(no) })).toBeVisible();
}

/** Adds an electronic ordinary invoice head on /invoice?activeName=2. */
async function addElectronicHead(page: Page, head: string) {
  await page.goto('/invoice?activeName=2');
  await page.getByLabel('发票抬头').fill(head);
  await page.getByLabel('发票类型').selectOption('增值税电子普通发票');
  await page.getByLabel('纳税人识别号').fill(creditCode());
  await page.getByRole('button', { name: '保存发票抬头' }).click();
  await expect(page.getByRole('status').filter({ hasText: '新增成功' })).toBeVisible();
}

/** Deletes the head named `head` after the confirmation step. */
async function deleteHead(page: Page, head: string) {
  await page.goto('/invoice?activeName=2');
  const row = page.getByTestId('head-row').filter({ hasText: head });
  await row.getByText('删除', { exact: true }).click();
  await row.getByRole('button', { name: '确认删除' }).click();
  await expect(page.getByRole('status').filter({ hasText: '已删除该条发票抬头' })).toBeVisible();
  await expect(page.getByTestId('head-row').filter({ hasText: head })).toHaveCount(0);
}

test('invoices: heads, an application from two sandbox recharges issued with a PDF and downloaded, a rejected one ticked again', async ({
  page,
  loginAs,
  opsLoginAs,
  freshUser,
  request,
}, info) => {
  test.setTimeout(150_000);
  const tag = `${info.project.name}${randomBytes(2).toString('hex')}`;
  const special = `存证专票测试有限公司${tag}`;
  const electronic = `存证普票测试有限公司${tag}`;
  const address = await ensureAddress(request);

  // a special-invoice head: a missing bank field shows the spec's message; then saved, then edited
  await loginAs(DEMO, '/invoice?activeName=2');
  await page.getByLabel('发票抬头').fill(special);
  await page.getByLabel('发票类型').selectOption('增值税专用发票');
  await page.getByLabel('纳税人识别号').fill(creditCode());
  await page.getByLabel('银行账号').fill('6222020200001234567');
  await page.getByLabel('注册地址').fill('北京市海淀区中关村大街 1 号');
  await page.getByLabel('注册电话').fill('010-12345678');
  await page.getByRole('button', { name: '保存发票抬头' }).click();
  await expect(getText(page, '开户银行不能为空')).toBeVisible();
  await page.getByLabel('开户银行').fill('中国工商银行北京中关村支行');
  await page.getByRole('button', { name: '保存发票抬头' }).click();
  await expect(page.getByRole('status').filter({ hasText: '新增成功' })).toBeVisible();
  const headRow = page.getByTestId('head-row').filter({ hasText: special });
  await expect(headRow).toContainText('增值税专用发票');
  await headRow.getByRole('link', { name: '编辑' }).click();
  await expect(page.getByLabel('发票抬头')).toHaveValue(special);
  await page.getByLabel('注册电话').fill('010-87654321');
  await page.getByRole('button', { name: '保存发票抬头' }).click();
  await expect(page.getByRole('status').filter({ hasText: '修改成功' })).toBeVisible();
  await expect(page.getByTestId('head-row').filter({ hasText: special })).toContainText('010-87654321');
  // an electronic one too: its invoice is a file
  await addElectronicHead(page, electronic);

  // nothing ticked
  await page.goto('/orders');
  await page.getByRole('button', { name: '申请开票' }).click();
  await expect(getText(page, '请先勾选可供开票的订单记录')).toBeVisible();

  // two recharges bought in the sandbox, both ticked
  const first = await buyInSandbox(page);
  const second = await buyInSandbox(page);
  await tickAndApply(page, [first, second]);
  const ids = new URL(page.url()).searchParams.getAll('ids');
  expect(ids).toHaveLength(2);
  await expect(page.getByTestId('shipping-rules')).toContainText('增值税专用发票');
  const money = (await page.getByTestId('invoice-money').textContent())!;

  // a forged money is recomputed, and said so
  await page.goto(`/orders/makeOutInvoice?ids=[${ids.join(',')}]&money=1`);
  await expect(page.getByTestId('money-changed')).toBeVisible();
  await expect(page.getByTestId('invoice-money')).toHaveText(money);

  // the required choices and the remark's limit
  await page.getByRole('button', { name: '提交申请' }).click();
  await expect(getText(page, '请选择发票信息')).toBeVisible();
  await expect(getText(page, '请选择要送达的地址')).toBeVisible();
  await expect(page.getByLabel('备注')).toHaveAttribute('maxlength', '150');
  await page
    .getByTestId('userInvoiceId-choices')
    .getByRole('radio', { name: new RegExp(electronic) })
    .check();
  await page
    .getByTestId('userAddressId-choices')
    .getByRole('radio', { name: new RegExp(address) })
    .check();
  // a client that ignores maxlength: the server refuses 151 characters
  await page.getByLabel('备注').evaluate((el) => el.removeAttribute('maxlength'));
  await page.getByLabel('备注').fill('票'.repeat(151));
  await page.getByRole('button', { name: '提交申请' }).click();
  await expect(getText(page, '备注不能超过150个字符')).toBeVisible();
  await page.getByLabel('备注').fill('请尽快开具');
  const issued = await chooseAndSubmit(page, electronic, address);

  // the orders are in progress now
  await page.goto('/orders');
  await expect(page.getByTestId('order-row').filter({ hasText: first })).toContainText('该订单正在开票中');

  // the finance operator issues it with a PDF
  const op = createOperator('finance');
  await opsLoginAs(op, page);
  await openInQueue(page, issued.no);
  await expect(page.getByTestId('ops-invoice-order-row')).toHaveCount(2);
  // a file that only claims to be a PDF is refused by its bytes, at the file field
  await page.getByLabel('发票文件1').setInputFiles({
    name: 'fake.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('not a pdf at all'),
  });
  await page.getByRole('button', { name: '开票' }).click();
  await expect(getText(page, '发票文件须为PDF或OFD格式')).toBeVisible();
  await expect(page.getByTestId('ops-apply-status')).toHaveText('待开票');
  await page
    .getByLabel('发票文件1')
    .setInputFiles({ name: 'invoice.pdf', mimeType: 'application/pdf', buffer: PDF });
  await page.getByRole('button', { name: '开票' }).click();
  await expect(page).toHaveURL(/\/ops\?done=invoiceIssued$/);
  await expect(page.getByRole('status').filter({ hasText: '已开票' })).toBeVisible();
  // the operator can open the issued file from the application (the same bytes)
  await openInQueue(page, issued.no, '3');
  const [opsDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('ops-invoice-file-row').first().getByRole('link').click(),
  ]);
  expect(readFileSync((await opsDownload.path())!)).toEqual(PDF);

  // the user sees 已开票 and downloads the same bytes
  await page.goto('/invoice?activeName=1&status=3');
  await page
    .getByTestId('apply-row')
    .filter({ hasText: issued.no })
    .getByRole('link', { name: '查看详情' })
    .click();
  await expect(page.getByTestId('apply-status')).toHaveText('已开票');
  await expect(page.getByTestId('invoice-order-row')).toHaveCount(2);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('invoice-file-row').first().getByRole('link', { name: '下载' }).click(),
  ]);
  expect(readFileSync((await download.path())!)).toEqual(PDF);
  await page.goto('/orders');
  await expect(page.getByTestId('order-row').filter({ hasText: second })).toContainText('该订单已开票');

  // a second application (the special head), rejected with a reason: its order can be ticked again
  const third = await buyInSandbox(page);
  await tickAndApply(page, [third]);
  const rejected = await chooseAndSubmit(page, special, address);
  await openInQueue(page, rejected.no);
  await page.getByRole('button', { name: '拒绝' }).click();
  await expect(getText(page, '请填写拒绝原因')).toBeVisible();
  await page.getByLabel('拒绝原因').fill('纳税人识别号与抬头不符');
  await page.getByRole('button', { name: '拒绝' }).click();
  await expect(page).toHaveURL(/\/ops\?done=invoiceRejected$/);
  await page.goto(`/invoice/details?id=${rejected.id}`);
  await expect(page.getByTestId('apply-status')).toHaveText('审核不通过');
  await expect(page.getByTestId('reject-reason')).toContainText('纳税人识别号与抬头不符');
  await page.goto('/orders');
  const row = page.getByTestId('order-row').filter({ hasText: third });
  await expect(row).toContainText('开票失败');
  await expect(row.getByRole('checkbox', { name: `选择订单${third}开票` })).toBeVisible();
  // the reason is one link away (spec 02 §4: failed allows viewing the failure reason)
  await row.getByRole('link', { name: /^查看原因/ }).click();
  await expect(page).toHaveURL(new RegExp(`/invoice/details\\?id=${rejected.id}$`));
  await expect(page.getByTestId('reject-reason')).toContainText('纳税人识别号与抬头不符');

  // clean up the heads (the demo account is shared; at most 5)
  await deleteHead(page, special);
  await deleteHead(page, electronic);

  // another user: the application answers 404
  await freshUser('/invoice');
  const res = await page.goto(`/invoice/details?id=${issued.id}`);
  expect(res?.status()).toBe(404);
});
