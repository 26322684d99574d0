/**
 * SMS (spec 02 §5 "Shared validators"; docs/decisions/025-secrets-sms.md): verification codes — 6 digits, valid 10
 * minutes, at most one sent per minute per mobile and within the hourly/daily quotas per mobile and per client IP, at
 * most 5 wrong attempts — and the KYC result notices. Delivery goes through an {@link SmsProvider}: the sandbox
 * outbox of the embedded default, or Tencent Cloud SMS (sms-tencent.ts). A code is logged only by the sandbox and
 * only with APP_ENV development/test; never by anything else.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomInt } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { KycMsg } from '../../contract/kyc.ts';
import { consumeQuota, type SmsQuotas } from '../core/attempts.ts';
import { safeEqual } from '../core/crypto.ts';
import { nowSeconds } from '../core/time.ts';
import type { Database } from '../db/schema.ts';

export type SmsPurpose = 'register' | 'reset';

/** One SMS: a verification code for register/reset, or a KYC review result notice (no variables). */
export type SmsMessage =
  { kind: 'code'; purpose: SmsPurpose; code: string } | { kind: 'kycApproved' } | { kind: 'kycRejected' };

/** Sends SMS. Implemented by the sandbox outbox and by Tencent Cloud SMS (sms-tencent.ts). */
export interface SmsProvider {
  /**
   * Sends `message` to the mainland mobile `mobile` (11 digits).
   * @throws SmsSendError when the provider refuses or cannot be reached (the caller answers it; a code stays unusable)
   */
  send(mobile: string, message: SmsMessage): Promise<void>;
}

/** A provider's refusal or a transport failure; `code` is the provider's error code (e.g. LimitExceeded.…). */
export class SmsSendError extends Error {
  override name = 'SmsSendError';
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
  /** True for the provider's own frequency limits (Tencent `LimitExceeded.*`). */
  get limited(): boolean {
    return this.code.startsWith('LimitExceeded');
  }
}

/** `138****8000`: a mobile as it may appear in a log line. */
export function maskMobile(mobile: string): string {
  return mobile.length === 11 ? `${mobile.slice(0, 3)}****${mobile.slice(7)}` : '***';
}

/** The text a KYC result message carries (what the Tencent templates hold). */
export function smsText(message: Exclude<SmsMessage, { kind: 'code' }>): string {
  return message.kind === 'kycApproved' ? KycMsg.approvedSms : KycMsg.rejectedSms;
}

/**
 * Sandbox provider of the embedded default: appends one JSON line to `${dataDir}/outbox/sms.log` (0600) —
 * `{"time","mobile","purpose","code"}` for a code, `{"time","mobile","purpose","text"}` for a notice — so a developer
 * or a test reads it there. The process log gets the line with its code only when `logCodes` (APP_ENV development or
 * test); otherwise only the purpose and the masked mobile.
 */
export class OutboxSmsProvider implements SmsProvider {
  readonly file: string;
  private readonly log: FastifyBaseLogger;
  private readonly logCodes: boolean;
  constructor(dataDir: string, log: FastifyBaseLogger, logCodes = false) {
    this.log = log;
    this.logCodes = logCodes;
    this.file = path.join(dataDir, 'outbox', 'sms.log');
  }

  async send(mobile: string, message: SmsMessage): Promise<void> {
    await fs.mkdir(path.dirname(this.file), { recursive: true });
    const time = new Date().toISOString();
    const line =
      message.kind === 'code'
        ? { time, mobile, purpose: message.purpose, code: message.code }
        : { time, mobile, purpose: message.kind, text: smsText(message) };
    await fs.appendFile(this.file, `${JSON.stringify(line)}\n`, { mode: 0o600 });
    if (this.logCodes) this.log.info(line, 'sandbox SMS written to the outbox');
    else
      this.log.info(
        { mobile: maskMobile(mobile), purpose: line.purpose },
        'sandbox SMS written to the outbox (read it there)',
      );
  }
}

/** Code lifetime, seconds. */
export const SMS_TTL_SECONDS = 600;
/** Minimum gap between two codes to one mobile, seconds. */
export const SMS_INTERVAL_SECONDS = 60;
/** Wrong tries before a code is dead. */
export const SMS_MAX_ATTEMPTS = 5;

/** Why a code was not sent: the one-minute gap, or a quota (with the seconds until it opens again). */
export type SendRefusal = { refused: 'tooFrequent' } | { refused: 'quota'; retryAfterSeconds: number };

/**
 * Stores and sends a fresh code for `mobile`, requested from client `ip`. The one-minute gap is checked first (a
 * refused retry uses no quota); then one unit of each quota is taken — per IP an hour, per mobile an hour and a day —
 * atomically, so concurrent requests cannot overshoot them.
 * @returns 'sent', or the refusal
 * @throws SmsSendError when the provider fails (the stored code is then consumed, so it never works)
 */
export async function sendSmsCode(
  db: Kysely<Database>,
  provider: SmsProvider,
  quotas: SmsQuotas,
  mobile: string,
  purpose: SmsPurpose,
  ip: string,
): Promise<'sent' | SendRefusal> {
  const now = nowSeconds();
  const recent = await db
    .selectFrom('sms_codes')
    .select('id')
    .where('mobile', '=', mobile)
    .where('sent_at', '>', now - SMS_INTERVAL_SECONDS)
    .executeTakeFirst();
  if (recent) return { refused: 'tooFrequent' };
  for (const [policy, subject] of [
    [quotas.ipHour, ip],
    [quotas.mobileHour, mobile],
    [quotas.mobileDay, mobile],
  ] as const) {
    const wait = await consumeQuota(db, policy, subject);
    if (wait > 0) return { refused: 'quota', retryAfterSeconds: wait };
  }
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
    await provider.send(mobile, { kind: 'code', purpose, code });
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
