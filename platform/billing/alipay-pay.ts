/**
 * Alipay page pay (电脑网站支付) through `alipay-sdk`: `alipay.trade.page.pay` in its GET form (a plain redirect, so
 * paying needs no JavaScript) and its POST form, `alipay.trade.query`, `alipay.trade.close`, and the asynchronous
 * notification read and answered here (its signature checked with the SDK's `checkNotifySignV2`; decision 058).
 * Real Alipay or the loopback sandbox (alipay-cashier.ts) alike; only the config differs. Every answer's RSA2 signature is verified by the SDK.
 */
import { AlipaySdk } from 'alipay-sdk';
import { alipayProxyOption, type AlipayClientConfig } from '../kyc/alipay-face.ts';
import { fenToYuan, yuanToFen } from './money.ts';
import {
  ProviderUnavailable,
  type IncomingNotification,
  type NotificationAnswer,
  type NotificationResult,
  type ParsedNotification,
  type PaymentProvider,
  type PaymentRequest,
  type ProviderTrade,
  type StartedPayment,
} from './providers.ts';

/** The OpenAPI methods of page pay. */
export const TRADE_METHODS = {
  pagePay: 'alipay.trade.page.pay',
  query: 'alipay.trade.query',
  close: 'alipay.trade.close',
} as const;

/** Page pay's product code. */
export const PAGE_PAY_PRODUCT = 'FAST_INSTANT_TRADE_PAY';

/** Alipay trade_status values (交易状态). */
export type AlipayTradeStatus = 'WAIT_BUYER_PAY' | 'TRADE_CLOSED' | 'TRADE_SUCCESS' | 'TRADE_FINISHED';

/** "YYYY-MM-DD HH:mm:ss" in Beijing time, as Alipay's time_expire wants it. */
function beijingTime(unixSeconds: number): string {
  return new Date((unixSeconds + 8 * 3600) * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

/** Alipay's "YYYY-MM-DD HH:mm:ss" Beijing time (`gmt_payment`) → unix seconds; null for anything else. */
export function alipayTimeToUnix(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, se] = m.map(Number) as [number, number, number, number, number, number, number];
  const ms = Date.UTC(y, mo - 1, d, h - 8, mi, se);
  return Number.isNaN(ms) ? null : ms / 1000;
}

/** Maps a trade_status to our view of the trade. */
export function alipayState(status: string): ProviderTrade['state'] {
  if (status === 'TRADE_SUCCESS' || status === 'TRADE_FINISHED') return 'paid';
  if (status === 'TRADE_CLOSED') return 'closed';
  return 'pending';
}

/** Alipay page pay (see the module comment). */
export class AlipayPay implements PaymentProvider {
  readonly name = 'alipay' as const;
  readonly payType = 2 as const;
  readonly appId: string;
  readonly merchant: string;
  private readonly sdk: AlipaySdk;
  private readonly notifyUrl: string;

  /**
   * @param config the client config (AppID, keys, gateway)
   * @param opts `notifyUrl` the asynchronous notification URL; `sellerId` our PID, checked in notifications ('' skips)
   */
  constructor(config: AlipayClientConfig, opts: { notifyUrl: string; sellerId: string }) {
    const { appId, privateKey, keyType, alipayPublicKey, gateway, timeoutMs = 5000 } = config;
    // The SDK strips PEM headers only from a key without a trailing newline; it must always verify answers.
    const keys = { privateKey: privateKey.trim(), alipayPublicKey: alipayPublicKey.trim() };
    this.sdk = new AlipaySdk({
      appId,
      keyType,
      gateway,
      ...keys,
      signType: 'RSA2',
      camelcase: false,
      timeout: timeoutMs,
      ...alipayProxyOption(config),
    });
    this.appId = config.appId;
    this.merchant = opts.sellerId;
    this.notifyUrl = opts.notifyUrl;
  }

  /** The cashier URL (GET) and a self-submitting form (POST) of `alipay.trade.page.pay`; computed locally. */
  async start(request: PaymentRequest): Promise<StartedPayment> {
    const params = {
      bizContent: {
        out_trade_no: request.orderNo,
        product_code: PAGE_PAY_PRODUCT,
        total_amount: fenToYuan(request.amountFen),
        subject: request.description,
        time_expire: beijingTime(request.expiresAt),
      },
      returnUrl: request.returnUrl,
      notifyUrl: this.notifyUrl,
    };
    return {
      url: this.sdk.pageExecute(TRADE_METHODS.pagePay, 'GET', params),
      html: this.sdk.pageExecute(TRADE_METHODS.pagePay, 'POST', params),
    };
  }

  /** `alipay.trade.query` by out_trade_no; ACQ.TRADE_NOT_EXIST (never opened) is `absent`. */
  async query(orderNo: string): Promise<ProviderTrade> {
    const r = await this.exec(TRADE_METHODS.query, orderNo);
    if (r.code !== '10000') {
      if (r.sub_code === 'ACQ.TRADE_NOT_EXIST') {
        return { state: 'absent', tradeNo: '', amountFen: null, currency: 'CNY', appId: '', merchant: '' };
      }
      throw new ProviderUnavailable(`alipay query: ${r.code} ${r.sub_code ?? ''}`);
    }
    return {
      state: alipayState(String(r.trade_status)),
      tradeNo: String(r.trade_no ?? ''),
      amountFen: yuanToFen(String(r.total_amount ?? '')),
      currency: typeof r.trans_currency === 'string' && r.trans_currency ? r.trans_currency : 'CNY',
      appId: '',
      merchant: '',
    };
  }

  /** `alipay.trade.close`: ACQ.TRADE_NOT_EXIST → absent, ACQ.TRADE_STATUS_ERROR (paid) → refused. */
  async close(orderNo: string): Promise<'closed' | 'absent' | 'refused'> {
    const r = await this.exec(TRADE_METHODS.close, orderNo);
    if (r.code === '10000') return 'closed';
    if (r.sub_code === 'ACQ.TRADE_NOT_EXIST') return 'absent';
    if (r.sub_code === 'ACQ.TRADE_STATUS_ERROR') return 'refused';
    throw new ProviderUnavailable(`alipay close: ${r.code} ${r.sub_code ?? ''}`);
  }

  /**
   * Checks an asynchronous notification's RSA2 signature (the SDK's `checkNotifySignV2`: over every parameter but
   * `sign`, values as received). @param params the form fields as decoded once
   */
  verifyNotification(params: Record<string, string>): boolean {
    try {
      return this.sdk.checkNotifySignV2(params);
    } catch {
      return false;
    }
  }

  /**
   * Reads an asynchronous notification (form-encoded `trade_status_sync`): the RSA2 signature over every field but
   * `sign` ({@link verifyNotification}), then the trade it reports (`total_amount` yuan → fen, `gmt_payment` → unix
   * seconds). A missing or wrong signature is refused as `bad-signature`; the order number it names is kept either
   * way. The body is stored as received and the headers as '{}' (the signature is in the body).
   */
  async parseNotification(input: IncomingNotification): Promise<ParsedNotification> {
    const body = input.rawBody.toString('utf8');
    const params = Object.fromEntries(new URLSearchParams(body));
    const raw = { body, headers: '{}' };
    const orderNo = params.out_trade_no ?? '';
    const notifyId = params.notify_id ?? '';
    if (!params.sign || !this.verifyNotification(params)) {
      const detail = 'RSA2 signature does not verify';
      return { ok: false, verdict: 'bad-signature', detail, reason: 'bad-signature', orderNo, notifyId, raw };
    }
    const trade: ProviderTrade = {
      state: alipayState(params.trade_status ?? ''),
      tradeNo: params.trade_no ?? '',
      amountFen: yuanToFen(params.total_amount ?? ''),
      currency: params.trans_currency || 'CNY',
      appId: params.app_id || '(none)',
      merchant: params.seller_id ?? '',
    };
    return {
      ok: true,
      orderNo,
      amountFen: trade.amountFen,
      tradeNo: trade.tradeNo,
      paidAt: alipayTimeToUnix(params.gmt_payment ?? ''),
      trade,
      notifyId,
      raw,
    };
  }

  /** The literal `success` (Alipay stops retrying) or `fail` (it retries), as text/plain with HTTP 200. */
  acknowledge(result: NotificationResult): NotificationAnswer {
    return {
      status: 200,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: result.accepted ? 'success' : 'fail',
    };
  }

  private async exec(method: string, orderNo: string): Promise<Record<string, unknown>> {
    try {
      return await this.sdk.exec(method, { bizContent: { out_trade_no: orderNo } }, { validateSign: true });
    } catch (cause) {
      throw new ProviderUnavailable(`alipay ${method}: no usable answer`, { cause });
    }
  }
}
