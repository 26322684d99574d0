/**
 * The platform's URL-signing key and the signed, expiring URLs of private files (seal images, KYC images, and every
 * file a new area serves): HMAC-SHA256 over `x:<purpose>|<subject>|<exp>`, `exp` in unix seconds. The key is 32
 * random bytes generated on first start at `${dataDir}/keys/download.key` (mode 0600); several platform instances
 * must share that file. Evidence downloads, packages and view tokens sign other inputs with the same key
 * (evidence/download.ts extends this class).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import { readOrCreateKeyFile } from '../core/key-file.ts';

const EXP_RE = /^\d{1,12}$/;
const SIG_RE = /^[0-9a-f]{64}$/;

/** True when `exp` and `sig` have the shapes of a signed URL's query values (unix seconds, 64 hex). */
export function wellFormed(exp: unknown, sig: unknown): exp is string {
  return typeof exp === 'string' && EXP_RE.test(exp) && typeof sig === 'string' && SIG_RE.test(sig);
}

/** Constant-time comparison of two 64-hex signatures. */
export function sigEqual(expectedHex: string, givenHex: string): boolean {
  return timingSafeEqual(Buffer.from(expectedHex, 'hex'), Buffer.from(givenHex, 'hex'));
}

/**
 * Loads the signing key from `${dataDir}/keys/download.key`, creating it (0600, 64 hex) when absent.
 * @throws when the key file exists but is not 64 hex characters
 */
export async function loadSigningKey(dataDir: string): Promise<Buffer> {
  const file = path.join(dataDir, 'keys', 'download.key');
  const hex = (await readOrCreateKeyFile(file, () => randomBytes(32).toString('hex'))).trim();
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error(`${file} must hold 64 hex characters`);
  return Buffer.from(hex, 'hex');
}

/** Signs and verifies URLs with the platform's HMAC key (see the module comment). */
export class UrlSigner {
  private readonly key: Buffer;
  constructor(key: Buffer) {
    this.key = key;
  }

  /** Hex HMAC-SHA256 of `input` under the key. */
  protected hmac(input: string): string {
    return createHmac('sha256', this.key).update(input).digest('hex');
  }

  /**
   * Hex HMAC-SHA256 over "x:<purpose>|<subject>|<exp>". The `x:` prefix keeps these apart from the evidence
   * download, package and view signatures.
   */
  signFor(purpose: string, subject: string, exp: number): string {
    return this.hmac(`x:${purpose}|${subject}|${exp}`);
  }

  /** `exp=<unix seconds>&sig=<hex>` for (purpose, subject), expiring `ttlSeconds` after `now`. */
  signedQuery(purpose: string, subject: string, now: number, ttlSeconds: number): string {
    const exp = now + ttlSeconds;
    return `exp=${exp}&sig=${this.signFor(purpose, subject, exp)}`;
  }

  /** True when `sig` signs (purpose, subject, exp) and `exp` is not before `now`. Constant time. */
  verifyFor(purpose: string, subject: string, exp: unknown, sig: unknown, now: number): boolean {
    if (!wellFormed(exp, sig)) return false;
    return sigEqual(this.signFor(purpose, subject, Number(exp)), sig as string) && Number(exp) >= now;
  }
}
