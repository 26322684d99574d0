/**
 * WeChat Pay Native payment (API v3) client: the three calls the payments area uses — Native下单, 商户订单号查询订单,
 * 关闭订单 — through the maintained SDK `wechatpay-axios-plugin`. The SDK signs every request with the merchant's
 * private key and certificate serial (签名生成) and verifies every 2xx response's Wechatpay-Signature against the
 * configured platform certificates or WeChat Pay public keys, with the ±300 s timestamp check (签名验证); a response
 * that does not verify is rejected with {@link WechatPayError} kind 'signature'. It talks to the real
 * api.mch.weixin.qq.com or to the loopback sandbox (./sandbox.ts) alike; only the config differs.
 * Amounts are integer fen (分), never floats.
 */
import { outboundAgents, type ProxyEnv } from '../../../lib/outbound-proxy.ts';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { Wechatpay } from 'wechatpay-axios-plugin';
import { z } from 'zod';
import { formatRfc3339Beijing, TRADE_STATES, type TradeState } from './v3.ts';

import { badAnswer, toWechatPayError } from './errors.ts';

export { TRADE_STATES, type TradeState };
export { WechatPayError, type WechatPayErrorDetails, type WechatPayErrorKind } from './errors.ts';

/** WeChat Pay's production API origin (主域名): WECHATPAY_BASE_URL's default, declared with the variable. */
export { WECHATPAY_API_URL } from '../../config-wechatpay.ts';

/** What the client needs; the sandbox produces one with its `clientConfig()`. */
export interface WechatPayConfig {
  /** 商户号, e.g. '1900000109'. */
  mchid: string;
  /** The AppID bound to the merchant (公众账号ID); Native下单 requires it and notifications carry it. */
  appid: string;
  /** Serial number of the merchant API certificate (商户API证书序列号), 40 hex digits in production. */
  merchantSerialNo: string;
  /** The merchant API private key (apiclient_key.pem), RSA 2048, PEM (PKCS#8 or PKCS#1). */
  merchantPrivateKey: string;
  /** The APIv3 key (APIv3密钥): exactly 32 bytes; decrypts notification resources (see ./notify.ts). */
  apiV3Key: string;
  /**
   * The provider's verification keys by serial: platform certificate serial → certificate PEM (平台证书模式), or
   * WeChat Pay public key ID (PUB_KEY_ID_…) → public key PEM (微信支付公钥模式). Several during a rotation.
   */
  platformCerts: Readonly<Record<string, string>>;
  /** API origin: {@link WECHATPAY_API_URL}, the backup https://api2.mch.weixin.qq.com, or the sandbox's URL. */
  baseUrl: string;
  /** Timeout of one call, ms (default 10000). */
  timeoutMs?: number;
  /** Outbound proxy (core/outbound-proxy.ts): the process's, set by platform/config.ts; absent or null: none. */
  proxy?: ProxyEnv | null;
}

/** Input of {@link WechatPayClient.nativePrepay} (Native下单). */
export interface NativePrepayInput {
  /** Our order number (商户订单号): 6–32 characters, digits, letters and `_-|*`, unique per merchant. */
  outTradeNo: string;
  /** Shown in the payer's WeChat bill (商品描述), at most 127 characters. */
  description: string;
  /** Amount to pay, integer fen (订单总金额, CNY), at least 1. */
  amountFen: number;
  /** Where WeChat Pay POSTs the payment notification (通知地址): an https URL without query in production. */
  notifyUrl: string;
  /** Last moment the payer can pay (支付结束时间); sent as RFC 3339 in Beijing time. */
  timeExpire?: Date;
}

/** Result of {@link WechatPayClient.queryByOutTradeNo}, from a response whose signature verified. */
export interface TradeQueryResult {
  tradeState: TradeState;
  /** The provider's text for the state (trade_state_desc), e.g. 订单未支付. */
  tradeStateDesc?: string;
  /** WeChat Pay's order number (微信支付订单号), present once paid. */
  transactionId?: string;
  /** Order total, integer fen (amount.total). */
  amountFen: number;
  /** amount.currency, 'CNY'. */
  currency: string;
  /** Payment time as the provider wrote it, RFC 3339 (success_time), present once paid. */
  successTime?: string;
  /** The merchant and AppID the provider answered for: check them against the configuration. */
  mchid: string;
  appid: string;
  outTradeNo: string;
}

/** The Native payment operations the payments area uses; {@link WechatPayV3Client} implements them. */
export interface WechatPayClient {
  /** Native下单: opens a payment and returns the code_url to show as a QR code. */
  nativePrepay(input: NativePrepayInput): Promise<{ codeUrl: string }>;
  /** 商户订单号查询订单. */
  queryByOutTradeNo(outTradeNo: string): Promise<TradeQueryResult>;
  /** 关闭订单: the order can no longer be paid. Closing a closed order succeeds again. */
  close(outTradeNo: string): Promise<void>;
}

/** Path template of an order by out_trade_no; the SDK fills `{out_trade_no}` from the request config. */
const ORDER_PATH = 'v3/pay/transactions/out-trade-no/{out_trade_no}';

/** 商户订单号 rule (Native下单): 6–32 digits, letters and `_-|*`. */
export const OUT_TRADE_NO_RE = /^[0-9A-Za-z_\-|*]{6,32}$/;

const prepayAnswer = z.object({ code_url: z.string().min(1) });
const queryAnswer = z.object({
  appid: z.string(),
  mchid: z.string(),
  out_trade_no: z.string(),
  transaction_id: z.string().optional(),
  trade_state: z.enum(TRADE_STATES),
  trade_state_desc: z.string().optional(),
  success_time: z.string().optional(),
  amount: z.object({ total: z.number().int().nonnegative(), currency: z.string().default('CNY') }),
});

/**
 * Checks a config and fails fast: the APIv3 key is 32 bytes, the private key is RSA, every platform entry is an RSA
 * public key or certificate, and the merchant serial is not among the platform serials (the SDK refuses that).
 * @throws TypeError naming the faulty setting (never its value)
 */
export function checkWechatPayConfig(config: WechatPayConfig): void {
  if (!/^\d{1,32}$/.test(config.mchid)) throw new TypeError('mchid: digits expected');
  if (!config.appid.trim()) throw new TypeError('appid is required');
  if (!config.merchantSerialNo.trim()) throw new TypeError('merchantSerialNo is required');
  if (Buffer.byteLength(config.apiV3Key, 'utf8') !== 32) throw new TypeError('apiV3Key must be 32 bytes');
  let key;
  try {
    key = createPrivateKey(config.merchantPrivateKey);
  } catch (cause) {
    throw new TypeError('merchantPrivateKey: not a PEM private key', { cause });
  }
  if (key.asymmetricKeyType !== 'rsa') throw new TypeError('merchantPrivateKey must be RSA');
  const serials = Object.keys(config.platformCerts);
  if (serials.length === 0) throw new TypeError('platformCerts: at least one certificate or public key');
  if (serials.includes(config.merchantSerialNo))
    throw new TypeError('platformCerts holds the merchant serial');
  for (const serial of serials) {
    try {
      if (createPublicKey(config.platformCerts[serial]!).asymmetricKeyType !== 'rsa')
        throw new Error('not RSA');
    } catch (cause) {
      throw new TypeError(`platformCerts[${serial}]: not an RSA certificate or public key`, { cause });
    }
  }
}

/** {@link WechatPayClient} over `wechatpay-axios-plugin` (see the module comment). */
export class WechatPayV3Client implements WechatPayClient {
  private readonly wx: Wechatpay;
  private readonly config: WechatPayConfig;

  /** @throws TypeError when the config is unusable (see {@link checkWechatPayConfig}) */
  constructor(config: WechatPayConfig) {
    this.config = config;
    checkWechatPayConfig(config);
    this.wx = new Wechatpay({
      mchid: config.mchid,
      serial: config.merchantSerialNo,
      privateKey: config.merchantPrivateKey,
      certs: { ...config.platformCerts },
      baseURL: `${config.baseUrl.replace(/\/+$/, '')}/`,
      timeout: config.timeoutMs ?? 10_000,
      // axios reads HTTP(S)_PROXY itself (without CONNECT for https); the agents of core/outbound-proxy.ts do it
      ...outboundAgents(config.proxy),
    });
  }

  /**
   * Native下单 (POST /v3/pay/transactions/native). Repeating it with the same outTradeNo and the same content
   * returns the same code_url while the order is unpaid.
   * @returns code_url: `weixin://wxpay/bizpayurl?pr=…` in production, an http URL of the cashier in the sandbox
   * @throws TypeError for an invalid input; WechatPayError (e.g. 'rejected' ORDERPAID, ORDER_CLOSED, OUT_TRADE_NO_USED)
   */
  async nativePrepay(input: NativePrepayInput): Promise<{ codeUrl: string }> {
    checkOutTradeNo(input.outTradeNo);
    if (!Number.isSafeInteger(input.amountFen) || input.amountFen < 1) {
      throw new TypeError('amountFen: a positive integer number of fen');
    }
    const description = input.description.trim();
    if (!description || [...description].length > 127) throw new TypeError('description: 1-127 characters');
    const body = {
      appid: this.config.appid,
      mchid: this.config.mchid,
      description,
      out_trade_no: input.outTradeNo,
      ...(input.timeExpire ? { time_expire: formatRfc3339Beijing(input.timeExpire.getTime()) } : {}),
      notify_url: input.notifyUrl,
      amount: { total: input.amountFen, currency: 'CNY' },
    };
    const data = await this.call('nativePrepay', () =>
      this.wx.chain('v3/pay/transactions/native').post(body),
    );
    const parsed = prepayAnswer.safeParse(data);
    if (!parsed.success) throw badAnswer('nativePrepay');
    return { codeUrl: parsed.data.code_url };
  }

  /**
   * 商户订单号查询订单 (GET /v3/pay/transactions/out-trade-no/{out_trade_no}?mchid=).
   * @throws TypeError for an invalid order number; WechatPayError ('rejected' 404 ORDER_NOT_EXIST for an unknown one)
   */
  async queryByOutTradeNo(outTradeNo: string): Promise<TradeQueryResult> {
    checkOutTradeNo(outTradeNo);
    const data = await this.call('queryByOutTradeNo', () =>
      this.wx.chain(ORDER_PATH).get({
        params: { mchid: this.config.mchid },
        out_trade_no: outTradeNo,
      }),
    );
    const parsed = queryAnswer.safeParse(data);
    if (!parsed.success) throw badAnswer('queryByOutTradeNo');
    const q = parsed.data;
    return {
      tradeState: q.trade_state,
      ...(q.trade_state_desc !== undefined ? { tradeStateDesc: q.trade_state_desc } : {}),
      ...(q.transaction_id ? { transactionId: q.transaction_id } : {}),
      amountFen: q.amount.total,
      currency: q.amount.currency,
      ...(q.success_time ? { successTime: q.success_time } : {}),
      mchid: q.mchid,
      appid: q.appid,
      outTradeNo: q.out_trade_no,
    };
  }

  /**
   * 关闭订单 (POST /v3/pay/transactions/out-trade-no/{out_trade_no}/close, answered 204).
   * @throws TypeError for an invalid order number; WechatPayError ('rejected' 400 ORDERPAID when already paid: query
   *   it and credit instead)
   */
  async close(outTradeNo: string): Promise<void> {
    checkOutTradeNo(outTradeNo);
    await this.call('close', () =>
      this.wx.chain(`${ORDER_PATH}/close`).post({ mchid: this.config.mchid }, { out_trade_no: outTradeNo }),
    );
  }

  /** Runs one SDK call and maps its failures to WechatPayError; returns the (verified) response data. */
  private async call(operation: string, run: () => Promise<{ data?: unknown }>): Promise<unknown> {
    try {
      return (await run()).data;
    } catch (err) {
      throw toWechatPayError(operation, err);
    }
  }
}

function checkOutTradeNo(outTradeNo: string): void {
  if (!OUT_TRADE_NO_RE.test(outTradeNo)) throw new TypeError('outTradeNo: 6-32 digits, letters or _-|*');
}
