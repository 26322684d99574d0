/**
 * PAdES signing (decision 029) of a PDF Chromium printed, checked by a verifier we did not write (poppler's pdfsig):
 * the signature is valid, covers the whole document, is ETSI.CAdES.detached and names the platform's signer; a byte
 * changed in the signed range breaks it. Also a PDF with a cross-reference stream (which the incremental placeholder
 * cannot read) is signed through the pdf-lib rewrite. Skipped only when Chromium or pdfsig is missing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { plainAddPlaceholder } from '@signpdf/placeholder-plain';
import puppeteer from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentSigner } from '../../platform/signing/document-signer.ts';
import { hasChromium } from '../../tests/support/pdf-whole.ts';
import { hasPdfsig, pdfsig } from '../../tests/support/pdfsig.ts';
import { CHROMIUM_ARGS } from './browser-pool.ts';
import { signPdf, type CmsSource } from './pades.ts';
import { chromiumPath } from '../../tests/support/environment.ts';

const info = {
  name: '存证云',
  reason: '电子数据保全证书',
  location: 'CN',
  contactInfo: 'support@example.com',
};

describe.skipIf(!hasChromium() || !hasPdfsig)('signPdf', () => {
  let dir: string;
  let source: CmsSource;
  let printed: Buffer;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cz-pades-'));
    const signer = await DocumentSigner.open(dir, { operator: '存证云' });
    source = { cmsFor: (digest) => signer.signDigest(digest) };
    const browser = await puppeteer.launch({
      executablePath: chromiumPath(),
      args: [...CHROMIUM_ARGS],
      pipe: true,
    });
    try {
      const page = await browser.newPage();
      await page.setContent('<h1>Certificate</h1><p>BQ20260101AAAAAAAAAAAAAAAAAAAA</p>');
      printed = Buffer.from(await page.pdf({ format: 'A4' }));
    } finally {
      await browser.close();
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('signs a Chromium print as an incremental update that pdfsig validates; a changed byte breaks it', async () => {
    const signed = await signPdf(printed, source, info);
    // The printed bytes stay as they were: the signature is appended after them.
    expect(signed.subarray(0, printed.length).equals(printed)).toBe(true);
    const file = path.join(dir, 'signed.pdf');
    writeFileSync(file, signed);
    const report = pdfsig(file);
    expect(report).toContain('Signer Certificate Common Name: 存证云');
    expect(report).toContain('Signature Type: ETSI.CAdES.detached');
    expect(report).toContain('Total document signed');
    expect(report).toContain('Signature Validation: Signature is Valid.');

    const tampered = Buffer.from(signed);
    // A byte of the printed page (inside the first signed range, before the signature dictionary).
    tampered[200] = tampered[200]! ^ 0x01;
    const bad = path.join(dir, 'tampered.pdf');
    writeFileSync(bad, tampered);
    expect(pdfsig(bad)).not.toContain('Signature is Valid.');
  });

  it('signs a PDF with a cross-reference stream through the pdf-lib rewrite', async () => {
    const doc = await PDFDocument.load(printed);
    const withStreams = Buffer.from(await doc.save({ useObjectStreams: true }));
    expect(withStreams.includes('/XRef')).toBe(true);
    // The incremental placeholder cannot read it, so this goes the other way.
    expect(() => plainAddPlaceholder({ pdfBuffer: withStreams, ...info })).toThrow();
    const file = path.join(dir, 'streams.pdf');
    writeFileSync(file, await signPdf(withStreams, source, info));
    const report = pdfsig(file);
    expect(report).toContain('Total document signed');
    expect(report).toContain('Signature Validation: Signature is Valid.');
  });
});
