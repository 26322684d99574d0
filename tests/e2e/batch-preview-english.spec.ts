/**
 * Batch download, file previews, package wording and English pages (spec 01 §2.3, §2.4; decision 028), JS on and off:
 * the batch download screen filters by file type and label and offers user data; the certificate page previews a file
 * from its `fileUrl`, `fileType`, `vedioType` query and refuses a forged token; each certificate says what its
 * package holds (a hash evidence promises no original); English pages are `<html lang="en">` with English labels
 * throughout.
 */
import { createHash } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/e2e-fixtures.ts';
import { makeFile, TINY_PNG, zipEntries } from '../support/e2e.ts';

/** Preserves a file with a label at /newAccessCard. @returns its preservation number */
async function preserve(
  page: Page,
  title: string,
  file: string | { name: string; mimeType: string; buffer: Buffer },
  label = '',
) {
  await page.goto('/newAccessCard');
  await page.getByLabel('证据名称').fill(title);
  if (label) await page.locator('#label').fill(label);
  await page.getByLabel('选择文件').setInputFiles(file);
  await page.getByRole('button', { name: '提交保全' }).click();
  await expect(page).toHaveURL(/:\d+\/attestation\/BQ[0-9A-Z]+$/, { timeout: 30_000 });
  return decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
}

/** Preserves typed user data at /newProperty. @returns its preservation number */
async function preserveData(page: Page, title: string, label: string) {
  await page.goto('/newProperty');
  await page.locator('#p-title').fill(title);
  await page.locator('#p-label').fill(label);
  await page.getByLabel('数据').fill('订单号,金额\nA1001,199.00\nA1002,58.50');
  await page.getByRole('button', { name: '提交保全' }).click();
  await expect(page).toHaveURL(/:\d+\/attestation\/BQ[0-9A-Z]+$/, { timeout: 30_000 });
  return decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
}

const rows = (page: Page) => page.locator('tbody tr');

/** Visible text of the page outside elements marked Chinese (`lang="zh-CN"`) and the given user values. */
async function textOutsideChinese(page: Page, userValues: string[]): Promise<string> {
  const text = await page.evaluate(() => {
    const clone = document.body.cloneNode(true) as HTMLElement;
    clone.querySelectorAll('[lang="zh-CN"], script, style').forEach((e) => e.remove());
    return clone.textContent ?? '';
  });
  return userValues.reduce((t, v) => t.split(v).join(''), text);
}

const CJK = /[\u3400-\u9fff\uff00-\uffef\u3000-\u303f]/;

test('batch download filters by file type and label and offers user data; its package holds data.csv', async ({
  page,
  freshUser,
}, info) => {
  await freshUser('/newAccessCard');
  const text = Buffer.from(`租赁合同正文 ${info.project.name} ${Date.now()}\n`, 'utf8');
  const docNo = await preserve(
    page,
    '合同文本',
    { name: 'contract.txt', mimeType: 'text/plain', buffer: text },
    '合同',
  );
  const pngNo = await preserve(
    page,
    '现场照片',
    { name: 'scene.png', mimeType: 'image/png', buffer: TINY_PNG },
    '照片',
  );
  const dataNo = await preserveData(page, '订单数据', '数据');

  await page.goto('/attestation-list/download');
  await expect(rows(page)).toHaveCount(3);
  await expect(rows(page).filter({ hasText: dataNo })).toContainText('订单数据');

  // file type 图片
  await page.getByLabel('文件类型').selectOption({ label: '图片' });
  await page.getByRole('button', { name: '查询' }).click();
  await expect(page).toHaveURL(/[?&]type=2/);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText(pngNo);
  await expect(page.getByLabel('文件类型')).toHaveValue('2');

  // label 数据 (the labels of file and user-data evidence are offered)
  await page.getByRole('link', { name: '重置' }).click();
  await expect(page).toHaveURL(/\/attestation-list\/download$/);
  const labelSelect = page.getByLabel('标签');
  await expect(labelSelect.locator('option')).toHaveText(['全部', '合同', '数据', '照片']);
  await labelSelect.selectOption('数据');
  await page.getByRole('button', { name: '查询' }).click();
  await expect(page).toHaveURL(/[?&]label=%E6%95%B0%E6%8D%AE/);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText(dataNo);

  // type and label together: 文档 with label 合同 → the text file only
  await page.goto(`/attestation-list/download?type=1&label=${encodeURIComponent('合同')}`);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText(docNo);

  // download user data and the document together
  await page.goto('/attestation-list/download');
  for (const n of [dataNo, docNo]) await rows(page).filter({ hasText: n }).getByRole('checkbox').check();
  const download = page.waitForEvent('download', { timeout: 30_000 });
  await page.getByRole('button', { name: '下载所选证据' }).click();
  await expect(page.getByTestId('batch-countdown')).toContainText('已打包 2 个证据');
  const saved = info.outputPath('batch.zip');
  await (await download).saveAs(saved);
  const entries = await zipEntries(saved);
  expect(entries.has(`${dataNo}/evidence/data.csv`)).toBe(true);
  expect(entries.get(`${docNo}/evidence/contract.txt`)?.sha256).toBe(
    createHash('sha256').update(text).digest('hex'),
  );
});

test('each certificate says what its package holds; a hash evidence promises no original file', async ({
  page,
  freshUser,
}, info) => {
  await freshUser('/newAccessHashCard');
  const { sha256 } = makeFile(`h-${info.project.name}.bin`, 1000);
  await page.getByLabel('文件SHA-256哈希值').fill(sha256);
  await page.getByLabel('证据名称').fill('哈希证据');
  await page.getByRole('button', { name: '提交保全' }).click();
  await expect(page).toHaveURL(/:\d+\/attestation\/BQ[0-9A-Z]+$/);
  const hashNo = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  const body = page.locator('.certificate-body');
  await expect(body).toContainText('证据包内容');
  await expect(body).toContainText('不含原始文件');
  await expect(page.getByTestId('package-contents')).toContainText('不含原始文件');
  await expect(page.getByTestId('package-contents')).not.toContainText('原始文件、');
  await expect(page.locator('main')).toContainText('证据包中没有原始文件');
  // the package agrees: proof and certificate, no evidence/ entry
  const download = page.waitForEvent('download', { timeout: 30_000 });
  await page.getByRole('button', { name: '下载证据' }).click();
  const saved = info.outputPath('hash.zip');
  await (await download).saveAs(saved);
  expect([...(await zipEntries(saved)).keys()].sort()).toEqual(['certificate.pdf', 'proof.json']);
  // the English certificate says the same
  await page.goto(`/English/attestation/${hashNo}`);
  await expect(page.getByTestId('english-certificate')).toContainText('no original file');
  await expect(page.getByTestId('english-certificate')).toContainText('never the file itself');

  const dataNo = await preserveData(page, '用户数据证书', '数据');
  await expect(page.getByTestId('package-contents')).toContainText('evidence/data.csv');
  await expect(body).toContainText('evidence/data.csv');
  await expect(page.locator('main')).toContainText('数据SHA256（data.csv）');
  await page.goto(`/English/attestation/${dataNo}`);
  await expect(page.getByTestId('english-certificate')).toContainText('evidence/data.csv');
  await expect(page.getByTestId('english-certificate')).toContainText('User data preservation');
});

test('the certificate previews a file from fileUrl, fileType and vedioType, and refuses a forged token', async ({
  page,
  browser,
  freshUser,
}) => {
  await freshUser('/newAccessCard');
  const no = await preserve(page, '预览图片', { name: 'p.png', mimeType: 'image/png', buffer: TINY_PNG });
  const link = page.getByTestId('preview-link');
  const href = (await link.getAttribute('href'))!;
  const query = new URL(href, 'http://x').searchParams;
  expect(query.get('fileType')).toBe('图片');
  expect(query.get('fileUrl')!.slice(0, 23)).toMatch(/^[0-9A-Za-z]{23}$/);
  await link.click();
  await expect(page).toHaveURL(/fileUrl=/);
  const img = page.getByTestId('file-preview').locator('img');
  await expect(img).toHaveAttribute('src', new RegExp(`^/api/file/${no}\\?exp=\\d+&sig=`));
  await expect.poll(() => img.evaluate((e: HTMLImageElement) => e.naturalWidth)).toBe(1);

  // the link works for anyone holding it (the certificate is public), as a video with vedioType too
  const visitor = await browser.newPage();
  const asVideo = new URL(href, page.url());
  asVideo.searchParams.set('fileType', '视频');
  asVideo.searchParams.set('vedioType', 'mp4');
  await visitor.goto(asVideo.toString());
  await expect(visitor.getByTestId('file-preview').locator('video source')).toHaveAttribute(
    'type',
    'video/mp4',
  );

  // a forged or altered token shows a message, never the file
  const forged = new URL(href, page.url());
  // (the first character changed: to 'B' when it is an 'A', which a token starts with once in 62)
  const token = query.get('fileUrl')!;
  forged.searchParams.set('fileUrl', `${token.startsWith('A') ? 'B' : 'A'}${token.slice(1)}`);
  await visitor.goto(forged.toString());
  await expect(visitor.getByTestId('file-preview-invalid')).toHaveText(
    '文件链接无效或已被篡改，无法预览该文件',
  );
  await expect(visitor.getByTestId('file-preview')).toHaveCount(0);
  await visitor.close();
});

test('English pages are <html lang="en"> with English labels throughout; Chinese pages stay zh-CN', async ({
  page,
  freshUser,
}, info) => {
  await freshUser('/newAccessCard');
  const title = `Lease contract ${info.project.name}`;
  const file = makeFile(`lease-${info.project.name}.bin`, 1500);
  const no = await preserve(page, title, file.file);
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  const fileName = file.file.split('/').pop()!;

  await page.goto(`/English/attestation/${no}`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByTestId('english-certificate')).toContainText('Type');
  await expect(page.getByTestId('english-certificate')).toContainText('Other');
  expect(await textOutsideChinese(page, [title, fileName])).not.toMatch(CJK);

  await page.goto(`/English/attestation/${no}/print`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  expect(await textOutsideChinese(page, [title, fileName])).not.toMatch(CJK);

  await page.goto(`/English/safekeeping?no=${no}`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByTestId('verify-result')).toContainText('File preservation · Other');
  expect(await textOutsideChinese(page, [title])).not.toMatch(CJK);

  await page.goto('/English/safekeeping?no=BQ00000000NOPE');
  await expect(page.getByTestId('verify-none')).toHaveText(
    'No evidence was found for this preservation number.',
  );
  expect(await textOutsideChinese(page, [])).not.toMatch(CJK);

  const missing = await page.goto('/English/attestation/BQ00000000NOPE');
  expect(missing?.status()).toBe(404);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.locator('h1')).toHaveText('Sorry, the page you are looking for does not exist.');

  await page.goto('/queryAuthentication/safekeeping');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
});
