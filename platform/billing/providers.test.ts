/**
 * The billing providers without a database (decision 018): `AlipayPay` (alipay-sdk) against the sandbox gateway and
 * its cashier — page pay as a browser without JavaScript, query, close, a signed notification checked with
 * `checkNotifySignV2`, a wrong key refused, a tampered amount refused by the gateway, and an unacknowledged
 * notification delivered again after the sandbox restarts — and the billing configuration (`POINT_PRICE_FEN`,
 * `ORDER_TIMEOUT_MINUTES`, `WECHATPAY_*` all or none).
 */
import { generateKeyPairSync } from 'node:crypto';
import fsp from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadPlatformConfig } from '../config.ts';
import { AlipayPay } from './alipay-pay.ts';
import { startAlipayCashier, type AlipayCashier } from './alipay-cashier.ts';
import { fenToYuan, newOrderNo, yuanToFen } from './money.ts';
import { ProviderUnavailable } from './providers.ts';
import { openAlipay, submitCashier } from '../../tests/support/billing.ts';

/** A notify endpoint answering `answers` in turn (then `success`); records each body. */
function notifyServer(answers: string[]) {
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      bodies.push(body);
      res.end(answers.shift() ?? 'success');
    });
  });
  return {
    bodies,
    async start() {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/notify/alipay`;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('money', () => {
  it('converts fen and yuan text without floats, and makes unguessable order numbers', () => {
    expect(fenToYuan(5000)).toBe('50.00');
    expect(fenToYuan(1)).toBe('0.01');
    expect(yuanToFen('50.00')).toBe(5000);
    expect(yuanToFen('0.1')).toBe(10);
    expect(yuanToFen('12')).toBe(1200);
    for (const bad of ['', '-1.00', '1e3', '1.001', ' 1.00', '0x10']) expect(yuanToFen(bad)).toBeNull();
    const a = newOrderNo('R', 1_700_000_000);
    expect(a).toMatch(/^R20231115[0-9a-f]{20}$/);
    expect(newOrderNo('R', 1_700_000_000)).not.toBe(a);
  });
});

describe('Alipay page pay against the sandbox cashier', () => {
  let dir = '';
  let cashier: AlipayCashier;
  let pay: AlipayPay;
  const notify = notifyServer(['fail']);
  let notifyUrl = '';
  const request = (orderNo: string, amountFen = 5000) => ({
    orderNo,
    amountFen,
    description: '充值50积分',
    expiresAt: Math.floor(Date.now() / 1000) + 1800,
    returnUrl: 'http://localhost:3000/buyCredits/result?order_no=x',
  });

  beforeAll(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-alipay-pay-'));
    notifyUrl = await notify.start();
    cashier = await startAlipayCashier({ dataDir: dir, notifyRetryDelaysMs: [0, 50], resumeDelayMs: 10 });
    pay = new AlipayPay(cashier.clientConfig(), { notifyUrl, sellerId: cashier.sellerId });
  });
  afterAll(async () => {
    await cashier.close();
    await notify.close();
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('pays through the cashier, notifies until `success`, and answers query and close', async () => {
    const no = newOrderNo('R', Math.floor(Date.now() / 1000));
    expect((await pay.query(no)).state).toBe('absent');
    expect(await pay.close(no)).toBe('absent');
    const started = await pay.start(request(no));
    expect(started.html).toContain(`action="${cashier.url}/gateway.do?`);
    const page = await openAlipay(started.url);
    expect(page).toMatch(/\/cashier\/[0-9a-f]{32}$/);
    expect(await pay.query(no)).toMatchObject({ state: 'pending', amountFen: 5000 });
    const done = await submitCashier(page, 'success');
    expect(done).toContain('支付成功');
    await cashier.deliveriesIdle();
    // The first attempt was answered `fail`, the retry `success`.
    expect(notify.bodies).toHaveLength(2);
    const fields = Object.fromEntries(new URLSearchParams(notify.bodies[1]!));
    expect(fields).toMatchObject({ out_trade_no: no, trade_status: 'TRADE_SUCCESS', total_amount: '50.00' });
    expect(fields.seller_id).toBe(cashier.sellerId);
    expect(pay.verifyNotification(fields)).toBe(true);
    expect(pay.verifyNotification({ ...fields, total_amount: '0.01' })).toBe(false);
    expect(cashier.store.get(no)?.notify.acknowledged).toBe(true);
    const q = await pay.query(no);
    expect(q).toMatchObject({ state: 'paid', amountFen: 5000, currency: 'CNY' });
    expect(q.tradeNo).toMatch(/^\d{28}$/);
    expect(await pay.close(no)).toBe('refused');
  });

  it('closes a waiting trade, after which the cashier refuses to pay', async () => {
    const no = newOrderNo('R', Math.floor(Date.now() / 1000));
    const page = await openAlipay((await pay.start(request(no, 100))).url);
    expect(await pay.close(no)).toBe('closed');
    expect(await pay.close(no)).toBe('closed');
    expect((await pay.query(no)).state).toBe('closed');
    expect(await submitCashier(page, 'success')).toContain('交易已关闭');
  });

  it('refuses a page pay whose amount differs from the trade, and a client with the wrong key', async () => {
    const no = newOrderNo('R', Math.floor(Date.now() / 1000));
    await openAlipay((await pay.start(request(no, 100))).url);
    const res = await fetch((await pay.start(request(no, 200))).url, { redirect: 'manual' });
    expect(res.status).toBe(400);
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const wrong = new AlipayPay(
      {
        ...cashier.clientConfig(),
        privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      },
      { notifyUrl, sellerId: '' },
    );
    await expect(wrong.query(no)).rejects.toBeInstanceOf(ProviderUnavailable);
  });

  it('delivers an unacknowledged notification again when the sandbox restarts', async () => {
    const no = newOrderNo('R', Math.floor(Date.now() / 1000));
    const page = await openAlipay((await pay.start(request(no, 300))).url);
    notify.bodies.length = 0;
    await cashier.store.change(cashier.store.get(no)!, (t) => {
      t.status = 'TRADE_SUCCESS';
      t.paidAt = Date.now();
    });
    expect(page).toContain('/cashier/');
    await cashier.close();
    cashier = await startAlipayCashier({ dataDir: dir, notifyRetryDelaysMs: [0, 50], resumeDelayMs: 10 });
    pay = new AlipayPay(cashier.clientConfig(), { notifyUrl, sellerId: cashier.sellerId });
    for (let i = 0; i < 50 && !cashier.store.get(no)?.notify.acknowledged; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(cashier.store.get(no)?.notify.acknowledged).toBe(true);
    expect(notify.bodies.map((b) => new URLSearchParams(b).get('out_trade_no'))).toEqual([no]);
  });
});

describe('billing configuration', () => {
  const base = { DATA_DIR: '/tmp/x', APP_ENV: 'test' };
  it('defaults and bounds', () => {
    const c = loadPlatformConfig(base);
    expect(c.billing).toMatchObject({
      pointPriceFen: 100,
      orderTimeoutMinutes: 30,
      alipayNotifyUrl: 'http://localhost:3000/api/notify/alipay',
      wechatNotifyUrl: 'http://localhost:3000/api/notify/wechat',
    });
    expect(c.wechatpay).toBeNull();
    expect(loadPlatformConfig({ ...base, POINT_PRICE_FEN: '250' }).billing.pointPriceFen).toBe(250);
    expect(() => loadPlatformConfig({ ...base, POINT_PRICE_FEN: '0' })).toThrow(/POINT_PRICE_FEN/);
    expect(() => loadPlatformConfig({ ...base, ORDER_TIMEOUT_MINUTES: '1.5' })).toThrow(
      /ORDER_TIMEOUT_MINUTES/,
    );
  });
  it('takes WECHATPAY_* all or none', () => {
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const full = {
      ...base,
      WECHATPAY_MCHID: '1900000109',
      WECHATPAY_APPID: 'wx0123456789abcdef',
      WECHATPAY_MERCHANT_SERIAL_NO: 'ABC123',
      WECHATPAY_MERCHANT_PRIVATE_KEY: 'PEM',
      WECHATPAY_API_V3_KEY: 'k'.repeat(32),
      WECHATPAY_PUBLIC_KEY_ID: 'PUB_KEY_ID_0001',
      WECHATPAY_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    };
    expect(loadPlatformConfig(full).wechatpay).toMatchObject({
      mchid: '1900000109',
      baseUrl: 'https://api.mch.weixin.qq.com',
    });
    expect(Object.keys(loadPlatformConfig(full).wechatpay!.platformCerts)).toEqual(['PUB_KEY_ID_0001']);
    const { WECHATPAY_API_V3_KEY: _omitted, ...partial } = full;
    expect(() => loadPlatformConfig(partial)).toThrow(ConfigError);
    expect(() => loadPlatformConfig({ ...full, WECHATPAY_PLATFORM_CERTS: 'not json' })).toThrow(
      /PLATFORM_CERTS/,
    );
  });
});
