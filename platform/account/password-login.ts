/**
 * The one password check behind both logins, the user's (mobile + password, spec 01 §4) and the console
 * operator's (username + password): one throttle (`LOGIN_POLICY`, 10 failures per subject in 15 minutes, decision
 * 002 "Throttling"), the same timing whether the account exists or not, the same failure counting.
 */
import type { Kysely } from 'kysely';
import { ApiCode } from '../../contract/envelope.ts';
import { AccountMsg } from '../../contract/account.ts';
import type { ScryptCost } from '../config.ts';
import { LOGIN_POLICY, clearFailures, recordFailure, throttledFor } from '../core/attempts.ts';
import { ApiError } from '../core/errors.ts';
import type { Database } from '../db/schema.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

/** What one login attempt checks. */
export interface PasswordLoginAttempt<T extends { password_hash: string }> {
  /** The throttle's subject: the client address and the login name (and a prefix per kind of account). */
  subject: string;
  /** Finds the account by its login name. */
  find: () => Promise<T | undefined>;
  password: string;
  /** The message of a failed attempt (unknown account, wrong password, or an account that may not log in). */
  failMsg: string;
  /** False for an account that may not log in (a disabled operator); default: every account may. */
  usable?: (account: T) => boolean;
}

/**
 * Makes the login check of one platform. A throttled subject answers 429 before anything is checked; an unknown
 * account is checked against a dummy hash, so the time taken does not tell which accounts exist; a failure is
 * counted and answers 400 with `failMsg`; a success clears the subject's failures.
 * @returns the check: resolves to the account, or throws ApiError 429 / 400
 */
export function passwordLogin(db: Kysely<Database>, cost: ScryptCost) {
  let dummyHash: Promise<string> | undefined;
  return async function login<T extends { password_hash: string }>(
    attempt: PasswordLoginAttempt<T>,
  ): Promise<T> {
    const { subject, password, failMsg } = attempt;
    const lockedFor = await throttledFor(db, LOGIN_POLICY, subject);
    if (lockedFor > 0) {
      throw new ApiError(ApiCode.TOO_MANY_REQUESTS, AccountMsg.loginLocked(Math.ceil(lockedFor / 60)));
    }
    const account = await attempt.find();
    const hash =
      account?.password_hash ?? (await (dummyHash ??= hashPassword('not-a-real-password-0', cost)));
    const valid = await verifyPassword(password, hash);
    if (!account || !valid || (attempt.usable && !attempt.usable(account))) {
      await recordFailure(db, LOGIN_POLICY, subject);
      throw new ApiError(ApiCode.BAD_REQUEST, failMsg);
    }
    await clearFailures(db, LOGIN_POLICY, subject);
    return account;
  };
}
