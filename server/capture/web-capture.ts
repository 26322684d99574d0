/**
 * Web page capture (decision 037): one job captures one or more URLs in a fresh Chromium browser context of its
 * own whose only way out is the job's egress proxy (egress-proxy.ts: every address checked and pinned). For each URL
 * it records a full-page screenshot (PNG), a PDF print, the DOM as HTML, the final URL and the redirect chain, the
 * server's IP address (the proxy's pinned address), the TLS connection and certificate the browser saw (CDP
 * securityDetails), the response headers and the time; every HTTP exchange of the page goes into the WARC. Downloads
 * are denied, pop-ups closed, dialogs dismissed. Everything is packaged as one WACZ (wacz.ts) whose SHA-256 the
 * evidence records. Times in milliseconds, sizes in bytes.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Browser, HTTPResponse, Page } from 'puppeteer-core';
import { startEgressProxy, type BlockedRequest, type EgressProxy, type Resolver } from './egress-proxy.ts';
import { WarcWriter, cdxjOf, writeWacz, type WaczFile, type WaczPage } from './wacz.ts';
import { recordExchanges, tlsOf, type TlsFacts } from './page-traffic.ts';
import { navigationFailure } from './failure-reason.ts';

export type { TlsFacts } from './page-traffic.ts';

/** What the capture found at one URL. */
export interface CapturedPage {
  requestedUrl: string;
  finalUrl: string;
  /** The URLs redirected from, in order (the requested URL first when there was a redirect). */
  redirects: string[];
  status: number;
  title: string;
  /** The address the page's server was reached at, when the page loaded. */
  serverIp: string | null;
  /** The TLS connection, for HTTPS pages. Dates ISO 8601. */
  tls: TlsFacts | null;
  responseHeaders: Record<string, string>;
  /** ISO 8601, when the page had loaded. */
  capturedAt: string;
  /** Paths inside the WACZ; null when the page did not load. */
  screenshot: string | null;
  pdf: string | null;
  dom: string | null;
  /** Why the page could not be captured, in Chinese; null when it was. */
  error: string | null;
}

/** The job's result: the WACZ and what is in it. */
export interface CaptureResult {
  /** Path of the WACZ file (in the job's work directory). */
  wacz: string;
  sha256: string;
  bytes: number;
  pages: CapturedPage[];
  /** Requests the egress proxy refused (SSRF policy, byte cap). */
  blocked: BlockedRequest[];
}

/** Settings of one capture job. */
export interface CaptureOptions {
  /** A directory of the job's own (created if missing); the WACZ and its parts are written there. */
  workDir: string;
  title: string;
  timeoutMs: number;
  maxBytes: number;
  resolver?: Resolver;
  /** `address:port` pairs reachable although not public (tests only). */
  allow?: ReadonlySet<string>;
  /** Accept TLS certificates Chromium would refuse (tests only: a self-signed local server). */
  acceptInsecureCerts?: boolean;
  /** The capture clock (the platform's); defaults to the system clock. */
  now?: () => Date;
  /**
   * Ends the capture at once when aborted (the job's deadline, decision 063): the context, the proxy with every
   * connection it holds and the WARC are closed, the capture then throws the signal's reason and packages nothing.
   */
  signal?: AbortSignal;
}

const SOFTWARE = 'Cunzheng web capture (Chromium, warcio)';
/**
 * How long closing a session waits for response bodies still being read before it closes the context, which ends
 * them (a page that trickles its body would otherwise hold the job open; decision 063), milliseconds.
 */
export const SETTLE_MS = 2000;
const VIEWPORT = { width: 1280, height: 800 };

/** Captures one URL in `page`, writing its files under `dir` as `page-<n>/…`. */
async function capturePage(
  page: Page,
  url: string,
  n: number,
  opts: CaptureOptions,
  proxy: EgressProxy,
  files: WaczFile[],
): Promise<CapturedPage> {
  const now = opts.now ?? (() => new Date());
  const base: CapturedPage = {
    requestedUrl: url,
    finalUrl: url,
    redirects: [],
    status: 0,
    title: '',
    serverIp: null,
    tls: null,
    responseHeaders: {},
    capturedAt: now().toISOString(),
    screenshot: null,
    pdf: null,
    dom: null,
    error: null,
  };
  let res: HTTPResponse | null;
  try {
    res = await page.goto(url, { waitUntil: 'networkidle2', timeout: opts.timeoutMs });
  } catch (err) {
    return { ...base, error: navigationFailure(err, url, proxy.blocked, opts.timeoutMs) };
  }
  if (!res) return { ...base, error: '无法打开该网址' };
  const finalUrl = res.url();
  const refused = proxy.blocked.find((b) => b.target === finalUrl);
  const dir = `capture/page-${n}`;
  const out = path.join(opts.workDir, `page-${n}`);
  await fsp.mkdir(out, { recursive: true });
  const shot = path.join(out, 'screenshot.png');
  const pdf = path.join(out, 'page.pdf');
  const dom = path.join(out, 'dom.html');
  await page.screenshot({ path: shot, fullPage: true, type: 'png' });
  await fsp.writeFile(pdf, await page.pdf({ printBackground: true, format: 'A4' }));
  await fsp.writeFile(dom, await page.content(), 'utf8');
  files.push(
    { path: `${dir}/screenshot.png`, source: shot },
    { path: `${dir}/page.pdf`, source: pdf },
    { path: `${dir}/dom.html`, source: dom },
  );
  return {
    ...base,
    finalUrl,
    redirects: res
      .request()
      .redirectChain()
      .map((r) => r.url()),
    status: res.status(),
    title: await page.title(),
    serverIp: proxy.addressOf(finalUrl),
    tls: tlsOf(res),
    responseHeaders: res.headers(),
    capturedAt: now().toISOString(),
    screenshot: `${dir}/screenshot.png`,
    pdf: `${dir}/page.pdf`,
    dom: `${dir}/dom.html`,
    error: refused ? refused.reason : res.status() >= 400 ? `网页返回 HTTP ${res.status()}` : null,
  };
}

/** A capture in progress: the page, its proxy, the WARC being written, the files for the WACZ. */
export interface CaptureSession {
  page: Page;
  proxy: EgressProxy;
  files: WaczFile[];
  /**
   * Closes the context, the proxy and the WARC, after the bodies still being read or {@link SETTLE_MS} (none when
   * aborted); idempotent.
   */
  close(): Promise<void>;
  /** Packages the WACZ: the WARC, its index, `capture/capture.json` of `record`, `files`, the listed pages. */
  finish(record: object, pages: WaczPage[]): Promise<{ wacz: string; sha256: string; bytes: number }>;
}

/**
 * Opens a capture in a fresh context of `browser` whose only way out is a new egress proxy; downloads denied,
 * pop-ups closed, dialogs dismissed; every exchange of the page recorded into the WARC.
 */
export async function openCaptureSession(browser: Browser, opts: CaptureOptions): Promise<CaptureSession> {
  const now = opts.now ?? (() => new Date());
  await fsp.mkdir(opts.workDir, { recursive: true });
  const proxy = await startEgressProxy({
    resolve: opts.resolver,
    allow: opts.allow,
    maxBytes: opts.maxBytes,
  });
  const warcFile = path.join(opts.workDir, 'data.warc.gz');
  const warc = await WarcWriter.open(warcFile, SOFTWARE);
  const context = await browser.createBrowserContext({
    proxyServer: proxy.url,
    proxyBypassList: ['<-loopback>'],
  });
  const page = await context.newPage();
  const cdp = await page.createCDPSession();
  await cdp.send('Browser.setDownloadBehavior', {
    behavior: 'deny',
    browserContextId: (context as unknown as { id?: string }).id,
  });
  if (opts.acceptInsecureCerts) await cdp.send('Security.setIgnoreCertificateErrors', { ignore: true });
  page.on('popup', (p) => void p?.close().catch(() => undefined));
  page.on('dialog', (d) => void d.dismiss().catch(() => undefined));
  await page.setViewport(VIEWPORT);
  const settled = recordExchanges(page, proxy, warc, now);
  const files: WaczFile[] = [];
  let closed: Promise<void> | null = null;
  /** Waits for the bodies being read, at most `ms`. */
  const settle = (ms: number) => {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((done) => (timer = setTimeout(done, ms)));
    return Promise.race([settled().catch(() => undefined), limit]).finally(() => clearTimeout(timer));
  };
  // aborted: no wait for bodies; closing the context rejects the ones still being read
  const close = () =>
    (closed ??= (async () => {
      if (!opts.signal?.aborted) await settle(SETTLE_MS);
      await context.close().catch(() => undefined);
      await proxy.close();
      await settle(SETTLE_MS);
      await warc.close();
    })());
  opts.signal?.addEventListener('abort', () => void close(), { once: true });
  return {
    page,
    proxy,
    files,
    close,
    async finish(record, pages) {
      await close();
      opts.signal?.throwIfAborted();
      const capture = {
        software: SOFTWARE,
        ...record,
        blocked: proxy.blocked,
        connections: proxy.connections,
      };
      const all: WaczFile[] = [
        { path: 'archive/data.warc.gz', source: warcFile },
        {
          path: 'indexes/index.cdx',
          source: new TextEncoder().encode(await cdxjOf(warcFile, 'data.warc.gz')),
        },
        {
          path: 'capture/capture.json',
          source: new TextEncoder().encode(`${JSON.stringify(capture, null, 2)}\n`),
        },
        ...files,
      ];
      const wacz = path.join(opts.workDir, 'capture.wacz');
      const { sha256, bytes } = await writeWacz(wacz, all, pages, {
        title: opts.title,
        created: now(),
        software: SOFTWARE,
      });
      return { wacz, sha256, bytes };
    },
  };
}

/**
 * Captures `urls` one after the other in a fresh context of `browser` and packages everything as a WACZ.
 * A URL that cannot be captured (refused, unreachable, timed out) is reported in its page's `error`; the job still
 * packages the others. @throws when the work directory or the package cannot be written
 */
export async function captureWeb(
  browser: Browser,
  urls: string[],
  opts: CaptureOptions,
): Promise<CaptureResult> {
  const session = await openCaptureSession(browser, opts);
  const pages: CapturedPage[] = [];
  try {
    for (const [i, url] of urls.entries()) {
      if (opts.signal?.aborted) break;
      pages.push(await capturePage(session.page, url, i + 1, opts, session.proxy, session.files));
    }
  } finally {
    await session.close();
  }
  opts.signal?.throwIfAborted();
  const waczPages: WaczPage[] = pages.flatMap((p, i) =>
    p.screenshot ? [{ id: `page-${i + 1}`, url: p.finalUrl, ts: p.capturedAt, title: p.title }] : [],
  );
  const { wacz, sha256, bytes } = await session.finish({ pages }, waczPages);
  return { wacz, sha256, bytes, pages, blocked: session.proxy.blocked };
}
