/**
 * SMS verification codes (spec 02 §5 "Shared validators"): 6 digits, valid 10 minutes, at most one sent per
 * minute per mobile, at most 5 wrong attempts. Delivery goes through an {@link SmsProvider}; the embedded
 * default writes an outbox.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomInt } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { safeEqual } from '../core/crypto.ts';
import { nowSeconds } from '../core/time.ts';
import type { Database } from '../db/schema.ts';

export type SmsPurpose = 'register' | 'reset';

/** Sends one verification code. A real provider (Aliyun, Tencent…) implements this later. */
export interface SmsProvider {
  /** @throws when the provider refuses; the caller answers a server error and the code stays unusable. */
  send(mobile: string, code: string, purpose: SmsPurpose): Promise<void>;
}

/**
 * Sandbox provider of the embedded default: appends `{"time","mobile","purpose","code"}` as one JSON line to
 * `${dataDir}/outbox/sms.log` and logs it, so a developer or a test reads the code there.
 */
export class OutboxSmsProvider implements SmsProvider {
  readonly file: string;
  constructor(
    dataDir: string,
    private readonly log: FastifyBaseLogger,
  ) {
    this.file = path.join(dataDir, 'outbox', 'sms.log');
  }

  async send(mobile: string, code: string, purpose: SmsPurpose): Promise<void> {
    await fs.mkdir(path.dirname(this.file), { recursive: true });
    const line = { time: new Date().toISOString(), mobile, purpose, code };
    await fs.appendFile(this.file, `${JSON.stringify(line)}\n`, { mode: 0o600 });
    this.log.info(line, 'sandbox SMS written to the outbox');
  }
}

/** Code lifetime, seconds. */
export const SMS_TTL_SECONDS = 600;
/** Minimum gap between two codes to one mobile, seconds. */
export const SMS_INTERVAL_SECONDS = 60;
/** Wrong tries before a code is dead. */
export const SMS_MAX_ATTEMPTS = 5;

/**
 * Stores and sends a fresh code for `mobile`.
 * @returns 'sent', or 'tooFrequent' when a code went to this mobile less than a minute ago
 */
export async function sendSmsCode(
  db: Kysely<Database>,
  provider: SmsProvider,
  mobile: string,
  purpose: SmsPurpose,
): Promise<'sent' | 'tooFrequent'> {
  const now = nowSeconds();
  const recent = await db
    .selectFrom('sms_codes')
    .select('id')
    .where('mobile', '=', mobile)
    .where('sent_at', '>', now - SMS_INTERVAL_SECONDS)
    .executeTakeFirst();
  if (recent) return 'tooFrequent';
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  // A newer code replaces older ones of the same purpose.
  await db
    .updateTable('sms_codes')
    .set({ consumed: 1 })
    .where('mobile', '=', mobile)
    .where('purpose', '=', purpose)
    .where('consumed', '=', 0)
    .execute();
  const { id } = await db
    .insertInto('sms_codes')
    .values({
      mobile,
      purpose,
      code,
      sent_at: now,
      expires_at: now + SMS_TTL_SECONDS,
      attempts: 0,
      consumed: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  try {
    await provider.send(mobile, code, purpose);
  } catch (err) {
    await db.updateTable('sms_codes').set({ consumed: 1 }).where('id', '=', id).execute();
    throw err;
  }
  return 'sent';
}

/**
 * Checks `code` against the live code of `mobile` for `purpose` and consumes it on success. A wrong code counts an
 * attempt; the fifth wrong attempt kills the code.
 * @returns true when the code matched
 */
export async function verifySmsCode(
  db: Kysely<Database>,
  mobile: string,
  purpose: SmsPurpose,
  code: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('sms_codes')
    .select(['id', 'code', 'attempts'])
    .where('mobile', '=', mobile)
    .where('purpose', '=', purpose)
    .where('consumed', '=', 0)
    .where('expires_at', '>=', nowSeconds())
    .where('attempts', '<', SMS_MAX_ATTEMPTS)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!row) return false;
  if (!safeEqual(row.code, code)) {
    await db
      .updateTable('sms_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', row.id)
      .execute();
    return false;
  }
  // Consume with a guard so two concurrent uses of one code cannot both win.
  const r = await db
    .updateTable('sms_codes')
    .set({ consumed: 1 })
    .where('id', '=', row.id)
    .where('consumed', '=', 0)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
