/**
 * SSRF safety of captures (decision 037): Chromium, pointed at the egress proxy as a capture's context is, with a
 * fake resolver. A public name reaches the (allow-listed) test site; loopback (127.0.0.1, [::1]), 10/8, the cloud
 * metadata address, a name resolving to a private address, a name resolving to a public and a private address, a
 * public page redirecting to a private address, an image of a public page pointing at the metadata address and HTTPS
 * (CONNECT) to a private name are each refused with a reason, and nothing is connected to them. Past the byte cap the
 * proxy cuts the capture.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../pdf/browser-pool.ts';
import { hasChromium } from '../../tests/support/pdf-whole.ts';
import { addressRefusal, allowKey, parseAllowList } from './address-policy.ts';
import { startEgressProxy, type EgressProxy, type Resolver } from './egress-proxy.ts';
import { chromiumPath } from '../../tests/support/environment.ts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** A test site on loopback: pages, an image, redirects to private addresses, a page with a private image. */
function testSite(): http.Server {
  return http.createServer((req, res) => {
    const html = (body: string) =>
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>${body}`);
    switch (req.url) {
      case '/':
        return html('<title>公开页面</title><p>hello</p><img src="/pic.png" alt="">');
      case '/pic.png':
        return res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
      case '/redirect-private':
        return res.writeHead(302, { location: 'http://10.1.2.3/secret' }).end();
      case '/img-private':
        return html('<title>图片</title><img src="http://169.254.169.254/latest/meta-data/x.png" alt="">');
      case '/big':
        return res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(200_000));
      default:
        return res.writeHead(404).end();
    }
  });
}

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('address policy', () => {
  it('passes public unicast only', () => {
    for (const ok of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])
      expect(addressRefusal(ok), ok).toBeNull();
    const refused: [string, string][] = [
      ['127.0.0.1', '本机回环地址'],
      ['::1', '本机回环地址'],
      ['10.1.2.3', '内网地址'],
      ['172.16.0.1', '内网地址'],
      ['192.168.1.1', '内网地址'],
      ['fd00:ec2::254', '内网地址'],
      ['169.254.169.254', '链路本地地址'],
      ['fe80::1', '链路本地地址'],
      ['100.100.100.200', '运营商级 NAT 地址'],
      ['0.0.0.0', '未指定地址'],
      ['::', '未指定地址'],
      ['224.0.0.1', '组播地址'],
      ['255.255.255.255', '广播地址'],
      ['::ffff:127.0.0.1', '嵌入 IPv4'],
      ['::ffff:10.0.0.1', '嵌入 IPv4'],
      ['64:ff9b::a00:1', '嵌入 IPv4'],
      ['2002:a00:1::', '嵌入 IPv4'],
      ['192.0.2.1', '保留地址'],
    ];
    for (const [address, words] of refused) expect(addressRefusal(address), address).toContain(words);
  });

  it('reads the test allow-list of exact address:port pairs', () => {
    expect(parseAllowList('127.0.0.1:8080, [::1]:8443')).toEqual(
      new Set([allowKey('127.0.0.1', 8080), allowKey('::1', 8443)]),
    );
    expect(() => parseAllowList('localhost:80')).toThrow(/CAPTURE_TEST_ALLOW/);
    expect(() => parseAllowList('127.0.0.1')).toThrow(/CAPTURE_TEST_ALLOW/);
  });
});

describe.skipIf(!hasChromium())('the egress proxy, with Chromium behind it', () => {
  const site = testSite();
  const other = testSite();
  let sitePort: number;
  let otherPort: number;
  let browser: Browser;
  let proxy: EgressProxy;
  let context: BrowserContext;
  const lookups: string[] = [];
  const resolver: Resolver = async (host) => {
    lookups.push(host);
    const table: Record<string, string[]> = {
      'public.test': ['127.0.0.1'],
      'internal.test': ['10.0.0.8'],
      'mixed.test': ['93.184.216.34', '10.0.0.9'],
    };
    const found = table[host];
    if (!found) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: 4 }));
  };

  beforeAll(async () => {
    sitePort = await listen(site);
    otherPort = await listen(other);
    browser = await launchChromium(chromiumPath());
  });
  afterAll(async () => {
    await browser?.close();
    site.close();
    other.close();
  });

  /** A fresh proxy (allowing the test site only) and a browser context going through it. */
  async function freshContext(maxBytes = 10_000_000) {
    await context?.close();
    await proxy?.close();
    proxy = await startEgressProxy({
      resolve: resolver,
      allow: new Set([allowKey('127.0.0.1', sitePort)]),
      maxBytes,
    });
    context = await browser.createBrowserContext({
      proxyServer: proxy.url,
      proxyBypassList: ['<-loopback>'],
    });
    return context.newPage();
  }

  it('reaches a public name, pinned to the address it was checked at', async () => {
    const page = await freshContext();
    const images: number[] = [];
    page.on('response', (r) => {
      if (r.url().endsWith('/pic.png')) images.push(r.status());
    });
    const res = await page.goto(`http://public.test:${sitePort}/`);
    expect(res?.status()).toBe(200);
    expect(await page.title()).toBe('公开页面');
    expect(images).toEqual([200]);
    expect(proxy.connections).toContainEqual({ host: 'public.test', port: sitePort, address: '127.0.0.1' });
    expect(proxy.blocked).toEqual([]);
  });

  it('refuses loopback, private, metadata and privately resolving targets, at the first request', async () => {
    const cases: [string, string][] = [
      [`http://127.0.0.1:${otherPort}/`, '目标地址 127.0.0.1 属于本机回环地址'],
      [`http://[::1]:${otherPort}/`, '目标地址 ::1 属于本机回环地址'],
      ['http://10.0.0.5/', '目标地址 10.0.0.5 属于内网地址'],
      ['http://169.254.169.254/latest/meta-data/', '目标地址 169.254.169.254 属于链路本地地址'],
      ['http://internal.test/', 'internal.test 解析到的地址 10.0.0.8 属于内网地址'],
      ['http://mixed.test/', 'mixed.test 解析到的地址 10.0.0.9 属于内网地址'],
      ['https://internal.test/', 'internal.test 解析到的地址 10.0.0.8 属于内网地址'],
      ['http://nowhere.test/', '无法解析域名 nowhere.test'],
    ];
    for (const [url, reason] of cases) {
      const page = await freshContext();
      const res = await page.goto(url).catch(() => null);
      // plain HTTP: the proxy's 403 page; HTTPS: the tunnel refused, so the navigation fails
      if (url.startsWith('http:')) {
        expect(res?.status(), url).toBe(403);
        expect(await page.evaluate(() => document.body.innerText), url).toContain(reason);
      } else {
        expect(res, url).toBeNull();
      }
      // (Chromium asks for a refused tunnel again once)
      expect(proxy.blocked.length, url).toBeGreaterThan(0);
      for (const b of proxy.blocked) expect(b.reason, url).toContain(reason);
      expect(proxy.connections, url).toEqual([]);
    }
  });

  it('refuses a redirect to a private address and a private subresource of a public page', async () => {
    let page = await freshContext();
    const res = await page.goto(`http://public.test:${sitePort}/redirect-private`);
    expect(res?.status()).toBe(403);
    expect(proxy.blocked[0]).toEqual({
      target: 'http://10.1.2.3/secret',
      reason: '目标地址 10.1.2.3 属于内网地址，不允许取证访问',
    });
    // Chromium may also ask that host for a favicon of its error page: refused alike, nothing else is
    expect(proxy.blocked.every((b) => b.target.startsWith('http://10.1.2.3/'))).toBe(true);
    expect(proxy.connections.every((c) => c.address === '127.0.0.1')).toBe(true);

    page = await freshContext();
    const failed: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 403) failed.push(r.url());
    });
    expect((await page.goto(`http://public.test:${sitePort}/img-private`))?.status()).toBe(200);
    await page.waitForNetworkIdle({ idleTime: 200 });
    expect(failed).toEqual(['http://169.254.169.254/latest/meta-data/x.png']);
    expect(proxy.blocked.map((b) => b.target)).toEqual(['http://169.254.169.254/latest/meta-data/x.png']);
    // the page (and the favicon Chromium asks for) from the test site, nothing from the metadata address
    expect(new Set(proxy.connections.map((c) => c.address))).toEqual(new Set(['127.0.0.1']));
  });

  it('cuts the capture past its byte cap', async () => {
    const page = await freshContext(50_000);
    await page.goto(`http://public.test:${sitePort}/big`).catch(() => null);
    expect(proxy.overLimit()).toBe(true);
    const again = await page.goto(`http://public.test:${sitePort}/`).catch(() => null);
    expect(again?.status()).toBe(403);
    expect(proxy.blocked.at(-1)?.reason).toContain('取证数据超过上限');
  });
});
