/**
 * Web page capture (decision 037) on the real Chromium against a local test site through the egress proxy and a
 * fake resolver: three pages, a redirect, an image, and an HTTPS server with a self-signed certificate (accepted in
 * tests only). The WACZ validates (tests/support/wacz-check.ts: every listed file's SHA-256, the package digest, the
 * WARC's records parse with warcio and hold each exchange with the server's address), the screenshot shows the page
 * (its pixels read back in Chromium), and each page records its final URL, redirect chain, server IP and TLS facts.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../pdf/browser-pool.ts';
import { hasChromium } from '../../tests/support/pdf-whole.ts';
import { checkWacz } from '../../tests/support/wacz-check.ts';
import { allowKey } from './address-policy.ts';
import { captureWeb } from './web-capture.ts';
import { chromiumPath } from '../../tests/support/environment.ts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

function handler(req: http.IncomingMessage, res: http.ServerResponse) {
  const page = (title: string, extra = '') =>
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'x-test-site': 'yes' })
      .end(
        `<!doctype html><html><head><title>${title}</title></head>` +
          `<body style="margin:0;background:rgb(200,30,40)"><h1>${title}</h1>${extra}</body></html>`,
      );
  switch (req.url) {
    case '/':
      return page('首页', '<img src="/pic.png" width="20" height="20" alt="">');
    case '/a':
      return page('页面A');
    case '/b':
      return page('页面B');
    case '/old':
      return res.writeHead(301, { location: '/a' }).end();
    case '/pic.png':
      return res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    default:
      return res.writeHead(404).end();
  }
}

async function listen(server: http.Server | https.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe.skipIf(!hasChromium())('web capture to WACZ', () => {
  let dir: string;
  let browser: Browser;
  let plain: http.Server;
  let secure: https.Server;
  let p: number;
  let s: number;

  beforeAll(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-capture-'));
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=secure.test',
        '-addext',
        'subjectAltName=DNS:secure.test',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
    plain = http.createServer(handler);
    secure = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, handler);
    p = await listen(plain);
    s = await listen(secure);
    browser = await launchChromium(chromiumPath());
  });
  afterAll(async () => {
    await browser?.close();
    plain?.close();
    secure?.close();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('captures pages, a redirect, an image and an HTTPS page into a WACZ that validates', async () => {
    const when = new Date('2026-11-27T08:00:00.000Z');
    const result = await captureWeb(
      browser,
      [
        `http://site.test:${p}/`,
        `http://site.test:${p}/old`,
        `http://site.test:${p}/b`,
        `https://secure.test:${s}/`,
      ],
      {
        workDir: path.join(dir, 'job'),
        title: '测试取证',
        timeoutMs: 20_000,
        maxBytes: 50_000_000,
        resolver: async (host) => (host.endsWith('.test') ? [{ address: '127.0.0.1', family: 4 }] : []),
        allow: new Set([allowKey('127.0.0.1', p), allowKey('127.0.0.1', s)]),
        acceptInsecureCerts: true,
        now: () => when,
      },
    );

    expect(result.pages.map((x) => [x.title, x.status, x.error])).toEqual([
      ['首页', 200, null],
      ['页面A', 200, null],
      ['页面B', 200, null],
      ['首页', 200, null],
    ]);
    const [home, moved, , tls] = result.pages;
    expect(moved!.redirects).toEqual([`http://site.test:${p}/old`]);
    expect(moved!.finalUrl).toBe(`http://site.test:${p}/a`);
    expect(home!.serverIp).toBe('127.0.0.1');
    expect(home!.responseHeaders['x-test-site']).toBe('yes');
    expect(home!.capturedAt).toBe(when.toISOString());
    expect(home!.tls).toBeNull();
    expect(tls!.tls).toMatchObject({ subject: 'secure.test', issuer: 'secure.test', protocol: 'TLS 1.3' });
    expect(tls!.tls!.subjectAlternativeNames).toContain('secure.test');
    expect(result.blocked).toEqual([]);

    // the package: its SHA-256 is the file's; every listed file matches; the WARC parses
    const bytes = await fsp.readFile(result.wacz);
    expect(result.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(result.bytes).toBe(bytes.length);
    const wacz = await checkWacz(result.wacz);
    expect(wacz.problems).toEqual([]);
    for (const name of [
      'archive/data.warc.gz',
      'indexes/index.cdx',
      'pages/pages.jsonl',
      'capture/capture.json',
    ])
      expect(wacz.entries).toContain(name);
    expect(wacz.entries).toContain('capture/page-4/screenshot.png');
    expect(wacz.read('capture/page-1/page.pdf').subarray(0, 5).toString()).toBe('%PDF-');
    expect(wacz.read('capture/page-2/dom.html').toString()).toContain('<h1>页面A</h1>');
    expect(wacz.read('indexes/index.cdx').toString()).toContain(`{"url":"http://site.test:${p}/pic.png"`);

    const responses = wacz.records.filter((r) => r.type === 'response');
    expect(wacz.records[0]!.type).toBe('warcinfo');
    expect(wacz.records.filter((r) => r.type === 'request').length).toBe(responses.length);
    const pic = responses.find((r) => r.url === `http://site.test:${p}/pic.png`);
    expect(pic?.payload.equals(PNG)).toBe(true);
    expect(pic?.ipAddress).toBe('127.0.0.1');
    const redirect = responses.find((r) => r.url === `http://site.test:${p}/old`);
    expect(redirect?.status).toBe(301);
    expect(responses.some((r) => r.url === `https://secure.test:${s}/` && r.payload.includes('首页'))).toBe(
      true,
    );

    // the screenshot shows the page: its pixels, read back in the browser, are the page's background
    const page = await browser.newPage();
    try {
      const png = wacz.read('capture/page-3/screenshot.png').toString('base64');
      const pixel = await page.evaluate(async (data: string) => {
        const img = new Image();
        img.src = `data:image/png;base64,${data}`;
        await img.decode();
        const canvas = document.createElement('canvas');
        canvas.width = img.width;
        canvas.height = img.height;
        const ctx = canvas.getContext('2d')!;
        ctx.drawImage(img, 0, 0);
        return { width: img.width, rgb: [...ctx.getImageData(5, img.height - 5, 1, 1).data.slice(0, 3)] };
      }, png);
      expect(pixel).toEqual({ width: 1280, rgb: [200, 30, 40] });
    } finally {
      await page.close();
    }
  });
});
