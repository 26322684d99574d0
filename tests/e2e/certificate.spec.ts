/**
 * Issue 3 certificate details, JS on and off: print asks for confirmation with JavaScript and opens the PDF without
 * it; the owner's mobile link carries the file-URL token, downloads the original, and a forged token is refused.
 */
import { expect, test } from '@playwright/test';
import { loginAsDemo, makeFile, preserveFile } from './support.ts';

test('print asks for confirmation with JavaScript, and is the PDF link without it', async ({
  page,
}, info) => {
  await loginAsDemo(page, '/newAccessCard');
  const { file } = makeFile(`print-${info.project.name}.bin`, 3000);
  const baoquan = await preserveFile(page, `打印-${info.project.name}`, file);
  const print = page.getByRole('link', { name: '打印证书' });
  await expect(print).toHaveAttribute('href', `/attestation/${baoquan}.pdf`);
  if (info.project.name === 'js-on') {
    let message = '';
    page.once('dialog', (d) => {
      message = d.message();
      void d.dismiss();
    });
    await print.click();
    await expect.poll(() => message).toBe('确认打印该证书？');
    await expect(page).toHaveURL(new RegExp(`/attestation/${baoquan}$`));
  }
});

test('the owner mobile link opens the certificate and the original; a forged token is refused', async ({
  page,
}, info) => {
  await loginAsDemo(page, '/newAccessCard');
  const { file, sha256 } = makeFile(`mobile-${info.project.name}.bin`, 4000);
  await preserveFile(page, `手机-${info.project.name}`, file);
  const href = (await page.getByTestId('mobile-link').getAttribute('href'))!;
  const url = new URL(href);
  const [, , , baoquan, token] = url.pathname.split('/');
  expect(token!.slice(0, 23)).toMatch(/^[0-9A-Za-z]{23}$/);
  const decoded = Buffer.from(token!.slice(23).replace(/\*/g, '/'), 'base64').toString('utf8');
  expect(decoded).toMatch(new RegExp(`^/api/file/${baoquan}\\?exp=\\d+&sig=`));

  await page.goto(url.pathname);
  await expect(page.getByTestId('filehash')).toHaveText(sha256);
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: '下载原文件' }).click();
  const saved = info.outputPath('original.bin');
  await (await download).saveAs(saved);
  const { createHash } = await import('node:crypto');
  const { readFileSync } = await import('node:fs');
  expect(createHash('sha256').update(readFileSync(saved)).digest('hex')).toBe(sha256);

  const forged = `${'A'.repeat(23)}${token!.slice(23)}`;
  await page.goto(`/mobile/attestation/${baoquan}/${forged}`);
  await expect(page.getByRole('alert').filter({ hasText: '二维码无效' })).toBeVisible();
  await expect(page.getByRole('link', { name: '下载原文件' })).toHaveCount(0);
});
