/**
 * Failed-attempt throttling kept in the database (so several platform instances share it): a subject that fails
 * `max` times within `windowSeconds` is refused until the window passes. Used for login (per mobile + IP),
 * extraction codes (per IP + baoquan) and open-API signatures (per IP + AppID). Only failures count, so a user who logs in often is never throttled.
 * {@link consumeQuota} counts every use instead: the SMS send quotas (per IP and per mobile).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { sha256Hex } from './crypto.ts';
import { nowSeconds } from './time.ts';

/** A named throttle: at most `max` failures per `windowSeconds` for one subject. */
export interface AttemptPolicy {
  scope: string;
  max: number;
  windowSeconds: number;
}

/** Login: 10 failures per IP + mobile in 15 minutes. */
export const LOGIN_POLICY: AttemptPolicy = { scope: 'login', max: 10, windowSeconds: 900 };
/** Extraction code: 10 wrong codes per IP + baoquan in 15 minutes. */
export const EXTRACT_CODE_POLICY: AttemptPolicy = { scope: 'checkNo', max: 10, windowSeconds: 900 };
/** Open API: 20 calls with a wrong signature or an unknown AppID per IP + AppID in 15 minutes (decision 038). */
export const OPEN_API_POLICY: AttemptPolicy = { scope: 'openApi', max: 20, windowSeconds: 900 };

const keyOf = (policy: AttemptPolicy, subject: string) => sha256Hex(`${policy.scope}|${subject}`);

/**
 * Seconds until `subject` may try again: 0 when it has failures left in the current window, else the time until the
 * window that used them up passes.
 */
export async function throttledFor(
  db: Kysely<Database>,
  policy: AttemptPolicy,
  subject: string,
): Promise<number> {
  const row = await db
    .selectFrom('attempt_counters')
    .select(['count', 'window_start'])
    .where('key', '=', keyOf(policy, subject))
    .executeTakeFirst();
  if (!row || row.count < policy.max) return 0;
  return Math.max(0, row.window_start + policy.windowSeconds - nowSeconds());
}

/** True when `subject` has used up its failures in the current window. */
export async function isThrottled(
  db: Kysely<Database>,
  policy: AttemptPolicy,
  subject: string,
): Promise<boolean> {
  return (await throttledFor(db, policy, subject)) > 0;
}

/** Counts one failure of `subject` (a new window starts when the old one has passed). */
export async function recordFailure(
  db: Kysely<Database>,
  policy: AttemptPolicy,
  subject: string,
): Promise<void> {
  await countOne(db, policy, subject, nowSeconds()).execute();
}

/**
 * The one upsert that counts a use of `subject` at `now` (unix seconds): a new window starts at 1 once the old one
 * has passed `policy.windowSeconds`, else the count grows by one. One statement, so concurrent callers never lose a
 * count on either dialect.
 */
function countOne(db: Kysely<Database>, policy: AttemptPolicy, subject: string, now: number) {
  const windowFloor = now - policy.windowSeconds;
  return db
    .insertInto('attempt_counters')
    .values({ key: keyOf(policy, subject), count: 1, window_start: now })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet((eb) => ({
        count: eb
          .case()
          .when('attempt_counters.window_start', '<=', windowFloor)
          .then(1)
          .else(eb('attempt_counters.count', '+', 1))
          .end(),
        window_start: eb
          .case()
          .when('attempt_counters.window_start', '<=', windowFloor)
          .then(now)
          .else(eb.ref('attempt_counters.window_start'))
          .end(),
      })),
    );
}

/** Forgets the failures of `subject` (after a success). */
export async function clearFailures(
  db: Kysely<Database>,
  policy: AttemptPolicy,
  subject: string,
): Promise<void> {
  await db.deleteFrom('attempt_counters').where('key', '=', keyOf(policy, subject)).execute();
}

/**
 * Counts one use of `subject` against `policy` (a quota rather than a failure count: every call counts) and says
 * whether it fits. One upsert statement, so concurrent callers on either dialect never both take the last unit.
 * @returns 0 when this use is within `policy.max` for the current window, else the seconds until the window passes
 */
export async function consumeQuota(
  db: Kysely<Database>,
  policy: AttemptPolicy,
  subject: string,
): Promise<number> {
  const now = nowSeconds();
  const row = await countOne(db, policy, subject, now)
    .returning(['count', 'window_start'])
    .executeTakeFirstOrThrow();
  if (Number(row.count) <= policy.max) return 0;
  return Math.max(1, Number(row.window_start) + policy.windowSeconds - now);
}

/** The SMS send quotas (spec 02 §5 leaves them open; docs/decisions/025-secrets-sms.md), counts from the config. */
export interface SmsQuotas {
  /** Per client IP, one hour. */
  ipHour: AttemptPolicy;
  /** Per mobile, one hour. */
  mobileHour: AttemptPolicy;
  /** Per mobile, 24 hours. */
  mobileDay: AttemptPolicy;
}

/** The SMS quotas for the configured counts (SMS_MAX_PER_IP_HOUR, SMS_MAX_PER_MOBILE_HOUR, SMS_MAX_PER_MOBILE_DAY). */
export function smsQuotas(limits: {
  maxPerIpHour: number;
  maxPerMobileHour: number;
  maxPerMobileDay: number;
}): SmsQuotas {
  return {
    ipHour: { scope: 'smsIpHour', max: limits.maxPerIpHour, windowSeconds: 3600 },
    mobileHour: { scope: 'smsMobileHour', max: limits.maxPerMobileHour, windowSeconds: 3600 },
    mobileDay: { scope: 'smsMobileDay', max: limits.maxPerMobileDay, windowSeconds: 86_400 },
  };
}
