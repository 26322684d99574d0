/**
 * WeChat Pay Native as a billing provider: the decision-017 client (./wechatpay/client.ts) behind the
 * {@link PaymentProvider} interface, and its notifications read and answered with its configuration (decision 058).
 * Amounts in fen.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import type { WechatPayClient, WechatPayConfig } from './wechatpay/client.ts';
import { WechatPayError } from './wechatpay/client.ts';
import {
  notifyFailureAnswer,
  notifySuccessAnswer,
  verifyNotification,
  type NotifyFailureReason,
  type RefusedNotification,
  type VerifiedNotification,
} from './wechatpay/notify.ts';
import { WECHATPAY_HEADERS } from './wechatpay/v3.ts';
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

/** Maps a v3 trade_state to our view of the trade (REFUND counts as paid: the credit stays, finance reverses). */
export function wechatState(tradeState: string): ProviderTrade['state'] {
  if (tradeState === 'SUCCESS' || tradeState === 'REFUND') return 'paid';
  if (tradeState === 'CLOSED' || tradeState === 'REVOKED') return 'closed';
  if (tradeState === 'PAYERROR') return 'failed';
  return 'pending';
}

const rejectedWith = (err: unknown, code: string) =>
  err instanceof WechatPayError && err.kind === 'rejected' && err.code === code;

/** WeChat Pay Native (see the module comment). */
export class WechatPayProvider implements PaymentProvider {
  readonly name = 'wechat' as const;
  readonly payType = 3 as const;
  readonly appId: string;
  readonly merchant: string;
  /** The verification keys parsed once (parsing a PEM costs more than the RSA check itself). */
  private readonly verifyKeys: Record<string, KeyObject>;
  private readonly client: WechatPayClient;
  private readonly config: WechatPayConfig;
  private readonly notifyUrl: string;

  constructor(client: WechatPayClient, config: WechatPayConfig, notifyUrl: string) {
    this.client = client;
    this.config = config;
    this.notifyUrl = notifyUrl;
    this.appId = config.appid;
    this.merchant = config.mchid;
    this.verifyKeys = Object.fromEntries(
      Object.entries(config.platformCerts).map(([serial, pem]) => [serial, createPublicKey(pem)]),
    );
  }

  /** Native下单 → code_url. */
  async start(request: PaymentRequest): Promise<StartedPayment> {
    try {
      const { codeUrl } = await this.client.nativePrepay({
        outTradeNo: request.orderNo,
        description: request.description,
        amountFen: request.amountFen,
        notifyUrl: this.notifyUrl,
        timeExpire: new Date(request.expiresAt * 1000),
      });
      return { url: codeUrl };
    } catch (cause) {
      throw new ProviderUnavailable('wechat prepay failed', { cause });
    }
  }

  /** 商户订单号查询订单; ORDER_NOT_EXIST is `absent`. */
  async query(orderNo: string): Promise<ProviderTrade> {
    try {
      const q = await this.client.queryByOutTradeNo(orderNo);
      return {
        state: wechatState(q.tradeState),
        tradeNo: q.transactionId ?? '',
        amountFen: q.amountFen,
        currency: q.currency,
        appId: q.appid,
        merchant: q.mchid,
      };
    } catch (err) {
      if (rejectedWith(err, 'ORDER_NOT_EXIST')) {
        return { state: 'absent', tradeNo: '', amountFen: null, currency: 'CNY', appId: '', merchant: '' };
      }
      throw new ProviderUnavailable('wechat query failed', { cause: err });
    }
  }

  /** 关闭订单: ORDERPAID → refused, ORDER_NOT_EXIST → absent. */
  async close(orderNo: string): Promise<'closed' | 'absent' | 'refused'> {
    try {
      await this.client.close(orderNo);
      return 'closed';
    } catch (err) {
      if (rejectedWith(err, 'ORDERPAID')) return 'refused';
      if (rejectedWith(err, 'ORDER_NOT_EXIST')) return 'absent';
      throw new ProviderUnavailable('wechat close failed', { cause: err });
    }
  }

  /**
   * Reads a notification (API v3 支付通知, JSON): verified and decrypted from the raw bytes (signature over
   * timestamp, nonce and body, ±300 s, AES-256-GCM tag; ./wechatpay/notify.ts), then the transaction it reports. A
   * refused one keeps its reason for {@link acknowledge} and is stored as that verdict (an unknown serial as
   * `bad-signature`). The signature headers are stored as JSON.
   */
  async parseNotification(input: IncomingNotification): Promise<ParsedNotification> {
    const signing = Object.fromEntries(
      Object.values(WECHATPAY_HEADERS).map((h) => [h, input.headers[h]] as const),
    );
    const raw = { body: input.rawBody.toString('utf8'), headers: JSON.stringify(signing) };
    const v = this.verifyNotification(input.headers, input.rawBody);
    if (!v.ok) {
      const verdict = v.reason === 'unknown-serial' ? 'bad-signature' : v.reason;
      return { ok: false, verdict, detail: v.detail, reason: v.reason, orderNo: '', notifyId: '', raw };
    }
    const tx = v.transaction;
    const trade: ProviderTrade = {
      state: wechatState(tx.trade_state),
      tradeNo: tx.transaction_id,
      amountFen: tx.amount.total,
      currency: tx.amount.currency,
      appId: tx.appid,
      merchant: tx.mchid,
    };
    const paidMs = tx.success_time ? Date.parse(tx.success_time) : Number.NaN;
    return {
      ok: true,
      orderNo: tx.out_trade_no,
      amountFen: trade.amountFen,
      tradeNo: trade.tradeNo,
      paidAt: Number.isNaN(paidMs) ? null : Math.floor(paidMs / 1000),
      trade,
      notifyId: v.id,
      raw,
    };
  }

  /**
   * 204 without body when accepted (WeChat stops retrying); otherwise `{code:'FAIL'}` with 401 (signature reasons) or
   * 400 (malformed, bad ciphertext) for a refused notification, 400 for a verdict we do not accept and 500 for our
   * own error (a retry may succeed).
   */
  acknowledge(result: NotificationResult): NotificationAnswer {
    if (!result.parsed.ok) return notifyFailureAnswer(result.parsed.reason as NotifyFailureReason);
    if (result.accepted) return notifySuccessAnswer();
    const { verdict } = result;
    return notifyFailureAnswer(undefined, verdict, verdict === 'error' ? 500 : 400);
  }

  /** Verifies and decrypts a notification from its raw body (./wechatpay/notify.ts). */
  verifyNotification(
    headers: Record<string, string | string[] | undefined>,
    rawBody: Buffer,
  ): VerifiedNotification | RefusedNotification {
    return verifyNotification({
      headers,
      rawBody,
      platformCerts: this.verifyKeys,
      apiV3Key: this.config.apiV3Key,
    });
  }
}
