/**
 * Enterprise SecurityKeys at rest (spec 02 §2 "API info", §6: AppID and SecurityKey are shown only to verified
 * enterprises; docs/decisions/026-bad-input-and-keys.md). A key is 32 random bytes as base64url (43 characters). The
 * database keeps only its SHA-256 and a display hint, never the key:
 *
 *   `sha256:<first 4 and last 4 characters>:<64 lower-case hex digits>`   (80 characters, the column's width)
 *
 * so a copy of the database does not reveal a key. Since the open API (decision 038) a key is also kept sealed under
 * a platform key outside the database (`security_key_sealed`), which the signature checks open. The full key exists only in the answer
 * that issues it: the first KYC page visit after approval (`issueSecurityKey` there, decided by the one update that
 * flips `security_key_shown`) or a rotation. Afterwards the owner sees the mask built from the hint, as before
 * (`abcd***…***wxyz`). A key of 256 random bits needs no slow or salted hash: SHA-256 cannot be reversed or guessed.
 */
import { createHash, randomBytes } from 'node:crypto';
import { safeEqual } from '../core/crypto.ts';
import type { ApiKeySealer } from '../open-api/sealed-keys.ts';

/** Prefix of a stored (hashed) SecurityKey. */
export const STORED_KEY_PREFIX = 'sha256:';

/** Length of a SecurityKey: 32 bytes in base64url without padding. */
const KEY_LENGTH = 43;

/** A new SecurityKey and what the database stores of it. */
export interface IssuedSecurityKey {
  /** The key itself (43 base64url characters): answer it once, never store or log it. */
  key: string;
  /** The `kyc_profiles.security_key` value: hint and SHA-256 (see the module comment). */
  stored: string;
  /** The `kyc_profiles.security_key_sealed` value: the key sealed for the open API (open-api/sealed-keys.ts). */
  sealed: string;
}

/** The stored form of `key` (see the module comment). */
export function storedSecurityKey(key: string): string {
  const hint = `${key.slice(0, 4)}${key.slice(-4)}`;
  return `${STORED_KEY_PREFIX}${hint}:${createHash('sha256').update(key).digest('hex')}`;
}

/**
 * A new SecurityKey (32 random bytes, base64url) for the profile of `appId`, with its stored (hashed) and sealed
 * forms: the hash for display and the older checks, the sealed form for the open API's HMAC checks (decision 038).
 */
export function issueSecurityKey(appId: string, sealer: ApiKeySealer): IssuedSecurityKey {
  const key = randomBytes(32).toString('base64url');
  return { key, stored: storedSecurityKey(key), sealed: sealer.seal(appId, key) };
}

/**
 * The masked key the owner sees after the one full showing: first 4 and last 4 characters with 35 asterisks
 * between (the key's length), e.g. `Ab3d***********************************x_9Z`; '' when none is stored.
 */
export function maskedSecurityKey(stored: string | null | undefined): string {
  if (!stored?.startsWith(STORED_KEY_PREFIX)) return '';
  const hint = stored.slice(STORED_KEY_PREFIX.length, STORED_KEY_PREFIX.length + 8);
  return `${hint.slice(0, 4)}${'*'.repeat(KEY_LENGTH - 8)}${hint.slice(4)}`;
}

/**
 * True when `presented` is the key whose stored form is `stored` (constant-time on the digests): how an API call
 * that presents an AppID and SecurityKey is checked.
 */
export function securityKeyMatches(stored: string | null | undefined, presented: string): boolean {
  if (!stored?.startsWith(STORED_KEY_PREFIX) || presented.length !== KEY_LENGTH) return false;
  return safeEqual(stored, storedSecurityKey(presented));
}
