/**
 * The sandbox Alipay gateway's keys and signatures (OpenAPI 2.0 "签名", RSA2 = SHA256withRSA): the AppID and the two
 * RSA-2048 key pairs (the app's, which signs requests, and the sandbox's, which signs responses), kept in
 * `${dataDir}/alipay-sandbox/keys.json`; the request sign string, signing and verifying, the signed response body;
 * the SDK client config that talks to the sandbox. Part of alipay-sandbox.ts.
 */
import {
  createPrivateKey,
  randomInt,
  sign as rsaSign,
  verify as rsaVerify,
  type KeyObject,
} from 'node:crypto';
import path from 'node:path';
import { newRsaPrivateKeyPem, publicKeyPem } from '../core/crypto.ts';
import { readOrCreateKeyFile } from '../core/key-file.ts';
import type { AlipayClientConfig } from './alipay-face.ts';

/** Folder of the sandbox's files under the data directory. */
export const SANDBOX_DIR = 'alipay-sandbox';
/** Key file (mode 0600): the AppID and both RSA-2048 private keys (PKCS#8 PEM). */
export const SANDBOX_KEYS_FILE = 'keys.json';

/** The sandbox's identities: the app (our platform, the SDK's side) and "Alipay" (the sandbox). PEM strings. */
export interface AlipaySandboxKeys {
  /** A 16-digit AppID, like the open platform's. */
  appId: string;
  /** The app's private key (PKCS#8 PEM): the SDK signs requests with it. */
  appPrivateKey: string;
  /** The app's public key (SPKI PEM): the sandbox verifies requests with it. */
  appPublicKey: string;
  /** The sandbox's private key (PKCS#8 PEM): responses are signed with it. */
  alipayPrivateKey: string;
  /** The sandbox's public key (SPKI PEM): the SDK verifies responses with it (`alipayPublicKey`). */
  alipayPublicKey: string;
}

/**
 * Loads the sandbox keys from `${dataDir}/alipay-sandbox/keys.json`, creating them on first start: a random
 * 16-digit AppID and two RSA-2048 key pairs. The file is written to a temp file and hard-linked into place, so two
 * processes starting together end up with the same keys and nobody reads a half-written file.
 * @throws when the file exists but does not hold two RSA private keys, or the directory is not writable
 */
export async function loadOrCreateSandboxKeys(dataDir: string): Promise<AlipaySandboxKeys> {
  const file = path.join(dataDir, SANDBOX_DIR, SANDBOX_KEYS_FILE);
  const text = await readOrCreateKeyFile(file, async () =>
    JSON.stringify(
      {
        appId: `2021${String(randomInt(0, 1e6)).padStart(6, '0')}${String(randomInt(0, 1e6)).padStart(6, '0')}`,
        appPrivateKey: await newRsaPrivateKeyPem(),
        alipayPrivateKey: await newRsaPrivateKeyPem(),
      },
      null,
      2,
    ),
  );
  const stored = JSON.parse(text) as Partial<Record<'appId' | 'appPrivateKey' | 'alipayPrivateKey', unknown>>;
  if (
    typeof stored.appId !== 'string' ||
    typeof stored.appPrivateKey !== 'string' ||
    typeof stored.alipayPrivateKey !== 'string'
  ) {
    throw new Error(`${file}: not a sandbox key file`);
  }
  for (const pem of [stored.appPrivateKey, stored.alipayPrivateKey]) {
    if (createPrivateKey(pem).asymmetricKeyType !== 'rsa') throw new Error(`${file}: keys must be RSA`);
  }
  return {
    appId: stored.appId,
    appPrivateKey: stored.appPrivateKey,
    appPublicKey: publicKeyPem(stored.appPrivateKey),
    alipayPrivateKey: stored.alipayPrivateKey,
    alipayPublicKey: publicKeyPem(stored.alipayPrivateKey),
  };
}

/**
 * The SDK client config for talking to the sandbox at `gateway` (its full `/gateway.do` URL): the app's AppID and
 * private key, and the sandbox's public key as `alipayPublicKey`.
 */
export function sandboxClientConfig(keys: AlipaySandboxKeys, gateway: string): AlipayClientConfig {
  return {
    appId: keys.appId,
    privateKey: keys.appPrivateKey,
    keyType: 'PKCS8',
    alipayPublicKey: keys.alipayPublicKey,
    gateway,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Signatures
// ---------------------------------------------------------------------------------------------------------------

/**
 * The string Alipay signs for a request (OpenAPI 2.0 "签名"): every parameter except `sign` and empty values, sorted
 * by name, as `name=value` joined with '&' — values raw (not URL-encoded). Exported for tests.
 */
export function requestSignContent(params: Readonly<Record<string, string>>): string {
  return Object.keys(params)
    .filter((k) => k !== 'sign' && params[k] !== '')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
}

/** Signs `content` (UTF-8) with SHA256withRSA; base64. */
export function rsa2Sign(content: string, privateKey: string | KeyObject): string {
  return rsaSign('sha256', Buffer.from(content, 'utf8'), privateKey).toString('base64');
}

/** Verifies a base64 SHA256withRSA signature of `content` (UTF-8); false for a malformed signature. */
export function rsa2Verify(content: string, signature: string, publicKey: string | KeyObject): boolean {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(signature)) return false;
  try {
    return rsaVerify('sha256', Buffer.from(content, 'utf8'), publicKey, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

/**
 * A signed response body as Alipay sends it: `{"<key>":<json>,"sign":"<base64>"}`, where the signature is over the
 * exact `<json>` text (what `alipay-sdk`'s `getSignStr` cuts out again before verifying).
 */
export function signedResponseBody(
  responseKey: string,
  answer: Readonly<Record<string, string>>,
  privateKey: string | KeyObject,
): string {
  const json = JSON.stringify(answer);
  return `{${JSON.stringify(responseKey)}:${json},"sign":${JSON.stringify(rsa2Sign(json, privateKey))}}`;
}
