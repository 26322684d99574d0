/**
 * Outbound calls behind a corporate egress proxy (decision 043): each provider's real SDK — Tencent Cloud SMS,
 * WeChat Pay, Alipay — and fetch reach hosts that only the proxy can resolve (`*.test`), through HTTPS_PROXY /
 * HTTP_PROXY, and go straight (and fail to resolve) without it or when NO_PROXY names the host; https targets are
 * tunnelled with CONNECT; loopback never goes through the proxy.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startForwardProxy, type ForwardProxy } from '../../tests/support/forward-proxy.ts';
import { startTencentSmsSandbox, type TencentSmsSandbox } from '../account/sms-tencent-sandbox.ts';
import { TencentSmsProvider } from '../account/sms-tencent.ts';
import { WechatPayV3Client } from '../billing/wechatpay/client.ts';
import { startWechatPaySandbox, type WechatPaySandbox } from '../billing/wechatpay/sandbox.ts';
import { AlipayFace } from '../kyc/alipay-face.ts';
import { startAlipaySandbox, type AlipaySandbox } from '../kyc/alipay-sandbox-server.ts';
import { installOutboundProxy, outboundProxyEnv, type ProxyEnv } from '../../lib/outbound-proxy.ts';

/** `url` with its host renamed to `name` (same port): reachable only through the proxy. */
const renamed = (url: string, name: string) => {
  const u = new URL(url);
  u.hostname = name;
  return u.toString().replace(/\/$/, '');
};

let proxy: ForwardProxy;
let env: ProxyEnv;
let dir: string;
beforeAll(async () => {
  proxy = await startForwardProxy();
  env = outboundProxyEnv({ HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url })!;
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-proxy-'));
});
afterAll(async () => {
  await proxy?.close();
  if (dir) await fsp.rm(dir, { recursive: true, force: true });
});

describe('reading HTTPS_PROXY, HTTP_PROXY and NO_PROXY', () => {
  it('is off without a proxy, prefers upper case, always keeps loopback direct, refuses a non-URL', () => {
    expect(outboundProxyEnv({ NO_PROXY: 'a.example' })).toBeNull();
    expect(
      outboundProxyEnv({
        https_proxy: 'http://lower:1',
        HTTPS_PROXY: 'http://upper:2',
        no_proxy: 'corp.example',
      }),
    ).toEqual({ HTTPS_PROXY: 'http://upper:2', NO_PROXY: 'corp.example,localhost,.localhost,127.0.0.1,::1' });
    expect(outboundProxyEnv({ http_proxy: 'http://p:3' }, ['platform.internal'])).toEqual({
      HTTP_PROXY: 'http://p:3',
      NO_PROXY: 'localhost,.localhost,127.0.0.1,::1,platform.internal',
    });
    expect(() => outboundProxyEnv({ HTTPS_PROXY: 'proxy.corp:8080' })).toThrow(/not an http\(s\) URL/);
  });
});

describe('provider SDKs through the proxy', () => {
  let sms: TencentSmsSandbox;
  let wechat: WechatPaySandbox;
  let alipay: AlipaySandbox;
  beforeAll(async () => {
    sms = await startTencentSmsSandbox({
      keys: { AKIDproxy: 'proxy-secret' },
      sdkAppId: '1400000001',
      signName: '存证云',
      templates: [{ id: '100001', params: 1 }],
    });
    wechat = await startWechatPaySandbox({ dataDir: path.join(dir, 'wechat') });
    alipay = await startAlipaySandbox({ dataDir: path.join(dir, 'alipay') });
  });
  afterAll(async () => {
    await Promise.all([sms?.close(), wechat?.close(), alipay?.close()]);
  });

  it('Tencent Cloud SMS: sent through the proxy; without it the host does not resolve', async () => {
    const endpoint = renamed(sms.endpoint, 'sms.provider.test');
    const config = {
      secretId: 'AKIDproxy',
      secretKey: 'proxy-secret',
      sdkAppId: '1400000001',
      signName: '存证云',
      region: 'ap-guangzhou',
      templates: { code: '100001', kycApproved: '100001', kycRejected: '100001' },
      endpoint,
    };
    await new TencentSmsProvider({ ...config, proxy: env }).send('13900000011', {
      kind: 'code',
      purpose: 'register',
      code: '135790',
    });
    expect(sms.sent.at(-1)).toMatchObject({ phoneNumber: '+8613900000011', params: ['135790'] });
    expect(proxy.seen).toContain(`POST ${endpoint}/`);
    await expect(
      new TencentSmsProvider({ ...config, proxy: null }).send('13900000012', {
        kind: 'code',
        purpose: 'register',
        code: '135790',
      }),
    ).rejects.toMatchObject({ code: 'Transport' });
  });

  it('WeChat Pay: a signed prepay through the proxy, its signed answer verified; NO_PROXY goes straight', async () => {
    const baseUrl = renamed(wechat.url, 'pay.provider.test');
    const order = () => ({
      outTradeNo: `CZ${randomBytes(12).toString('hex')}`,
      description: '存证云-积分充值 50 积分',
      amountFen: 5000,
      notifyUrl: 'https://cunzheng.example/api/notify/wechat',
    });
    const through = new WechatPayV3Client({ ...wechat.clientConfig(), baseUrl, proxy: env });
    expect((await through.nativePrepay(order())).codeUrl).toMatch(/^http/);
    expect(proxy.seen.some((s) => s.startsWith(`POST ${baseUrl}/v3/pay/transactions/native`))).toBe(true);
    const bypass = outboundProxyEnv({ HTTP_PROXY: proxy.url, NO_PROXY: 'pay.provider.test' });
    const straight = new WechatPayV3Client({ ...wechat.clientConfig(), baseUrl, proxy: bypass });
    const seen = proxy.seen.length;
    await expect(straight.nativePrepay(order())).rejects.toThrow();
    expect(proxy.seen.length).toBe(seen);
  });

  it('Alipay: face initialisation through the proxy (urllib dispatcher); without it the host does not resolve', async () => {
    const gateway = renamed(alipay.clientConfig().gateway, 'openapi.provider.test');
    const input = () => ({
      outerOrderNo: `CZ${randomBytes(10).toString('hex')}`,
      certName: '张三',
      certNo: '11010519491231002X',
    });
    const face = new AlipayFace(
      { ...alipay.clientConfig(), gateway, proxy: env },
      { returnUrl: 'https://cunzheng.example/r' },
    );
    expect((await face.initialize(input())).certifyId).toMatch(/^[0-9a-f]{32}$/);
    // undici's proxy agent tunnels with CONNECT whatever the scheme
    expect(proxy.seen).toContain(`CONNECT ${new URL(gateway).host}`);
    const direct = new AlipayFace(
      { ...alipay.clientConfig(), gateway, proxy: null },
      { returnUrl: 'https://cunzheng.example/r' },
    );
    await expect(direct.initialize(input())).rejects.toThrow();
  });
});

describe('fetch (TSA, witnesses, jobs) through the global dispatcher', () => {
  const original = getGlobalDispatcher();
  let tls: https.Server;
  let tlsPort: number;
  beforeAll(async () => {
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    await promisify(execFile)('openssl', [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'],
      ...['-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=tsa.provider.test'],
      ...['-addext', 'subjectAltName=DNS:tsa.provider.test'],
    ]);
    tls = https.createServer({ key: await fsp.readFile(key), cert: await fsp.readFile(cert) }, (_q, r) =>
      r.end('stamped'),
    );
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    tlsPort = (tls.address() as { port: number }).port;
  });
  afterAll(async () => {
    setGlobalDispatcher(original);
    await new Promise((resolve) => tls?.close(resolve));
  });

  it('tunnels https with CONNECT (the TLS handshake reaches the named host), never proxies loopback', async () => {
    expect(installOutboundProxy({ HTTPS_PROXY: proxy.url, HTTP_PROXY: proxy.url })).not.toBeNull();
    const url = `https://tsa.provider.test:${tlsPort}/`;
    // this machine does not trust the test's self-signed certificate: a certificate error proves the tunnel and
    // the TLS handshake with the server the proxy connected to (an unproxied call fails to resolve instead)
    const err = await fetch(url).then(
      () => null,
      (e: { cause?: { code?: string } }) => e,
    );
    expect(err?.cause?.code).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY/);
    expect(proxy.seen).toContain(`CONNECT tsa.provider.test:${tlsPort}`);
    const seen = proxy.seen.length;
    const plain = http.createServer((_q, r) => r.end('direct'));
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const port = (plain.address() as { port: number }).port;
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('direct');
      expect(await (await fetch(`http://localhost:${port}/`)).text()).toBe('direct');
    } finally {
      await new Promise((resolve) => plain.close(resolve));
    }
    expect(proxy.seen.length).toBe(seen);
  });
});
