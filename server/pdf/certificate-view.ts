/**
 * What a certificate PDF is printed from: the evidence's public view on the upstream (its state decides whether a
 * cached PDF still holds) and the gateway's own print view of the certificate, opened in a page of the shared
 * browser (JS off, only its own origin reachable; server/pdf/page-printer.ts) and printed to A4.
 */
import type { Page } from 'puppeteer-core';
import { callPlatform } from '../../app/lib/platform-call.server.ts';
import type { ApiEnvelope } from '../../contract/envelope.ts';
import { EvidencePaths, type EvidenceView } from '../../contract/evidence.ts';
import type { PlatformCall } from '../../contract/platform-call.ts';

/** The certificate's language: the Chinese page `/attestation/…` or the English one `/English/attestation/…`. */
export type CertificateLang = 'zh' | 'en';

/** Evidence numbers the gateway accepts in a path (the platform issues `BQ` + digits + Crockford base32). */
export const BAOQUAN_PATH_RE = /^[A-Za-z0-9_-]{1,64}$/;

/** Thrown when the upstream does not know the evidence (or the number is malformed): answer 404. */
export class EvidenceNotFoundError extends Error {
  override name = 'EvidenceNotFoundError';
}
/** Thrown when the upstream cannot be reached or answers something unexpected: answer 502. */
export class UpstreamError extends Error {
  override name = 'UpstreamError';
}
/** Thrown when the gateway's own certificate page could not be loaded for printing. */
export class PrintViewError extends Error {
  override name = 'PrintViewError';
}

/** How long the evidence's view may take (milliseconds): answer and body. */
const VIEW_TIMEOUT_MS = 10_000;

/**
 * Paths the renderer tries in order: the print view of the certificate, then the certificate page itself (used
 * while a deployment's UI has no print view; a 404 of the first moves on to the next).
 */
export function printPaths(baoquan: string, lang: CertificateLang): string[] {
  const base = `${lang === 'en' ? '/English' : ''}/attestation/${encodeURIComponent(baoquan)}`;
  return [`${base}/print`, base];
}

/**
 * The evidence's view as anyone sees it: `GET ${upstream}/api/share/getView?baoquan=` without a token, without HTTP
 * when the platform is embedded (`platformCall`).
 *
 * @throws EvidenceNotFoundError (code 404 or a malformed number); UpstreamError (unreachable, or neither 200 nor 404)
 */
export async function fetchEvidenceView(
  upstream: { upstreamUrl: string; platformCall?: PlatformCall | undefined },
  baoquan: string,
): Promise<EvidenceView> {
  if (!BAOQUAN_PATH_RE.test(baoquan)) throw new EvidenceNotFoundError(baoquan);
  const url = `${EvidencePaths.view}?baoquan=${encodeURIComponent(baoquan)}`;
  let env: ApiEnvelope<EvidenceView>;
  try {
    // it runs on every PDF request, cached or not: without HTTP when the platform is embedded
    const answer = await callPlatform(
      upstream,
      { method: 'GET', url, headers: { accept: 'application/json' } },
      AbortSignal.timeout(VIEW_TIMEOUT_MS),
    );
    env = JSON.parse(answer.body) as ApiEnvelope<EvidenceView>;
  } catch (err) {
    throw new UpstreamError(`getView failed: ${(err as Error).message}`, { cause: err });
  }
  if (Number(env.code) === 404) throw new EvidenceNotFoundError(baoquan);
  if (Number(env.code) !== 200 || !env.data) throw new UpstreamError(`getView answered code ${env.code}`);
  return env.data;
}

/**
 * Opens the print view at `origin` in `page` (JS off, other origins blocked) and prints it to an A4 PDF; `proof`
 * tells whether the page printed the ledger proof summary (its `data-ledger-proof` element, certificate-sheet.tsx).
 * `navigationTimeoutMs` bounds each navigation.
 *
 * @throws EvidenceNotFoundError (every path answered 404), PrintViewError (another status), and puppeteer's errors
 */
export async function printCertificatePage(
  page: Page,
  origin: string,
  baoquan: string,
  lang: CertificateLang,
  navigationTimeoutMs: number,
): Promise<{ pdf: Buffer; proof: boolean }> {
  const candidates = printPaths(baoquan, lang);
  for (let i = 0; i < candidates.length; i++) {
    const url = `${origin}${candidates[i]}`;
    const res = await page.goto(url, { waitUntil: 'load', timeout: navigationTimeoutMs });
    const status = res?.status() ?? 0;
    if (status === 404 && i < candidates.length - 1) continue;
    if (status === 404) throw new EvidenceNotFoundError(baoquan);
    if (status < 200 || status >= 300) throw new PrintViewError(`${url} answered ${status}`);
    break;
  }
  // Web fonts (the CJK font) load lazily, after layout: print only once they are in.
  const proof = await page.evaluate(() =>
    document.fonts.ready.then(() => document.querySelector('[data-ledger-proof]') !== null),
  );
  const pdf = await page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true });
  return { pdf: Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength), proof };
}
