/**
 * WeChat Pay Native as a billing provider: the decision-017 client (./wechatpay/client.ts) behind the
 * {@link PaymentProvider} interface, and the notification check with its configuration. Amounts in fen.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import type { WechatPayClient, WechatPayConfig } from './wechatpay/client.ts';
import { WechatPayError } from './wechatpay/client.ts';
import {
  verifyNotification,
  type RefusedNotification,
  type VerifiedNotification,
} from './wechatpay/notify.ts';
import {
  ProviderUnavailable,
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
