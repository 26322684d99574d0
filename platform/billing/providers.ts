/**
 * The payment providers as the billing area sees them (docs/decisions/018-billing.md, 058-providers-own-
 * notifications.md): start a payment, query it, close it, and read and answer its own asynchronous notifications —
 * one interface over Alipay page pay (alipay-pay.ts) and WeChat Pay Native (wechat-pay.ts), real or sandbox alike,
 * and any other provider registered by name ({@link ProviderRegistry}). Amounts are integer fen.
 */
import type { NotifyVerdict } from '../../contract/billing.ts';

/** A registered provider's name, as stored with each notification and named by its notification URL. */
export type ProviderName = string;

/** The names a provider may be registered under: lower-case letters, digits and '-', at most 32 characters. */
export const PROVIDER_NAME_RE = /^[a-z][a-z0-9-]{0,31}$/;

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

/** A notification as it arrived: the request's headers (names lower-case, as Node gives them) and exact body. */
export interface IncomingNotification {
  headers: Readonly<Record<string, string | string[] | undefined>>;
  rawBody: Buffer;
}

/** What is stored of a notification (`billing_notifications`), whatever its verdict. */
export interface RawNotification {
  /** The body exactly as received (UTF-8). */
  body: string;
  /** JSON of the headers that carry the signature ('{}' when the signature is in the body). */
  headers: string;
}

/**
 * A notification read by its provider: either verified (the signature checked out) with the trade it reports, or
 * refused with the verdict to store. `orderNo` and `notifyId` are what the provider could read ('' otherwise).
 */
export type ParsedNotification =
  | {
      ok: true;
      orderNo: string;
      /** The amount the provider says was paid, fen (null when it did not say or the text was malformed). */
      amountFen: number | null;
      tradeNo: string;
      /** When the provider says it was paid, unix seconds (null when it did not say). */
      paidAt: number | null;
      /** The trade to apply (state, amount, currency, app id, merchant). */
      trade: ProviderTrade;
      notifyId: string;
      raw: RawNotification;
    }
  | {
      ok: false;
      /** `bad-signature`, `stale-timestamp`, `bad-ciphertext` or `malformed`. */
      verdict: NotifyVerdict;
      /** English detail for the stored row and logs; never key material. */
      detail: string;
      /** The provider's own reason, for its {@link PaymentProvider.acknowledge} (e.g. WeChat's `unknown-serial`). */
      reason: string;
      orderNo: string;
      notifyId: string;
      raw: RawNotification;
    };

/** What became of a notification, for the provider's answer. */
export interface NotificationResult {
  parsed: ParsedNotification;
  /** The verdict stored with it. */
  verdict: NotifyVerdict;
  /** The provider may stop retrying (applied, duplicate, after-close, not-paid). */
  accepted: boolean;
}

/** An HTTP answer to a notification: sent as it is (an empty body is sent as none). */
export interface NotificationAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The operations of one provider. */
export interface PaymentProvider {
  /** Its registered name ({@link PROVIDER_NAME_RE}): the notification URL is `/api/notify/<name>`. */
  readonly name: ProviderName;
  /** The `billing_orders.pay_type` of its recharges (2 Alipay, 3 WeChat Pay; another provider its own). */
  readonly payType: number;
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
  /**
   * Reads one of its notifications from the exact bytes received, signature check included: never throws for a
   * bad notification (it is refused with its verdict); does not check the trade against our order (applyTrade does).
   */
  parseNotification(input: IncomingNotification): Promise<ParsedNotification>;
  /** The answer its notifications expect for `result` (what makes the provider stop or keep retrying). */
  acknowledge(result: NotificationResult): NotificationAnswer;
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

/**
 * The providers by name and by pay type (`app.billing.providers`): Alipay and WeChat Pay at start, any other at
 * run time. The notification route, `pay`, cancel and reconciliation find a provider here, so a new one needs no
 * change to them.
 */
export class ProviderRegistry {
  private readonly byName = new Map<string, PaymentProvider>();
  private readonly byPayType = new Map<number, PaymentProvider>();

  /**
   * Adds `provider`; registering the same object again does nothing.
   * @throws TypeError for a malformed name, or a name or pay type another provider holds
   */
  register(provider: PaymentProvider): void {
    if (this.byName.get(provider.name) === provider) return;
    if (!PROVIDER_NAME_RE.test(provider.name)) throw new TypeError(`provider name ${provider.name}`);
    if (!Number.isSafeInteger(provider.payType) || provider.payType < 2)
      throw new TypeError(`provider ${provider.name}: pay type ${provider.payType}`);
    if (this.byName.has(provider.name)) throw new TypeError(`provider ${provider.name} is registered`);
    if (this.byPayType.has(provider.payType))
      throw new TypeError(`pay type ${provider.payType} has a provider`);
    this.byName.set(provider.name, provider);
    this.byPayType.set(provider.payType, provider);
  }

  /** The provider registered as `name`, if any. */
  named(name: string): PaymentProvider | undefined {
    return this.byName.get(name);
  }

  /** The provider of `payType`, if any. */
  ofPayType(payType: number): PaymentProvider | undefined {
    return this.byPayType.get(payType);
  }

  /** Every registered provider's name. */
  names(): string[] {
    return [...this.byName.keys()];
  }
}
