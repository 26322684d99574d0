/**
 * The WeChat Pay sandbox's identities, created once under `${dataDir}/keys/wechatpay-sandbox/keys.json` (mode 0600)
 * with the create-once key-file helper: the merchant (our platform: 商户号, AppID, API private key and its
 * certificate serial) and "WeChat Pay" (the sandbox: its signing key and the key's ID), plus the APIv3 key they share.
 *
 * The sandbox runs in WeChat Pay's public-key mode (微信支付公钥模式, the mode of merchants registered since 2024):
 * responses and notifications are signed with the sandbox's private key and carry a public key ID
 * `PUB_KEY_ID_…` in Wechatpay-Serial; the merchant verifies with the matching public key. `wechatpay-axios-plugin`
 * takes a public key or a platform certificate alike, so no X.509 certificate is needed.
 */
import { createPrivateKey, randomBytes, randomInt } from 'node:crypto';
import path from 'node:path';
import { newRsaPrivateKeyPem, publicKeyPem } from '../../core/crypto.ts';
import { readOrCreateKeyFile } from '../../core/key-file.ts';
import type { WechatPayConfig } from './client.ts';
import { randomAlnum } from './v3.ts';

/** Folder of the key file under the data directory. */
export const SANDBOX_KEYS_DIR = path.join('keys', 'wechatpay-sandbox');
/** Name of the key file. */
export const SANDBOX_KEYS_FILE = 'keys.json';

/** The sandbox's identities; PEM strings. */
export interface WechatPaySandboxKeys {
  /** 10-digit 商户号. */
  mchid: string;
  /** AppID bound to the merchant: 'wx' + 16 hex digits. */
  appid: string;
  /** Merchant API certificate serial (40 hex digits, upper case): the Authorization's serial_no. */
  merchantSerialNo: string;
  /** Merchant API private key (PKCS#8 PEM): requests are signed with it. */
  merchantPrivateKey: string;
  /** Merchant public key (SPKI PEM): the sandbox verifies requests with it. */
  merchantPublicKey: string;
  /** WeChat Pay public key ID (PUB_KEY_ID_ + 32 digits): Wechatpay-Serial of everything the sandbox signs. */
  platformSerialNo: string;
  /** The sandbox's private key (PKCS#8 PEM): responses and notifications are signed with it. */
  platformPrivateKey: string;
  /** WeChat Pay public key (SPKI PEM): what the merchant configures to verify. */
  platformPublicKey: string;
  /** APIv3 key: 32 letters and digits; encrypts notification resources. */
  apiV3Key: string;
}

const digits = (n: number): string => Array.from({ length: n }, () => randomInt(0, 10)).join('');

type StoredKeys = Omit<WechatPaySandboxKeys, 'merchantPublicKey' | 'platformPublicKey'>;

/**
 * Loads the sandbox keys, creating them on first start (two RSA-2048 key pairs, random identifiers, a random
 * APIv3 key). Concurrent first starts end up with the same file (see readOrCreateKeyFile).
 * @throws when the file exists but is not a sandbox key file, or the directory is not writable
 */
export async function loadOrCreateWechatPaySandboxKeys(dataDir: string): Promise<WechatPaySandboxKeys> {
  const file = path.join(dataDir, SANDBOX_KEYS_DIR, SANDBOX_KEYS_FILE);
  const text = await readOrCreateKeyFile(file, async () => {
    const mchid = `19${digits(8)}`;
    const keys: StoredKeys = {
      mchid,
      appid: `wx${randomBytes(8).toString('hex')}`,
      merchantSerialNo: randomBytes(20).toString('hex').toUpperCase(),
      merchantPrivateKey: await newRsaPrivateKeyPem(),
      platformSerialNo: `PUB_KEY_ID_01${mchid}${digits(20)}`,
      platformPrivateKey: await newRsaPrivateKeyPem(),
      apiV3Key: randomAlnum(32),
    };
    return JSON.stringify(keys, null, 2);
  });
  const stored = JSON.parse(text) as Partial<Record<keyof StoredKeys, unknown>>;
  const names = [
    'mchid',
    'appid',
    'merchantSerialNo',
    'merchantPrivateKey',
    'platformSerialNo',
    'platformPrivateKey',
    'apiV3Key',
  ] as const;
  if (names.some((n) => typeof stored[n] !== 'string') || Buffer.byteLength(String(stored.apiV3Key)) !== 32) {
    throw new Error(`${file}: not a WeChat Pay sandbox key file`);
  }
  const keys = stored as StoredKeys;
  for (const pem of [keys.merchantPrivateKey, keys.platformPrivateKey]) {
    if (createPrivateKey(pem).asymmetricKeyType !== 'rsa') throw new Error(`${file}: keys must be RSA`);
  }
  return {
    ...keys,
    merchantPublicKey: publicKeyPem(keys.merchantPrivateKey),
    platformPublicKey: publicKeyPem(keys.platformPrivateKey),
  };
}

/** The client config for the sandbox at `url` (its origin): the merchant's side of {@link WechatPaySandboxKeys}. */
export function sandboxClientConfig(keys: WechatPaySandboxKeys, url: string): WechatPayConfig {
  return {
    mchid: keys.mchid,
    appid: keys.appid,
    merchantSerialNo: keys.merchantSerialNo,
    merchantPrivateKey: keys.merchantPrivateKey,
    apiV3Key: keys.apiV3Key,
    platformCerts: { [keys.platformSerialNo]: keys.platformPublicKey },
    baseUrl: url,
  };
}
