/**
 * Real-name verification (spec 02 §2 KYC screens, §4 userStatus and face flow, §6 the gate; decisions 010–012), JS
 * on and off: a new user goes 1 → 2 → 3 by the photo method with an operator's approval in /ops and can then save
 * evidence; an enterprise goes 1 → 2 → 4 (rejected with a remark: remark shown, form editable and reset) →
 * resubmits (2); a third user passes the face method through the sandbox page and lands on /person-info with the
 * face banner; an unverified user's upload is refused with the gate message and link.
 */
import type { Browser, Page, TestInfo } from '@playwright/test';
import { expect, test } from '../support/e2e-fixtures.ts';
import { KycGateMsg, KycMsg } from '../../contract/kyc.ts';
import { idCardCheckChar } from '../../contract/validators.ts';
import { createOperator, makeFile, preserveFile, TINY_PNG, getText } from '../support/e2e.ts';

const ID_AGENT = '11010519491231002X'; // birth date 1949-12-31
const ID_OTHER = '110101199003070011';

/**
 * A valid ID number of its own for each project: one number verifies one personal account (decision 025) and both
 * projects run against one server. `first17` is the js-on number's first 17 characters; js-off bumps its sequence by
 * 2 (same sex).
 */
function projectId(info: TestInfo, first17: string): string {
  const own =
    info.project.name === 'js-on'
      ? first17
      : `${first17.slice(0, 14)}${String(Number(first17.slice(14)) + 2).padStart(3, '0')}`;
  return own + idCardCheckChar(own);
}
const USCC = '91350100M000100Y43';

const png = (name: string) => ({ name, mimeType: 'image/png', buffer: TINY_PNG });

/** Picks the personal method: the radio navigates with JavaScript; without it the GET form's 确定 does. */
async function chooseMethod(page: Page, info: TestInfo, label: string, method: 'photo' | 'face') {
  if (info.project.name === 'js-on') await page.waitForLoadState('networkidle');
  await page.getByLabel(label).check();
  if (info.project.name === 'js-off') await page.getByRole('button', { name: '确定' }).click();
  await expect(page).toHaveURL(new RegExp(`method=${method}`));
}

/** A second browser context (same project settings) for the operator. */
export async function operatorPage(browser: Browser, info: TestInfo): Promise<Page> {
  const context = await browser.newContext({
    baseURL: info.project.use.baseURL,
    javaScriptEnabled: info.project.use.javaScriptEnabled,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
  });
  return context.newPage();
}

/** Opens the waiting submission of `mobile` from the queue. */
async function openReview(ops: Page, mobile: string) {
  await ops.goto('/ops?status=2');
  const row = ops.getByTestId('ops-row').filter({ hasText: mobile });
  await expect(row).toHaveCount(1);
  await row.getByRole('link', { name: '审核' }).click();
  await expect(ops).toHaveURL(/\/ops\/kyc\/\d+$/);
}

test('personal photo method: validation, under review, approved by an operator, then evidence can be saved', async ({
  page,
  browser,
  freshUser,
  opsLoginAs,
}, info) => {
  const user = await freshUser('/attestation-list/file', { verified: false });
  const tip = page.locator('.verify-tip');
  await expect(tip).toContainText('您的账号尚未实名认证');
  await tip.getByRole('link', { name: '去认证' }).click();
  await expect(page).toHaveURL(/:\d+\/no-type$/);
  await expect(page.getByRole('heading', { name: '您尚未进行实名认证' })).toBeVisible();
  await page.getByRole('link', { name: '个人认证' }).click();
  await expect(page).toHaveURL(/:\d+\/personage-kyc$/);
  await chooseMethod(page, info, KycMsg.photoMethodLabel, 'photo');

  // every required message at once
  await page.getByRole('button', { name: '提交', exact: true }).click();
  for (const msg of [
    '姓名不能为空',
    '请填写身份证号码',
    '性别不能为空',
    '请输入身份证地址',
    '请上传身份证正面照片',
    '请上传身份证反面照片',
    '请上传手持身份证照片',
    '请先同意实名认证',
  ]) {
    await expect(getText(page, msg, { exact: true })).toBeVisible();
  }
  // wrong formats
  await page.getByLabel('姓名').fill('Zhang San');
  await page.getByLabel('身份证号码').fill('110105194912310021'); // wrong check digit
  await page.getByRole('button', { name: '提交', exact: true }).click();
  await expect(getText(page, '请输入不超过16个字的中文姓名')).toBeVisible();
  await expect(getText(page, '请输入正确格式的身份证号码')).toBeVisible();

  await page.getByLabel('姓名').fill('张三');
  const personalId = projectId(info, ID_AGENT.slice(0, 17));
  await page.getByLabel('身份证号码').fill(personalId);
  await page.getByLabel('女').check();
  await page.getByLabel('身份证地址').fill('北京市朝阳区建国路1号');
  await page.getByLabel('身份证正面照片').setInputFiles(png('front.png'));
  await page.getByLabel('身份证反面照片').setInputFiles(png('back.png'));
  await page.getByLabel('手持身份证照片').setInputFiles(png('hand.png'));
  await page.getByLabel('我已阅读并同意实名认证').check();
  await page.getByRole('button', { name: '提交', exact: true }).click();
  await expect(page).toHaveURL(/:\d+\/personage-kyc\?done=submitted$/);
  await expect(page.getByTestId('kyc-banner')).toContainText('您已提交认证，资料审核中…');
  await expect(getText(page, '提交成功')).toBeVisible();
  await expect(getText(page, `110***********${personalId.slice(-4)}`)).toBeVisible(); // read-only and masked
  await expect(tip).toContainText('实名认证审核中');
  await expect(tip.getByRole('link', { name: '认证中' })).toHaveAttribute('href', '/person-info');

  // the operator approves
  const op = createOperator();
  const ops = await operatorPage(browser, info);
  await opsLoginAs(op, ops);
  await openReview(ops, user.mobile);
  await expect(ops.getByText(`110***********${personalId.slice(-4)}`)).toBeVisible();
  await expect(ops.locator('.ops-images img')).toHaveCount(3);
  await ops.locator('summary', { hasText: '通过' }).click();
  await ops.getByRole('button', { name: '确认通过' }).click();
  await expect(ops).toHaveURL(/:\d+\/ops\?done=approved$/);
  await expect(ops.getByText('已通过该实名认证')).toBeVisible();
  await ops.context().close();

  // the user is verified: banner, no tip, the account menu's 认证信息, and the gate is open
  await page.goto('/person-info');
  await expect(page.getByRole('heading', { name: '认证信息' })).toBeVisible();
  await expect(page.getByTestId('kyc-banner')).toContainText('恭喜您，您的实名认证已通过！');
  await expect(tip).toHaveCount(0);
  await page.locator('.account-menu summary').click();
  await expect(page.locator('.account-menu').getByRole('link', { name: '认证信息' })).toHaveAttribute(
    'href',
    '/person-info',
  );
  await page.goto('/newAccessCard');
  await expect(page.getByTestId('kyc-gate')).toHaveCount(0);
  await preserveFile(
    page,
    `实名后保全-${info.project.name}`,
    makeFile(`kyc-${info.project.name}.bin`, 300).file,
  );
});

test('enterprise: validation, rejected with a remark, remark shown on a reset form, resubmitted', async ({
  page,
  browser,
  freshUser,
  opsLoginAs,
}, info) => {
  const user = await freshUser('/no-type', { verified: false });
  await page.getByRole('link', { name: '企业认证' }).click();
  await expect(page).toHaveURL(/:\d+\/organization-kyc$/);
  await expect(page.getByRole('link', { name: '返回' })).toHaveAttribute('href', '/attestation-list');
  await expect(getText(page, '联系人手机号')).toBeVisible();
  await expect(getText(page, user.mobile)).toBeVisible(); // contact phone: the account's mobile, read-only
  await expect(page.getByRole('link', { name: '下载授权委托书模板' })).toHaveAttribute(
    'href',
    '/kyc/authorization-template',
  );
  const submit = page.getByRole('button', { name: '提交认证' });
  await submit.click();
  for (const msg of [
    '企业名称不能为空',
    '统一社会信用代码不能为空',
    '营业执照不能为空',
    '银行账号不能为空',
    '预留手机号不能为空',
    '联系人身份证号不能为空',
    '经办人手机号不能为空',
    '授权委托书不能为空',
    '性别不能为空',
  ]) {
    await expect(getText(page, msg, { exact: true })).toBeVisible();
  }

  async function fillAll(code: string, birth: string) {
    await page.getByLabel('企业名称').fill('福州测试科技有限公司');
    await page.getByLabel('统一社会信用代码').fill(code);
    await page.getByLabel('企业地址').fill('福建省福州市鼓楼区五四路1号');
    await page.getByLabel('法定代表人姓名').fill('李四');
    await page.getByLabel('营业执照').setInputFiles(png('license.png'));
    await page.getByLabel('开户名称').fill('福州测试科技有限公司');
    await page.getByLabel('开户银行').fill('中国工商银行福州分行');
    await page.getByLabel('银行账号').fill('6222021234567890123');
    await page.getByLabel('预留手机号').fill('13912345678');
    await page.getByLabel('联系人身份证号').fill(ID_OTHER);
    await page.getByLabel('经办人姓名').fill('张三');
    await page.getByLabel('女', { exact: true }).check();
    await page.getByLabel('出生日期').fill(birth);
    await page.getByLabel('经办人手机号').fill('13812345678');
    await page.getByLabel('经办人身份证号').fill(ID_AGENT);
    await page.getByLabel('授权委托书').setInputFiles(png('poa.png'));
    await page.getByLabel('经办人身份证正面照片').setInputFiles(png('front.png'));
    await page.getByLabel('经办人身份证反面照片').setInputFiles(png('back.png'));
  }
  await fillAll('91350100M000100Y44', '1950-01-01');
  await submit.click();
  await expect(getText(page, '请输入正确的统一社会信用代码')).toBeVisible();
  await expect(getText(page, '出生日期与身份证号码不一致')).toBeVisible();
  await fillAll(USCC, '1949-12-31');
  await submit.click();
  await expect(page).toHaveURL(/:\d+\/organization-kyc\?done=submitted$/);
  await expect(page.getByTestId('kyc-banner')).toContainText('您已提交认证，资料审核中…');
  await expect(getText(page, '***************0123')).toBeVisible(); // bank number masked

  // the operator rejects: a remark is required
  const op = createOperator();
  const ops = await operatorPage(browser, info);
  await opsLoginAs(op, ops);
  await openReview(ops, user.mobile);
  await expect(ops.getByText('福州测试科技有限公司').first()).toBeVisible();
  await expect(ops.locator('.ops-images img')).toHaveCount(4);
  await ops.getByRole('button', { name: '驳回' }).click();
  await expect(ops.getByText('请填写驳回原因')).toBeVisible();
  const remark = `营业执照照片不清晰-${info.project.name}`;
  await ops.getByLabel('驳回原因').fill(remark);
  await ops.getByRole('button', { name: '驳回' }).click();
  await expect(ops).toHaveURL(/:\d+\/ops\?done=rejected$/);
  await ops.context().close();

  // the user sees the failure, the remark, and an empty editable form
  await page.goto('/kyc-info');
  await expect(page.getByRole('heading', { name: '基本设置' })).toBeVisible();
  await expect(page.getByTestId('kyc-banner')).toContainText('抱歉，您的企业实名认证失败！');
  await expect(page.getByTestId('kyc-remark')).toHaveText(remark);
  await expect(page.locator('.verify-tip').getByRole('link', { name: '重新认证' })).toBeVisible();
  await expect(page.getByLabel('企业名称')).toHaveValue('');
  await expect(page.locator('.kyc-thumb')).toHaveCount(0);
  await fillAll(USCC, '1949-12-31');
  await page.getByRole('button', { name: '提交认证' }).click();
  await expect(page).toHaveURL(/:\d+\/kyc-info\?done=submitted$/);
  await expect(page.getByTestId('kyc-banner')).toContainText('您已提交认证，资料审核中…');
});

test('face method: the QR page, the sandbox passes, 我已完成认证 lands on /person-info with the face banner', async ({
  page,
  freshUser,
}, info) => {
  await freshUser('/personage-kyc', { verified: false });
  await chooseMethod(page, info, '支付宝刷脸认证', 'face');
  await page.getByRole('button', { name: '下一步' }).click();
  await expect(getText(page, '请先同意实名认证')).toBeVisible();
  await page.getByLabel('姓名').fill('王五');
  await page.getByLabel('身份证号码').fill(projectId(info, ID_OTHER.slice(0, 17)));
  await page.getByLabel('身份证地址').fill('北京市东城区东长安街1号');
  await page.getByLabel('我已阅读并同意实名认证').check();
  await page.getByRole('button', { name: '下一步' }).click();
  await expect(page).toHaveURL(/:\d+\/personage-face-kyc\?certify_id=/);
  await expect(getText(page, '认证完成前请不要关闭本页面')).toBeVisible();
  await expect(page.getByAltText('支付宝人脸认证二维码')).toBeVisible();
  await expect(page.getByTestId('face-state')).toContainText('等待认证结果');

  // the tester opens the QR link and passes the certification on the sandbox page
  const href = await page.getByTestId('face-link').getAttribute('href');
  const sandbox = await page.context().newPage();
  await sandbox.goto(href!);
  await sandbox.getByRole('button', { name: '通过', exact: true }).click();
  await expect(sandbox.getByRole('heading', { name: '认证通过' })).toBeVisible();
  // Not closed here: closing a page while its sibling reloads itself (meta refresh) hung Chromium now and then.
  await page.bringToFront();

  // the page follows by itself (meta refresh without JavaScript, revalidation with it)
  await expect(getText(page, '实名认证成功')).toBeVisible({ timeout: 20_000 });
  await page.getByRole('link', { name: '我已完成认证' }).click();
  await expect(page).toHaveURL(/:\d+\/person-info$/);
  await expect(page.getByTestId('kyc-banner')).toContainText('支付宝人脸认证已通过');
  await expect(page.locator('.verify-tip')).toHaveCount(0);
});

test('the gate: an unverified user sees why, the upload is refused with the message and the 去认证 link', async ({
  page,
  freshUser,
}, info) => {
  await freshUser('/newAccessCard', { verified: false });
  const gate = page.getByTestId('kyc-gate');
  await expect(gate).toContainText(KycGateMsg.required);
  await page.getByLabel('证据名称').fill(`未认证-${info.project.name}`);
  await page.getByLabel('选择文件').setInputFiles(makeFile(`gate-${info.project.name}.bin`, 200).file);
  await page.getByRole('button', { name: '提交保全' }).click();
  await expect(page).toHaveURL(/:\d+\/newAccessCard/);
  await expect(gate).toContainText(KycGateMsg.required);
  await page.goto('/newAccessHashCard');
  await page.getByLabel('文件SHA-256哈希值').fill('a'.repeat(64));
  await page.getByLabel('证据名称').fill(`未认证哈希-${info.project.name}`);
  await page.getByRole('button', { name: '提交保全' }).click();
  await expect(gate).toContainText(KycGateMsg.required);
  await gate.getByRole('link', { name: '去认证' }).click();
  await expect(page).toHaveURL(/:\d+\/no-type$/);
});
