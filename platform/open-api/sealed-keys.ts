/**
 * Enterprise SecurityKeys sealed for the open API's signature checks (docs/decisions/038-open-api-signing.md).
 *
 * The open API verifies HMAC-SHA256 signatures keyed with the SecurityKey, so the platform must be able to read the
 * key; the hashed form of decision 026 stays for display and the older checks. A key is sealed with AES-256-GCM
 * (NIST SP 800-38D: random 96-bit IV, 128-bit tag) under a 256-bit platform key kept in a file outside the database
 * (API_KEYS_KEY_FILE, default `${dataDir}/keys/api-keys.key`, 64 hex, 0600, created on first start), with the
 * AppID as associated data so a sealed key copied to another profile does not open.
 *
 * Sealed form: `v1.` + base64url(IV ‖ ciphertext ‖ tag) — 3 + 94 characters for a 43-character key.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import path from 'node:path';
import { readOrCreateKeyFile } from '../core/key-file.ts';

const VERSION = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Default place of the sealing key. */
export function apiKeysKeyPath(dataDir: string): string {
  return path.join(dataDir, 'keys', 'api-keys.key');
}

/** Seals and opens SecurityKeys under one platform key. */
export class ApiKeySealer {
  private readonly key: Buffer;
  private constructor(key: Buffer) {
    this.key = key;
  }

  /**
   * Reads the sealing key from `file`, creating it (32 random bytes as 64 hex, mode 0600) when missing.
   * @throws Error when the file does not hold 64 hex digits, or what the file system throws
   */
  static async open(file: string): Promise<ApiKeySealer> {
    const hex = (await readOrCreateKeyFile(file, () => randomBytes(32).toString('hex'))).trim();
    if (!/^[0-9a-f]{64}$/i.test(hex)) throw new Error(`${file} must hold 64 hex digits (a 256-bit key)`);
    return new ApiKeySealer(Buffer.from(hex, 'hex'));
  }

  /** The sealed form of `securityKey` bound to `appId` (see the module comment). */
  seal(appId: string, securityKey: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(appId, 'utf8'));
    const body = Buffer.concat([cipher.update(securityKey, 'utf8'), cipher.final()]);
    return VERSION + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
  }

  /**
   * The SecurityKey of `sealed`, or null when it is not a sealed form, was sealed for another AppID or under
   * another platform key, or was altered (the GCM tag does not verify). Never throws.
   */
  unseal(appId: string, sealed: string | null | undefined): string | null {
    if (!sealed?.startsWith(VERSION)) return null;
    const raw = Buffer.from(sealed.slice(VERSION.length), 'base64url');
    if (raw.length <= IV_BYTES + TAG_BYTES) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(appId, 'utf8'));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      const body = raw.subarray(IV_BYTES, raw.length - TAG_BYTES);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
