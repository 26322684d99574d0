/**
 * Certificate PDFs side by side (decision 032), for `npm run bench`: the product's `GET /attestation/{id}.pdf`
 * of evidence it has not rendered yet (a warm render: the product's browser already running; the product started
 * with PDF_RENDER_AHEAD=0) against a bare puppeteer-core `page.pdf()` of the same print view
 * (`/attestation/{id}/print` of the same product, the same A4 options, the same Chromium and flags) in a browser and
 * page this process launched once and reuses, plus the same signing of the result that the product applies (its
 * PAdES signature from the platform's document signer, server/pdf/pades.ts `signPdf`, called over HTTP with the
 * internal key; decision 032, "Where the goals stop"). Evidence after evidence, the two sides alternate which goes
 * first. Then every PDF once more from the product's cache.
 *
 * Ratio = bare milliseconds ÷ product milliseconds (medians; ≥ 0.95 is the goal); cached p50 in milliseconds (≤ 5).
 */
import puppeteer from 'puppeteer-core';
import { median } from './stats.ts';
import { CHROMIUM_ARGS } from '../../server/pdf/browser-pool.ts';
import { printPaths } from '../../server/pdf/renderer.ts';
import { PlatformCmsSource, signPdf } from '../../server/pdf/pades.ts';
import { uploadEvidence } from '../../tests/support/pdf-whole.ts';
import { chromiumPath } from './environment.ts';

/** What {@link comparePdfs} measured: milliseconds per PDF. */
export interface PdfComparison {
  product: number[];
  bare: number[];
  cached: number[];
}

/** Fetches `url` to the end and returns the milliseconds it took. @throws on a non-2xx answer or a non-PDF body */
async function timedPdf(url: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url);
  const body = Buffer.from(await res.arrayBuffer());
  if (!res.ok || body.subarray(0, 5).toString('latin1') !== '%PDF-') {
    throw new Error(`${url}: HTTP ${res.status}, ${body.length} bytes`);
  }
  return performance.now() - started;
}

/** Where the reference side has its PDFs signed: the product's platform (its own port) and its internal key. */
export interface PdfSigner {
  platformUrl: string;
  internalKey: string;
}

/**
 * Creates `count` evidences in the product at `base` (demo account, `token`), then measures as described above,
 * the reference signing through `signer`. The first evidence of each side is a warm-up and not counted.
 */
export async function comparePdfs(
  base: string,
  token: string,
  count: number,
  signer: PdfSigner,
): Promise<PdfComparison> {
  const cms = new PlatformCmsSource({ upstreamUrl: signer.platformUrl }, signer.internalKey);
  const baoquans: string[] = [];
  for (let i = 0; i <= count; i++) {
    const saved = await uploadEvidence(base, token, {
      title: `证书基准 ${i + 1}`,
      fileName: `pdf-bench-${i + 1}.txt`,
      bytes: Buffer.from(`pdf bench evidence ${i} ${Date.now()}`),
    });
    baoquans.push(saved.baoquan);
  }
  const browser = await puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [...CHROMIUM_ARGS],
    pipe: true,
  });
  try {
    const page = await browser.newPage();
    // As the product prints it: server-rendered, no script runs.
    await page.setJavaScriptEnabled(false);
    const bare = async (baoquan: string): Promise<number> => {
      const started = performance.now();
      const res = await page.goto(`${base}${printPaths(baoquan, 'zh')[0]}`, { waitUntil: 'load' });
      if (!res?.ok()) throw new Error(`print view of ${baoquan}: HTTP ${res?.status()}`);
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      const pdf = await page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true });
      // The product's certificate signature (server/pdf/certificate-setup.ts): reason, name, location, contact.
      await signPdf(pdf, cms, {
        name: '存证云',
        reason: '电子数据保全证书',
        location: base,
        contactInfo: '',
      });
      return performance.now() - started;
    };
    const product = (baoquan: string) => timedPdf(`${base}/attestation/${encodeURIComponent(baoquan)}.pdf`);

    const out: PdfComparison = { product: [], bare: [], cached: [] };
    for (let i = 0; i < baoquans.length; i++) {
      const baoquan = baoquans[i]!;
      const [first, second] = i % 2 === 0 ? [product, bare] : [bare, product];
      const a = await first(baoquan);
      const b = await second(baoquan);
      if (i === 0) continue; // warm-up
      out.product.push(first === product ? a : b);
      out.bare.push(first === bare ? a : b);
    }
    for (const baoquan of baoquans.slice(1)) out.cached.push(await product(baoquan));
    return out;
  } finally {
    await browser.close();
  }
}

/** Least ratio of the warm render (decision 032, restated): the bare render plus the same signature ÷ the product. */
const PDF_GOAL = 0.95;

/** Prints the PDF rows of `npm run bench`: the warm render's ratio (goal ≥ 0.95) and the cached p50 (goal ≤ 5 ms). */
export function printPdfRows(pdfs: PdfComparison, count: number, print: (line: string) => void): void {
  const pdfRatio = median(pdfs.bare) / median(pdfs.product);
  const cachedP50 = median(pdfs.cached);
  print('');
  print(
    `| certificate PDF (${count} evidences) | product ms p50 (min–max) | reference | ms p50 (min–max) | ratio | goal |`,
  );
  print(`|---|---|---|---|---|---|`);
  const spread = (xs: number[], digits: number) =>
    `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;
  print(
    `| warm render | ${spread(pdfs.product, 0)} | bare page.pdf() of the same print view, reused page, ` +
      `and the same PAdES signature | ${spread(pdfs.bare, 0)} | ${pdfRatio.toFixed(2)} | ` +
      `≥ ${PDF_GOAL} ${pdfRatio >= PDF_GOAL ? 'PASS' : 'MISS'} |`,
  );
  print(
    `| from the cache | ${spread(pdfs.cached, 1)} | — | — | — | ≤ 5 ms ${cachedP50 <= 5 ? 'PASS' : 'MISS'} |`,
  );
}
