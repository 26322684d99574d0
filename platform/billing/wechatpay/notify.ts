/**
 * WeChat Pay payment notifications (API v3 支付通知): verification from the raw body with node:crypto, decryption of
 * the AES-256-GCM resource, and the answers v3 expects. Sources, WeChat Pay API v3 docs: 支付通知 (envelope, resource,
 * answers), 签名验证 (signed message, ±5 minutes, serial), 证书和回调报文解密 (AEAD_AES_256_GCM).
 *
 * Verify before parsing anything: the signature covers the exact bytes received, so the caller must pass the raw
 * body (not re-serialised JSON). WeChat also sends signature probes (Wechatpay-Signature starting with
 * `WECHATPAY/SIGNTEST/`) to check that merchants verify: they fail as 'bad-signature', as they must.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import {
  AUTH_SCHEME,
  decryptResource,
  MAX_CLOCK_SKEW_SECONDS,
  RESOURCE_ALGORITHM,
  signedMessage,
  TRADE_STATES,
  type TradeState,
  verifyV3,
  WECHATPAY_HEADERS,
} from './v3.ts';

/** Why a notification was refused. */
export type NotifyFailureReason =
  /** Headers missing or not as documented, body not the documented JSON, or a decrypted resource of another shape. */
  | 'malformed'
  /** Wechatpay-Timestamp more than 300 s away from our clock (a replay, or a clock problem). */
  | 'stale-timestamp'
  /** Wechatpay-Serial names no configured platform certificate or public key. */
  | 'unknown-serial'
  /** The RSA signature over timestamp, nonce and body does not verify. */
  | 'bad-signature'
  /** The AES-256-GCM tag check failed: altered ciphertext, or the wrong APIv3 key. */
  | 'bad-ciphertext';

/** The decrypted transaction of a payment notification (支付通知 "通知数据", original_type transaction). */
export interface NotifiedTransaction {
  appid: string;
  mchid: string;
  out_trade_no: string;
  transaction_id: string;
  trade_type?: string;
  trade_state: TradeState;
  trade_state_desc?: string;
  bank_type?: string;
  attach?: string;
  /** RFC 3339, present when trade_state is SUCCESS. */
  success_time?: string;
  payer?: { openid?: string };
  /** total and payer_total in integer fen. */
  amount: { total: number; payer_total?: number; currency: string; payer_currency?: string };
}

/** A verified, decrypted notification. */
export interface VerifiedNotification {
  ok: true;
  /** The notification's id (通知ID): the same event retried keeps its id. */
  id: string;
  /** event_type, e.g. TRANSACTION.SUCCESS. */
  eventType: string;
  /** create_time, RFC 3339. */
  createTime: string;
  /** The Wechatpay-Serial that signed it. */
  serial: string;
  transaction: NotifiedTransaction;
}

/** A refused notification: store it with this verdict and answer {@link notifyFailureAnswer}. */
export interface RefusedNotification {
  ok: false;
  reason: NotifyFailureReason;
  /** English detail for logs; never contains key material. */
  detail: string;
}

/** Input of {@link verifyNotification}. */
export interface VerifyNotificationInput {
  /** The request headers; names in any case, as Node's IncomingHttpHeaders or a plain record. */
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The exact body received (UTF-8). */
  rawBody: string | Buffer;
  /** Serial → platform certificate PEM, WeChat Pay public key PEM, or a public KeyObject. */
  platformCerts: Readonly<Record<string, string | KeyObject>>;
  /** The 32-byte APIv3 key. */
  apiV3Key: string;
  /** Our clock, ms since the epoch (default Date.now()). */
  now?: number;
}

const envelopeSchema = z.object({
  id: z.string().min(1),
  create_time: z.string(),
  event_type: z.string().min(1),
  resource_type: z.string().optional(),
  resource: z.object({
    algorithm: z.string(),
    ciphertext: z.string().min(1),
    associated_data: z.string().optional(),
    nonce: z.string().min(1),
    original_type: z.string().optional(),
  }),
});

const transactionSchema = z.looseObject({
  appid: z.string().min(1),
  mchid: z.string().min(1),
  out_trade_no: z.string().min(1),
  transaction_id: z.string().min(1),
  trade_type: z.string().optional(),
  trade_state: z.enum(TRADE_STATES),
  trade_state_desc: z.string().optional(),
  bank_type: z.string().optional(),
  attach: z.string().optional(),
  success_time: z.string().optional(),
  payer: z.looseObject({ openid: z.string().optional() }).optional(),
  amount: z.looseObject({
    total: z.number().int().nonnegative(),
    payer_total: z.number().int().nonnegative().optional(),
    currency: z.string().min(1),
    payer_currency: z.string().optional(),
  }),
});

function header(headers: VerifyNotificationInput['headers'], name: string): string | undefined {
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() === name) return typeof v === 'string' ? v : undefined;
  }
  return undefined;
}

const refuse = (reason: NotifyFailureReason, detail: string): RefusedNotification => ({
  ok: false,
  reason,
  detail,
});

/**
 * Verifies a payment notification and decrypts its transaction. In order: the four Wechatpay-* headers present
 * (and Wechatpay-Signature-Type, when sent, the v3 scheme) else 'malformed'; the timestamp within ±300 s of `now`
 * else 'stale-timestamp'; the serial configured else 'unknown-serial'; the RSA-SHA256 (PKCS#1 v1.5) signature over
 * `${timestamp}\n${nonce}\n${rawBody}\n` else 'bad-signature'; the body the documented JSON with an
 * AEAD_AES_256_GCM resource else 'malformed'; the GCM tag (key = APIv3 key, IV = resource.nonce, AAD =
 * resource.associated_data) else 'bad-ciphertext'; the plaintext a transaction else 'malformed'.
 * It does not check the transaction against our order (merchant, AppID, amount, currency): the caller does.
 * @throws RangeError only when `apiV3Key` is not 32 bytes (a configuration error, not a bad notification)
 */
export function verifyNotification(
  input: VerifyNotificationInput,
): VerifiedNotification | RefusedNotification {
  if (Buffer.byteLength(input.apiV3Key, 'utf8') !== 32)
    throw new RangeError('the APIv3 key must be 32 bytes');
  const timestamp = header(input.headers, WECHATPAY_HEADERS.timestamp);
  const nonce = header(input.headers, WECHATPAY_HEADERS.nonce);
  const signature = header(input.headers, WECHATPAY_HEADERS.signature);
  const serial = header(input.headers, WECHATPAY_HEADERS.serial);
  const signatureType = header(input.headers, WECHATPAY_HEADERS.signatureType);
  if (!timestamp || !nonce || !signature || !serial)
    return refuse('malformed', 'Wechatpay-* headers missing');
  if (signatureType !== undefined && signatureType !== AUTH_SCHEME) {
    return refuse('malformed', `unsupported Wechatpay-Signature-Type ${signatureType}`);
  }
  if (!/^\d{1,12}$/.test(timestamp)) return refuse('malformed', 'Wechatpay-Timestamp is not a unix time');
  const nowSeconds = Math.floor((input.now ?? Date.now()) / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > MAX_CLOCK_SKEW_SECONDS) {
    return refuse('stale-timestamp', `timestamp ${timestamp} is ${nowSeconds - Number(timestamp)} s old`);
  }
  if (!Object.hasOwn(input.platformCerts, serial)) return refuse('unknown-serial', `serial ${serial}`);
  let publicKey: KeyObject | string;
  try {
    const configured = input.platformCerts[serial]!;
    publicKey = typeof configured === 'string' ? createPublicKey(configured) : configured;
  } catch {
    return refuse('unknown-serial', `serial ${serial}: the configured certificate does not load`);
  }
  const body = typeof input.rawBody === 'string' ? input.rawBody : input.rawBody.toString('utf8');
  if (!verifyV3(signedMessage(timestamp, nonce, body), signature, publicKey)) {
    return refuse('bad-signature', `signature does not verify with serial ${serial}`);
  }

  let envelope;
  try {
    envelope = envelopeSchema.parse(JSON.parse(body));
  } catch {
    return refuse('malformed', 'body is not a v3 notification');
  }
  const { resource } = envelope;
  if (resource.algorithm !== RESOURCE_ALGORITHM) {
    return refuse('malformed', `resource algorithm ${resource.algorithm}`);
  }
  const plaintext = decryptResource(
    resource.ciphertext,
    input.apiV3Key,
    resource.nonce,
    resource.associated_data ?? '',
  );
  if (plaintext === null) return refuse('bad-ciphertext', 'AES-256-GCM tag check failed');
  let transaction;
  try {
    transaction = transactionSchema.parse(JSON.parse(plaintext));
  } catch {
    return refuse('malformed', 'resource is not a transaction');
  }
  return {
    ok: true,
    id: envelope.id,
    eventType: envelope.event_type,
    createTime: envelope.create_time,
    serial,
    transaction: transaction as NotifiedTransaction,
  };
}

/** An HTTP answer to a notification: send `status`, `headers` and `body` as they are. */
export interface NotifyAnswer {
  status: number;
  headers: Record<string, string>;
  /** Empty for success. */
  body: string;
}

/**
 * The answer to a notification we accepted (applied, or already applied before): HTTP 204 without body (支付通知
 * "通知应答": 200 or 204 without body means success; WeChat stops retrying).
 */
export function notifySuccessAnswer(): NotifyAnswer {
  return { status: 204, headers: {}, body: '' };
}

/**
 * The answer to a notification we did not accept: `{"code":"FAIL","message":…}` with a 4xx/5xx status (支付通知
 * "通知应答"); WeChat then retries on its schedule (15 s, 15 s, 30 s, 3 min, … up to 24 h 4 min).
 * Default status: 401 for the signature reasons, 400 for 'malformed' and 'bad-ciphertext', and 500 when `reason`
 * is omitted (our own failure, e.g. the database: a retry may succeed).
 * @param message the answer's message; keep it short, it is only for WeChat's records
 */
export function notifyFailureAnswer(
  reason?: NotifyFailureReason,
  message?: string,
  status?: number,
): NotifyAnswer {
  const code =
    status ??
    (reason === undefined ? 500 : reason === 'malformed' || reason === 'bad-ciphertext' ? 400 : 401);
  return {
    status: code,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({
      code: 'FAIL',
      message: message ?? (reason ? `verification failed: ${reason}` : '失败'),
    }),
  };
}
