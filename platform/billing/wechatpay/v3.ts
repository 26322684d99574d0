/**
 * WeChat Pay API v3 protocol primitives shared by the notification verifier (./notify.ts) and the sandbox gateway
 * (./sandbox.ts). The client (./client.ts) leaves signing to `wechatpay-axios-plugin`. Sources, WeChat Pay API v3
 * docs: 签名生成 (request signature and the Authorization header), 签名验证 (response and notification signatures),
 * 证书和回调报文解密 (AEAD_AES_256_GCM resources), 支付通知 (notification envelope), API字典 (time format).
 */
import {
  createCipheriv,
  createDecipheriv,
  sign as rsaSign,
  verify as rsaVerify,
  type KeyObject,
} from 'node:crypto';
import { randomFromAlphabet } from '../../core/crypto.ts';

/** The only v3 signature scheme (签名生成): RSA 2048, SHA-256, PKCS#1 v1.5. */
export const AUTH_SCHEME = 'WECHATPAY2-SHA256-RSA2048';

/** Response and notification headers carrying the provider's signature (签名验证); lower case, as Node gives them. */
export const WECHATPAY_HEADERS = {
  timestamp: 'wechatpay-timestamp',
  nonce: 'wechatpay-nonce',
  signature: 'wechatpay-signature',
  serial: 'wechatpay-serial',
  signatureType: 'wechatpay-signature-type',
} as const;

/** Largest accepted difference between a signed timestamp and our clock, seconds (签名验证: ±5 minutes). */
export const MAX_CLOCK_SKEW_SECONDS = 300;

/** The AEAD algorithm of encrypted resources (证书和回调报文解密). */
export const RESOURCE_ALGORITHM = 'AEAD_AES_256_GCM';

/** trade_state values (商户订单号查询订单 "交易状态"). */
export const TRADE_STATES = [
  'SUCCESS',
  'REFUND',
  'NOTPAY',
  'CLOSED',
  'REVOKED',
  'USERPAYING',
  'PAYERROR',
] as const;
/** One of {@link TRADE_STATES}. */
export type TradeState = (typeof TRADE_STATES)[number];

/** Length of the AES-GCM authentication tag appended to the ciphertext, bytes. */
const GCM_TAG_BYTES = 16;

const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A random string of `length` letters and digits (nonce_str, resource nonces, the sandbox's APIv3 key). */
export function randomAlnum(length: number): string {
  return randomFromAlphabet(ALNUM, length);
}

/** Pieces joined by '\n' with a trailing '\n': the message every v3 signature covers (签名生成, 签名验证). */
export function signedMessage(...pieces: readonly string[]): string {
  return `${pieces.join('\n')}\n`;
}

/** SHA256withRSA (PKCS#1 v1.5) signature of the UTF-8 `message`; base64. */
export function signV3(message: string, privateKey: KeyObject | string): string {
  return rsaSign('sha256', Buffer.from(message, 'utf8'), privateKey).toString('base64');
}

/** Verifies a base64 SHA256withRSA signature of `message`; false for a malformed signature instead of throwing. */
export function verifyV3(message: string, signature: string, publicKey: KeyObject | string): boolean {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(signature)) return false;
  try {
    return rsaVerify('sha256', Buffer.from(message, 'utf8'), publicKey, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

/** The parameters of an `Authorization: WECHATPAY2-SHA256-RSA2048 …` header (签名生成). */
export interface AuthorizationParams {
  mchid: string;
  nonce_str: string;
  signature: string;
  timestamp: string;
  serial_no: string;
}

/**
 * Parses a v3 Authorization header: the scheme, then `name="value"` pairs separated by commas, in any order
 * (quotes optional). Null when the scheme differs, a pair is malformed or repeated, or one of the five is missing.
 */
export function parseAuthorization(header: string | undefined): AuthorizationParams | null {
  if (!header?.startsWith(`${AUTH_SCHEME} `)) return null;
  const found = new Map<string, string>();
  for (const part of header.slice(AUTH_SCHEME.length + 1).split(',')) {
    const m = /^\s*([a-z_]+)=(?:"([^"]*)"|([^",\s]*))\s*$/.exec(part);
    if (!m || found.has(m[1]!)) return null;
    found.set(m[1]!, m[2] ?? m[3] ?? '');
  }
  const names = ['mchid', 'nonce_str', 'signature', 'timestamp', 'serial_no'] as const;
  if (names.some((n) => !found.get(n))) return null;
  return Object.fromEntries(names.map((n) => [n, found.get(n)!])) as unknown as AuthorizationParams;
}

/** An encrypted resource as v3 sends it (支付通知 `resource`). */
export interface EncryptedResource {
  algorithm: string;
  /** base64 of the AES-256-GCM ciphertext followed by its 16-byte tag. */
  ciphertext: string;
  /** The AAD, UTF-8; may be empty. */
  associated_data?: string;
  /** The IV, 12 characters used as their UTF-8 bytes. */
  nonce: string;
  original_type?: string;
}

/**
 * Encrypts `plaintext` the way WeChat Pay encrypts resources: AES-256-GCM, key = the 32-byte APIv3 key (UTF-8),
 * IV = `nonce` (UTF-8), AAD = `associatedData`; returns base64(ciphertext ‖ tag).
 */
export function encryptResource(
  plaintext: string,
  apiV3Key: string,
  nonce: string,
  associatedData: string,
): string {
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(nonce, 'utf8'));
  cipher.setAAD(Buffer.from(associatedData, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([body, cipher.getAuthTag()]).toString('base64');
}

/**
 * Decrypts a resource (证书和回调报文解密): the inverse of {@link encryptResource}. Null when the tag does not
 * verify (wrong key, nonce or AAD, or altered ciphertext) or the input is too short to hold a tag.
 * @throws RangeError when `apiV3Key` is not 32 bytes
 */
export function decryptResource(
  ciphertextB64: string,
  apiV3Key: string,
  nonce: string,
  associatedData: string,
): string | null {
  const key = Buffer.from(apiV3Key, 'utf8');
  if (key.length !== 32) throw new RangeError('the APIv3 key must be 32 bytes');
  const data = Buffer.from(ciphertextB64, 'base64');
  if (data.length <= GCM_TAG_BYTES || nonce.length === 0) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'utf8'), {
      authTagLength: GCM_TAG_BYTES,
    });
    decipher.setAAD(Buffer.from(associatedData, 'utf8'));
    decipher.setAuthTag(data.subarray(data.length - GCM_TAG_BYTES));
    const plain = Buffer.concat([
      decipher.update(data.subarray(0, data.length - GCM_TAG_BYTES)),
      decipher.final(),
    ]);
    return plain.toString('utf8');
  } catch {
    return null;
  }
}

const BEIJING_OFFSET_MS = 8 * 3600_000;

/**
 * Formats ms since the epoch as RFC 3339 in Beijing time, `YYYY-MM-DDTHH:mm:ss+08:00`, the form v3 uses for
 * time_expire, success_time and create_time (API字典 "时间格式").
 */
export function formatRfc3339Beijing(ms: number): string {
  return `${new Date(Math.floor(ms / 1000) * 1000 + BEIJING_OFFSET_MS).toISOString().slice(0, 19)}+08:00`;
}

/** Parses an RFC 3339 date-time with an explicit offset (`…+08:00` or `…Z`) into ms; NaN otherwise. */
export function parseRfc3339(value: string): number {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value)) return Number.NaN;
  return Date.parse(value);
}
