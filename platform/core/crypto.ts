/**
 * Small crypto helpers shared by the areas: hashing, random identifiers, constant-time comparison, and the RSA key
 * pairs the payment and face sandboxes create once.
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPair,
  randomBytes,
  randomInt,
  timingSafeEqual,
} from 'node:crypto';
import { promisify } from 'node:util';
import { beijingDateStamp } from './time.ts';

/** Lower-case hex SHA-256 of a string (UTF-8) or bytes. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * A dated, unguessable number of the areas' orders and applications: `prefix`, the Beijing date (YYYYMMDD) of
 * `nowSeconds`, then 80 random bits in hex — 29 characters for a one-letter prefix, letters and digits only.
 */
export function datedNumber(prefix: string, nowSeconds: number): string {
  return `${prefix}${beijingDateStamp(nowSeconds)}${randomBytes(10).toString('hex')}`;
}

/** `bytes` random bytes as base64url (no padding). */
export function randomBase64Url(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * `length` Crockford base32 characters drawn from crypto.randomBytes: 5 random bits each (length 20 → 100 bits).
 */
export function randomCrockford(length: number): string {
  const bytes = randomBytes(Math.ceil((length * 5) / 8));
  let bits = 0;
  let acc = 0;
  let out = '';
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5 && out.length < length) {
      bits -= 5;
      out += CROCKFORD[(acc >> bits) & 31];
    }
    acc &= (1 << bits) - 1;
  }
  return out;
}

/** `length` characters drawn uniformly from `alphabet` with crypto.randomInt. */
export function randomFromAlphabet(alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/**
 * Constant-time string equality: compares SHA-256 digests so neither length nor content leaks through timing.
 */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

const generateRsa = promisify(generateKeyPair);

/** A new RSA-2048 private key as PKCS#8 PEM (the key size Alipay's RSA2 and WeChat Pay's v3 signatures use). */
export async function newRsaPrivateKeyPem(): Promise<string> {
  const { privateKey } = await generateRsa('rsa', { modulusLength: 2048 });
  return privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/** The SPKI PEM public key of a PEM private key. @throws when `privatePem` is not a private key */
export function publicKeyPem(privatePem: string): string {
  return createPublicKey(createPrivateKey(privatePem)).export({ type: 'spki', format: 'pem' }).toString();
}
