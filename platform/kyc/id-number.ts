/**
 * One national ID number verifies one personal account (docs/decisions/025-secrets-sms.md): a personal profile that
 * is live — under review (userStatus '2') or verified ('3') — carries `kyc_profiles.id_key`, an HMAC-SHA256 of the
 * normalised number under a key kept at `${dataDir}/keys/id-index.key`, and a unique index on that column refuses a
 * second live profile with the same number on either dialect, also between concurrent submissions. The number is
 * not stored in clear a second time, and a copy of the database alone cannot test guesses against the index.
 * Rejected profiles, face verifications not yet passed and enterprises carry no key.
 */
import { createHmac, randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { ApiCode } from '../../contract/envelope.ts';
import { KycMsg } from '../../contract/kyc.ts';
import { idCardCheckChar } from '../../contract/validators.ts';
import { isUniqueViolation } from '../account/users.ts';
import { readOrCreateKeyFile } from '../core/key-file.ts';
import { ApiError } from '../core/errors.ts';
import type { Database } from '../db/schema.ts';

const keys = new Map<string, Promise<Buffer>>();

/** The index key of `dataDir` (32 random bytes as hex, created 0600 on first use), read once per process. */
function indexKey(dataDir: string): Promise<Buffer> {
  let k = keys.get(dataDir);
  if (!k) {
    k = readOrCreateKeyFile(path.join(dataDir, 'keys', 'id-index.key'), () =>
      randomBytes(32).toString('hex'),
    ).then((hex) => Buffer.from(hex.trim(), 'hex'));
    k.catch(() => keys.delete(dataDir));
    keys.set(dataDir, k);
  }
  return k;
}

/**
 * The canonical form of an ID number: trimmed, upper-case X, and a legacy 15-digit number (GB 11643-1989) widened to
 * its 18-character form (century 19 and the check character), so both spellings of one person's number agree.
 */
export function normaliseIdNumber(idNumber: string): string {
  const s = idNumber.trim().toUpperCase();
  if (/^\d{15}$/.test(s)) {
    const first17 = `${s.slice(0, 6)}19${s.slice(6)}`;
    return first17 + idCardCheckChar(first17);
  }
  return s;
}

/** `id_key` of `idNumber`: hex HMAC-SHA256 of its canonical form under the data directory's index key. */
export async function idNumberKey(dataDir: string, idNumber: string): Promise<string> {
  return createHmac('sha256', await indexKey(dataDir))
    .update(`cz-id|${normaliseIdNumber(idNumber)}`)
    .digest('hex');
}

/** The answer when the number is live on another account. */
export const idTaken = () => new ApiError(ApiCode.BAD_REQUEST, KycMsg.idCardTaken);

/**
 * Refuses when a live personal profile of another user carries `key` (a friendly early answer; the unique index is
 * what holds under concurrency).
 * @throws ApiError 400 该身份证号已被其他账号认证
 */
export async function assertIdNumberFree(db: Kysely<Database>, key: string, userId: number): Promise<void> {
  const other = await db
    .selectFrom('kyc_profiles')
    .select('user_id')
    .where('id_key', '=', key)
    .where('user_id', '!=', userId)
    .executeTakeFirst();
  if (other) throw idTaken();
}

/** True when `err` is the unique index on `kyc_profiles.id_key` refusing a second live profile. */
export function isIdKeyViolation(err: unknown): boolean {
  return isUniqueViolation(err) && /id_key/.test((err as { message?: string }).message ?? '');
}
