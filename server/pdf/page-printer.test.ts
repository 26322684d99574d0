/**
 * The page printer on the real Chromium (decision 034: private pages printed with the caller's session): the page
 * sees exactly the caller's Cookie header, even after a public print view of the same origin left a cookie in the
 * shared browser (it once replaced the session, and the page redirected to the login); the next print, without a
 * cookie, sees none of it; a page answering 404 or redirecting is refused with PagePrintError; the signer is called
 * with the reason and the signer's name. Skipped only when Chromium is missing.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium } from '../../tests/support/pdf-whole.ts';
import { BrowserPool } from './browser-pool.ts';
import { PagePrinter, PagePrintError, prepareLocalPage } from './page-printer.ts';
import { chromiumPath } from '../../tests/support/environment.ts';

describe.skipIf(!hasChromium())('PagePrinter (Chromium at CHROMIUM_PATH)', () => {
  let server: http.Server;
  let origin: string;
  let pool: BrowserPool;
  const seen: { path: string; cookie: string }[] = [];
  const signed: { reason: string; signer: string }[] = [];
  let printer: PagePrinter;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push({ path: req.url ?? '', cookie: req.headers.cookie ?? '' });
      if (req.url === '/public') {
        res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': 'jar=public; Path=/' });
        return res.end('<p>public</p>');
      }
      if (req.url === '/gone') return res.writeHead(404).end();
      if (req.url === '/moved') return res.writeHead(302, { location: '/login' }).end();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<p>cookie: ${req.headers.cookie ?? '-'}</p>`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    pool = new BrowserPool({
      chromiumPath: chromiumPath(),
      poolSize: 1,
      queueMax: 10,
      timeoutMs: 30_000,
      logger: pino({ level: 'silent' }),
    });
    printer = new PagePrinter({
      pool,
      gatewayOrigin: () => origin,
      navigationTimeoutMs: 10_000,
      sign: async (pdf, reason, signer) => {
        signed.push({ reason, signer });
        return pdf;
      },
    });
  });
  afterAll(async () => {
    await pool.close();
    await new Promise((r) => server.close(r));
  });

  it("prints with the caller's cookie only, whatever the shared browser holds, and leaves none behind", async () => {
    // a public print view (as the certificate renderer does) leaves a cookie in the shared browser
    await pool.run(
      async (page) => {
        await page.goto(`${origin}/public`);
      },
      (page) => prepareLocalPage(page, origin),
    );
    const pdf = await printer.print('/doc', 'session=user-a', '公证申请文书');
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(seen.filter((s) => s.path === '/doc').map((s) => s.cookie)).toEqual(['session=user-a']);
    await printer.print('/doc2', null, '公证书', 'notary');
    expect(seen.find((s) => s.path === '/doc2')?.cookie).toBe('');
    expect(signed).toEqual([
      { reason: '公证申请文书', signer: 'platform' },
      { reason: '公证书', signer: 'notary' },
    ]);
  });

  it('refuses a page that is not there or that redirects (an ended session), and a path that is not ours', async () => {
    await expect(printer.print('/gone', 'session=x', 'r')).rejects.toMatchObject({
      name: 'PagePrintError',
      status: 404,
    });
    const moved = await printer.print('/moved', 'session=x', 'r').catch((e: unknown) => e);
    expect(moved).toBeInstanceOf(PagePrintError);
    expect((moved as PagePrintError).status).toBe(302);
    await expect(printer.print('//evil.example/x', null, 'r')).rejects.toBeInstanceOf(PagePrintError);
  });
});
