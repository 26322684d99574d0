/**
 * The certificate (spec 01 §2.3; decisions 007, 008), JS on and off: the PDF has the number, the SHA-256 and the
 * Chinese title in an embedded CJK font; print asks for confirmation with JavaScript and opens the PDF without it;
 * the owner's mobile link carries the file-URL token, downloads the original, and a forged token is refused.
 */
import { execFileSync } from 'node:child_process';
import { expect, test } from '../support/e2e-fixtures.ts';
import { DEMO, makeFile, preserveFile } from '../support/e2e.ts';

test('the certificate PDF has the number, the SHA-256 and the Chinese title in an embedded CJK font', async ({
  page,
  loginAs,
}, info) => {
  await loginAs(DEMO, '/newAccessCard');
  const { file, sha256 } = makeFile(`pdf-${info.project.name}.bin`, 10_000);
  const title = `租赁合同扫描件-${info.project.name}`;
  const baoquan = await preserveFile(page, title, file);
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: '下载PDF' }).click();
  const saved = info.outputPath('certificate.pdf');
  await (await download).saveAs(saved);
  const text = execFileSync('pdftotext', ['-enc', 'UTF-8', saved, '-'], { encoding: 'utf8' }).replace(
    /\s+/g,
    '',
  );
  expect(text).toContain(baoquan);
  expect(text).toContain(sha256);
  expect(text).toContain(title);
  const fonts = execFileSync('pdffonts', [saved], { encoding: 'utf8' });
  expect(fonts).toMatch(/NotoSansSC/i);
  expect(
    fonts
      .split('\n')
      .filter((l) => /NotoSansSC/i.test(l))
      .every((l) => /\byes\b/.test(l)),
  ).toBe(true);
});

test('print asks for confirmation with JavaScript, and is the PDF link without it', async ({
  page,
  loginAs,
}, info) => {
  await loginAs(DEMO, '/newAccessCard');
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
  loginAs,
}, info) => {
  await loginAs(DEMO, '/newAccessCard');
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
