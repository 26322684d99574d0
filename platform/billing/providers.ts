/**
 * The payment providers as the billing area sees them (docs/decisions/018-billing.md): start a payment, query it,
 * close it — one interface over Alipay page pay (alipay-pay.ts) and WeChat Pay Native (wechat-pay.ts), real or
 * sandbox alike. Amounts are integer fen.
 */
import { PayType, type ProviderPayType } from '../../contract/billing.ts';

/** A provider's name, as stored with each notification. */
export type ProviderName = 'alipay' | 'wechat';

/** The provider of a pay_type (2 Alipay, 3 WeChat). */
export function providerName(payType: ProviderPayType): ProviderName {
  return payType === PayType.alipay ? 'alipay' : 'wechat';
}

/** What the payer's browser needs to pay (contract PayData's `url` and `html`). */
export interface StartedPayment {
  /** Alipay: the cashier URL (GET); WeChat: the Native code_url. */
  url: string;
  /** Alipay: a self-submitting form to the cashier. */
  html?: string;
}

/** An order as a provider is asked to collect it. */
export interface PaymentRequest {
  orderNo: string;
  amountFen: number;
  description: string;
  /** Unix seconds after which the payer can no longer pay. */
  expiresAt: number;
  /** Alipay only: where the browser returns after paying. */
  returnUrl: string;
}

/**
 * A trade as the provider reports it, from a verified answer or notification: `paid` (money received), `pending`
 * (waiting for the payer), `closed`, `failed` (WeChat PAYERROR), or `absent` (the provider has no such trade yet:
 * an Alipay page pay the payer never opened, or an order never sent).
 */
export interface ProviderTrade {
  state: 'paid' | 'pending' | 'closed' | 'failed' | 'absent';
  tradeNo: string;
  /** Null when the provider did not say (absent trades). */
  amountFen: number | null;
  currency: string;
  /** The app and merchant the provider answered for ('' when it does not say: then ours is implied). */
  appId: string;
  merchant: string;
}

/** The provider could not be asked, or its answer could not be trusted: nothing changes, try again later. */
export class ProviderUnavailable extends Error {
  override readonly name = 'ProviderUnavailable';
}

/** The operations of one provider. */
export interface PaymentProvider {
  readonly name: ProviderName;
  readonly payType: ProviderPayType;
  /** Our app id and merchant at the provider (notifications and answers must name them; '' = not checked). */
  readonly appId: string;
  readonly merchant: string;
  /** Opens a payment. @throws ProviderUnavailable */
  start(request: PaymentRequest): Promise<StartedPayment>;
  /** The trade's state now. @throws ProviderUnavailable */
  query(orderNo: string): Promise<ProviderTrade>;
  /**
   * Closes the trade so it can no longer be paid: `closed` (now or before), `absent` (nothing to close), `refused`
   * (the provider says it is paid: query and apply it).
   * @throws ProviderUnavailable
   */
  close(orderNo: string): Promise<'closed' | 'absent' | 'refused'>;
}

/** What a successful close (or nothing to close) means for the order: the trade is closed. */
export const CLOSED_TRADE: ProviderTrade = {
  state: 'closed',
  tradeNo: '',
  amountFen: null,
  currency: 'CNY',
  appId: '',
  merchant: '',
};
