/**
 * The WeChat Pay sandbox's side of payment notifications (API v3 支付通知): the transaction JSON (shared with the
 * query answer), notifications encrypted and signed the v3 way — and deliberately broken variants for tests — and
 * their delivery to the order's notify_url with bounded retries, as the real provider retries until answered 2xx.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { sha256Hex } from '../../core/crypto.ts';
import type { SandboxOrder, SandboxOrderStore, DeliveryAttempt } from './sandbox-store.ts';
import type { WechatPaySandboxKeys } from './sandbox-keys.ts';
import {
  AUTH_SCHEME,
  encryptResource,
  formatRfc3339Beijing,
  randomAlnum,
  RESOURCE_ALGORITHM,
  signedMessage,
  signV3,
  type TradeState,
} from './v3.ts';

/** trade_state_desc texts of the states the sandbox produces (商户订单号查询订单). */
const STATE_DESC: Partial<Record<TradeState, string>> = {
  NOTPAY: '订单未支付',
  SUCCESS: '支付成功',
  CLOSED: '订单已关闭',
  PAYERROR: '支付失败，请重新下单支付',
};

/** A stable 28-digit transaction_id for the order (like 4200001234202301011234567890). */
export function transactionIdOf(order: SandboxOrder): string {
  const n = BigInt(`0x${sha256Hex(`${order.mchid}/${order.prId}`).slice(0, 30)}`);
  return `4200${(n % 10n ** 24n).toString().padStart(24, '0')}`;
}

/** What a notification or query may announce instead of the order's own facts (tests). */
export interface TransactionOverrides {
  /** Another trade_state (default: the order's; for a notification, SUCCESS). */
  tradeState?: TradeState;
  /** Another amount.total, integer fen. */
  amountFen?: number;
}

/**
 * The transaction JSON the query answers and notifications carry (商户订单号查询订单 "应答参数"): transaction_id,
 * success_time, payer and bank_type only once paid. `now` (ms) stands for success_time when an override announces
 * SUCCESS for an order that is not paid.
 */
export function transactionJson(
  order: SandboxOrder,
  now: number,
  overrides: TransactionOverrides = {},
): Record<string, unknown> {
  const state = overrides.tradeState ?? order.tradeState;
  const total = overrides.amountFen ?? order.amountFen;
  const paid = state === 'SUCCESS' || state === 'REFUND';
  return {
    appid: order.appid,
    mchid: order.mchid,
    out_trade_no: order.outTradeNo,
    ...(paid ? { transaction_id: transactionIdOf(order) } : {}),
    trade_type: 'NATIVE',
    trade_state: state,
    trade_state_desc: STATE_DESC[state] ?? state,
    ...(paid ? { bank_type: 'OTHERS' } : {}),
    attach: order.attach ?? '',
    ...(paid ? { success_time: formatRfc3339Beijing(order.settledAt ?? now) } : {}),
    ...(paid ? { payer: { openid: `oSandbox${sha256Hex(`openid/${order.prId}`).slice(0, 20)}` } } : {}),
    amount: {
      total,
      ...(paid ? { payer_total: total } : {}),
      currency: order.currency,
      payer_currency: order.currency,
    },
  };
}

/**
 * How a test notification is broken:
 * - 'tag': the GCM tag is altered before signing (the signature verifies, the decryption fails);
 * - 'signature': one byte of the signature is flipped;
 * - 'stale': signed correctly with a timestamp 10 minutes old;
 * - 'serial': signed correctly but Wechatpay-Serial names an unknown key.
 */
export type NotificationTamper = 'tag' | 'signature' | 'stale' | 'serial';

/** Options of {@link buildNotification}. */
export interface NotificationOptions extends TransactionOverrides {
  tamper?: NotificationTamper;
}

/** A notification ready to POST: the exact body and the headers that sign it. */
export interface BuiltNotification {
  /** The envelope's id (通知ID). */
  id: string;
  headers: Record<string, string>;
  body: string;
  /** The plaintext transaction inside the resource. */
  transaction: Record<string, unknown>;
}

/**
 * The envelope of a payment notification (支付通知 "通知报文"): TRANSACTION.SUCCESS with the transaction encrypted
 * with AEAD_AES_256_GCM under the APIv3 key (AAD "transaction", a fresh 12-character nonce). Unsigned: see
 * {@link signNotification}. By default it announces the order as paid, whatever its state.
 */
export function notificationBody(
  order: SandboxOrder,
  keys: WechatPaySandboxKeys,
  now: number,
  opts: NotificationOptions = {},
): Omit<BuiltNotification, 'headers'> {
  const transaction = transactionJson(order, now, { tradeState: 'SUCCESS', ...opts });
  const nonce = randomAlnum(12);
  let ciphertext = encryptResource(JSON.stringify(transaction), keys.apiV3Key, nonce, 'transaction');
  if (opts.tamper === 'tag') {
    const bytes = Buffer.from(ciphertext, 'base64');
    bytes[bytes.length - 1]! ^= 0x01;
    ciphertext = bytes.toString('base64');
  }
  const id = randomUUID();
  const body = JSON.stringify({
    id,
    create_time: formatRfc3339Beijing(now),
    resource_type: 'encrypt-resource',
    event_type: 'TRANSACTION.SUCCESS',
    summary: '支付成功',
    resource: {
      original_type: 'transaction',
      algorithm: RESOURCE_ALGORITHM,
      ciphertext,
      associated_data: 'transaction',
      nonce,
    },
  });
  return { id, body, transaction };
}

/**
 * The Wechatpay-* headers of a notification body signed now (签名验证): each retry is signed afresh, as the real
 * provider's retries over 24 hours must be. `tamper` breaks them as {@link NotificationTamper} says.
 */
export function signNotification(
  body: string,
  keys: WechatPaySandboxKeys,
  now: number,
  tamper?: NotificationTamper,
): Record<string, string> {
  const timestamp = String(Math.floor(now / 1000) - (tamper === 'stale' ? 600 : 0));
  const nonce = randomAlnum(32);
  let signature = signV3(signedMessage(timestamp, nonce, body), keys.platformPrivateKey);
  if (tamper === 'signature') {
    const bytes = Buffer.from(signature, 'base64');
    bytes[0]! ^= 0x01;
    signature = bytes.toString('base64');
  }
  return {
    'content-type': 'application/json',
    'wechatpay-timestamp': timestamp,
    'wechatpay-nonce': nonce,
    'wechatpay-signature': signature,
    'wechatpay-serial': tamper === 'serial' ? `PUB_KEY_ID_${'0'.repeat(32)}` : keys.platformSerialNo,
    'wechatpay-signature-type': AUTH_SCHEME,
  };
}

/** A notification body and its headers, signed now: {@link notificationBody} + {@link signNotification}. */
export function buildNotification(
  order: SandboxOrder,
  keys: WechatPaySandboxKeys,
  now: number,
  opts: NotificationOptions = {},
): BuiltNotification {
  const built = notificationBody(order, keys, now, opts);
  return { ...built, headers: signNotification(built.body, keys, now, opts.tamper) };
}

/** Time the merchant has to answer one delivery, ms. */
const DELIVERY_TIMEOUT_MS = 5000;
/** Attempts kept per order in the state file. */
const MAX_KEPT_ATTEMPTS = 20;

/** POSTs a notification once; the merchant's status, or null when it did not answer in time. */
export async function postNotification(
  url: string,
  n: Pick<BuiltNotification, 'headers' | 'body'>,
  signal?: AbortSignal,
): Promise<number | null> {
  const timeout = AbortSignal.timeout(DELIVERY_TIMEOUT_MS);
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: n.headers,
      body: n.body,
      redirect: 'manual',
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    await res.arrayBuffer().catch(() => undefined);
    return res.status;
  } catch {
    return null;
  }
}

/** What the {@link NotificationDispatcher} signs with, reads orders from, waits between retries and reads as now. */
interface NotificationDispatcherOptions {
  keys: WechatPaySandboxKeys;
  store: SandboxOrderStore;
  retryDelaysMs: readonly number[];
  now: () => number;
}

/**
 * Delivers paid orders' notifications in the background: one round of attempts per dispatch, `retryDelaysMs`
 * apart (the first entry is the delay before the first attempt), stopping at the first 2xx answer (支付通知: 200 or
 * 204 means received). Every attempt is recorded on the order. One round per order at a time.
 */
export class NotificationDispatcher {
  private readonly running = new Map<string, Promise<void>>();
  private readonly abort = new AbortController();
  private readonly opts: NotificationDispatcherOptions;

  constructor(opts: NotificationDispatcherOptions) {
    this.opts = opts;
  }

  /**
   * Starts a round of deliveries of the order's genuine notification, unless one is under way; `firstDelayMs`
   * replaces the first entry of the retry delays.
   */
  dispatch(order: SandboxOrder, firstDelayMs?: number): void {
    if (this.abort.signal.aborted || this.running.has(order.prId)) return;
    const [first = 0, ...rest] = this.opts.retryDelaysMs;
    const delays = [firstDelayMs ?? first, ...rest];
    const round = this.round(order, delays).finally(() => this.running.delete(order.prId));
    this.running.set(order.prId, round);
  }

  /**
   * Sends one notification of the order now (genuine, or broken/overridden as `opts` says) to `url` (default the
   * order's notify_url) and records the attempt.
   */
  async sendOnce(
    order: SandboxOrder,
    opts: NotificationOptions = {},
    url: string = order.notifyUrl,
  ): Promise<{ status: number | null; notification: BuiltNotification }> {
    const notification = buildNotification(order, this.opts.keys, this.opts.now(), opts);
    const status = await postNotification(url, notification, this.abort.signal);
    await this.record(order, status);
    return { status, notification };
  }

  /** Resolves when no round is under way (tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()]);
  }

  /** Stops every round (pending delays end at once) and waits for them. */
  async close(): Promise<void> {
    this.abort.abort();
    await this.idle();
  }

  private async round(order: SandboxOrder, delays: readonly number[]): Promise<void> {
    const { body } = notificationBody(order, this.opts.keys, this.opts.now());
    for (const delay of delays) {
      if (!(await sleep(delay, this.abort.signal))) return;
      const headers = signNotification(body, this.opts.keys, this.opts.now());
      const status = await postNotification(order.notifyUrl, { headers, body }, this.abort.signal);
      if (this.abort.signal.aborted) return;
      if (await this.record(order, status)) return;
    }
  }

  /** Records an attempt; true when it was acknowledged. */
  private record(order: SandboxOrder, status: number | null): Promise<boolean> {
    const attempt: DeliveryAttempt = { at: this.opts.now(), status };
    const ok = status !== null && status >= 200 && status < 300;
    return this.opts.store.update(order, (o) => {
      o.notify.attempts = [...o.notify.attempts, attempt].slice(-MAX_KEPT_ATTEMPTS);
      if (ok) o.notify.acknowledged = true;
      return ok;
    });
  }
}

/** Waits `ms`; false when `signal` aborted first. */
async function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await delay(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}
