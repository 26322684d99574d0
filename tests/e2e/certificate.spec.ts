/**
 * The certificate (spec 01 §2.3; decisions 007, 008, 029), JS on and off: the PDF has the number, the SHA-256 and
 * the Chinese title in an embedded CJK font, names its issuer and issue time with the zone, fits one A4 page and is
 * signed (pdfsig: valid, by the platform, PAdES; a changed byte breaks it); the English PDF likewise in English; the
 * browser's print of the page prints the same sheet on one page without the page's buttons; print asks for confirmation with JavaScript and opens the PDF without it;
 * the owner's mobile link carries the file-URL token, downloads the original, and a forged token is refused.
 */
import { execFileSync } from 'node:child_process';
import { expect, test } from '../support/e2e-fixtures.ts';
import { readFileSync, writeFileSync } from 'node:fs';
import { DEMO, makeFile, preserveFile } from '../support/e2e.ts';
import { pdfsig } from '../support/pdfsig.ts';

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
  // Issuer, issue time with its zone, the statement (decision 029); the hash on one line, never split.
  for (const part of [
    '出具机构',
    '存证云',
    '合作公证机构',
    '证书编号',
    '出具时间',
    'UTC+8',
    '兹证明',
    '账本证明',
  ])
    expect(text).toContain(part);
  const raw = execFileSync('pdftotext', ['-enc', 'UTF-8', saved, '-'], { encoding: 'utf8' });
  expect(raw).toContain(sha256);
  expect(execFileSync('pdfinfo', [saved], { encoding: 'utf8' })).toMatch(/^Pages:\s+1$/m);
  // Signed by the platform (PAdES), and the signature covers the whole file.
  const sig = pdfsig(saved);
  expect(sig).toContain('Signer Certificate Common Name: 存证云');
  expect(sig).toContain('Signature Type: ETSI.CAdES.detached');
  expect(sig).toContain('Total document signed');
  expect(sig).toContain('Signature Validation: Signature is Valid.');
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
  expect((await page.goto(`/mobile/attestation/${baoquan}/${forged}`))?.status()).toBe(403);
  await expect(page.getByRole('alert').filter({ hasText: '二维码无效' })).toBeVisible();
  await expect(page.getByRole('link', { name: '下载原文件' })).toHaveCount(0);
});

test('a changed byte breaks the signature; the English PDF is English, signed, with the zone and whole words', async ({
  page,
  loginAs,
}, info) => {
  await loginAs(DEMO, '/newAccessCard');
  const { file, sha256 } = makeFile(`pdf-en-${info.project.name}.bin`, 4000);
  const baoquan = await preserveFile(page, `签名-${info.project.name}`, file);
  const zh = await page.request.get(`/attestation/${baoquan}.pdf`);
  expect(zh.status()).toBe(200);
  const bytes = Buffer.from(await zh.body());
  // Change one byte inside the signed content (a digit of the page's text stream is enough: any byte counts).
  const at = bytes.indexOf('/Type /Page');
  expect(at).toBeGreaterThan(0);
  bytes[at + 1] = 'X'.charCodeAt(0);
  const tampered = info.outputPath('tampered.pdf');
  writeFileSync(tampered, bytes);
  expect(pdfsig(tampered)).not.toContain('Signature is Valid.');

  const en = await page.request.get(`/English/attestation/${baoquan}.pdf`);
  expect(en.status()).toBe(200);
  const saved = info.outputPath('certificate-en.pdf');
  writeFileSync(saved, Buffer.from(await en.body()));
  const raw = execFileSync('pdftotext', ['-enc', 'UTF-8', saved, '-'], { encoding: 'utf8' });
  for (const part of [
    'Electronic Data Preservation Certificate',
    'Issued by',
    'Notary office',
    'Issued at',
    'UTC+8',
  ])
    expect(raw).toContain(part);
  expect(raw).toContain(sha256);
  expect(raw).toMatch(/Ledger\s+transaction\s+hash/);
  expect(raw).not.toMatch(/transacti\s+on|preserv\s+ation/);
  expect(raw).not.toMatch(/文档|图片|其他/);
  expect(execFileSync('pdfinfo', [saved], { encoding: 'utf8' })).toMatch(/^Pages:\s+1$/m);
  const sig = pdfsig(saved);
  expect(sig).toContain('Signature Validation: Signature is Valid.');
  expect(sig).toContain('Signature Type: ETSI.CAdES.detached');
  expect(readFileSync(saved).subarray(0, 5).toString()).toBe('%PDF-');
});

test("the browser's print of the certificate page is the sheet: issuer, proof, QR and seal, no buttons, one A4 page", async ({
  page,
  loginAs,
}, info) => {
  test.skip(info.project.name !== 'js-on', 'print media is the same with and without JavaScript');
  await loginAs(DEMO, '/newAccessCard');
  const { file } = makeFile(`print-sheet-${info.project.name}.bin`, 2000);
  const baoquan = await preserveFile(page, `打印样式-${info.project.name}`, file);
  await page.goto(`/attestation/${baoquan}`);
  await expect(page.getByTestId('print-issuer')).toBeHidden();
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByTestId('print-issuer')).toBeVisible();
  await expect(page.getByTestId('print-issuer')).toContainText('出具时间');
  await expect(page.getByRole('img', { name: '存证云电子签章' })).toBeVisible();
  await expect(page.getByRole('img', { name: '扫码查看证书' })).toBeVisible();
  await expect(page.getByText('账本证明', { exact: true })).toBeVisible();
  for (const name of ['打印证书', '下载PDF', 'English'])
    await expect(page.getByRole('link', { name })).toBeHidden();
  await expect(page.getByRole('button', { name: /下载证据|提取下载/ })).toBeHidden();
  const printed = info.outputPath('page-print.pdf');
  writeFileSync(printed, await page.pdf({ format: 'A4', preferCSSPageSize: true }));
  expect(execFileSync('pdfinfo', [printed], { encoding: 'utf8' })).toMatch(/^Pages:\s+1$/m);
});
