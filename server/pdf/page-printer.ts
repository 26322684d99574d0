/**
 * Private pages printed to signed PDFs (decision 034: the notarisation documents of step 2 and the notarial
 * certificate): the gateway opens one of its own pages in the shared headless browser with the caller's Cookie header
 * (so the page loads with the caller's own session and sees exactly what the caller may see), prints it to A4 and
 * signs it (PAdES). Nothing is cached: each print is a new document. The page is readied as the certificate print
 * views are ({@link prepareLocalPage}: JavaScript off, only the gateway's own origin and data: reachable).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Page } from 'puppeteer-core';
import type { SignerName } from '../../contract/signing.ts';
import type { BrowserPool } from './browser-pool.ts';

/**
 * Readies a page the pool has just opened for the gateway's print views (the pool runs this once per page and reuses
 * pages between jobs): JavaScript off, the CSP bypassed, and every request other than the gateway's own (and inline
 * data:) refused, so no page can make the server's browser reach anything else.
 * @param origin the gateway's origin as the browser reaches it, read when the page is readied (inside a job)
 */
export async function prepareLocalPage(page: Page, origin: string): Promise<void> {
  // The print views are server-rendered: no script needs to run, and none should.
  await page.setJavaScriptEnabled(false);
  // Behind TLS the CSP says upgrade-insecure-requests, which would send the styles and fonts to https on our
  // plain-HTTP loopback address.
  await page.setBypassCSP(true);
  const allowed = `${origin}/`;
  await page.setRequestInterception(true);
  page.on('request', (req) => {
    const url = req.url();
    // A request of a page closing under it (a shutdown) must not become an unhandled rejection.
    const decided =
      url.startsWith(allowed) || url.startsWith('data:') ? req.continue() : req.abort('blockedbyclient');
    decided.catch(() => undefined);
  });
}

/** Thrown when the page to print did not answer 2xx (its status, e.g. 404 for another user's order). */
export class PagePrintError extends Error {
  override name = 'PagePrintError';
  readonly status: number;
  constructor(status: number, path: string) {
    super(`${path} answered ${status}`);
    this.status = status;
  }
}

/** Settings of a {@link PagePrinter}. */
export interface PagePrinterOptions {
  pool: BrowserPool;
  /** The gateway's own base URL as the browser reaches it (read per job). */
  gatewayOrigin: () => string;
  /** Per-navigation limit, milliseconds. */
  navigationTimeoutMs: number;
  /** Where failed prints are logged (the path and the error; never the cookie). */
  logger?: FastifyBaseLogger;
  /**
   * Signs a printed PDF with `reason` as the signature's /Reason, by the platform's signer or the notary office's;
   * absent: PDFs stay unsigned.
   */
  sign?: (pdf: Buffer, reason: string, signer: SignerName) => Promise<Buffer>;
}

/** Prints the gateway's private pages to signed PDFs. One per gateway process (`app.pagePrinter`). */
export class PagePrinter {
  private readonly opts: PagePrinterOptions;
  constructor(opts: PagePrinterOptions) {
    this.opts = opts;
  }

  /** True when printed PDFs are signed (the gateway has the platform's internal key). */
  get signs(): boolean {
    return this.opts.sign !== undefined;
  }

  /**
   * Prints the gateway page `path` (absolute path with query) as the holder of `cookie` sees it.
   * @param cookie the caller's Cookie header (their session), sent with every request of the page only
   * @param reason the signature's reason, e.g. 公证申请文书
   * @param signer who signs: the platform (default) or the notary office (notarial certificates)
   * @returns the signed PDF
   * @throws PagePrintError when the page does not answer 2xx or redirects; the pool's errors (busy, timeout); the
   *   signer's
   */
  async print(
    path: string,
    cookie: string | null,
    reason: string,
    signer: SignerName = 'platform',
  ): Promise<Buffer> {
    if (!path.startsWith('/') || path.startsWith('//')) throw new PagePrintError(400, path);
    try {
      return await this.printSigned(path, cookie, reason, signer);
    } catch (err) {
      this.opts.logger?.warn({ err, path: path.split('?')[0] }, 'page print failed');
      throw err;
    }
  }

  private async printSigned(
    path: string,
    cookie: string | null,
    reason: string,
    signer: SignerName,
  ): Promise<Buffer> {
    const printed = await this.opts.pool.run(
      // The pool's page is the job's slot; the print itself runs in a browser context of its own, closed after: its
      // cookie jar starts empty (the shared one holds what public print views set, e.g. the CSRF cookie, which the
      // browser would send instead of the caller's session) and no other job ever sees this caller's session.
      async (slot) => {
        const context = await slot.browser().createBrowserContext();
        try {
          const page = await context.newPage();
          const origin = this.opts.gatewayOrigin();
          await prepareLocalPage(page, origin);
          if (cookie) await page.setExtraHTTPHeaders({ cookie });
          const res = await page.goto(`${origin}${path}`, {
            waitUntil: 'load',
            timeout: this.opts.navigationTimeoutMs,
          });
          const status = res?.status() ?? 0;
          if (status < 200 || status >= 300) throw new PagePrintError(status, path);
          // A redirect (an ended session sent to the login page) must not be printed and signed as the document.
          if (res && res.request().redirectChain().length > 0) {
            throw new PagePrintError(302, `${path} -> ${new URL(res.url()).pathname}`);
          }
          // Web fonts (the CJK font) load lazily, after layout: print only once they are in.
          await page.evaluate(() => document.fonts.ready.then(() => undefined));
          const pdf = await page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true });
          return Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
        } finally {
          await context.close().catch(() => undefined);
        }
      },
      (slot) => prepareLocalPage(slot, this.opts.gatewayOrigin()),
    );
    return this.opts.sign ? this.opts.sign(printed, reason, signer) : printed;
  }
}
