/**
 * The account flows (spec 01 §2.5, §5, §7; spec 02 "Session", §7): SMS codes behind the image captcha, register,
 * reset password, login (throttled per client and mobile), change password and the extraction code. The routes
 * parse the contract bodies and call these; the tables are behind captcha.ts, sms.ts, tokens.ts and users.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import {
  AccountMsg,
  type LoginBody,
  type LoginData,
  type RegisterBody,
  type SendSmsBody,
} from '../../contract/account.ts';
import { ApiCode } from '../../contract/envelope.ts';
import { Msg } from '../../contract/messages.ts';
import type { ScryptCost } from '../config.ts';
import { LOGIN_POLICY, isThrottled, recordFailure, smsQuotas, type SmsQuotas } from '../core/attempts.ts';
import { ApiError } from '../core/errors.ts';
import { issueToken, revokeAllTokens } from '../core/tokens.ts';
import type { Database } from '../db/schema.ts';
import type { UserRow } from './schema.ts';
import { notify, unreadCount } from '../notification/notifications.ts';
import { consumeCaptcha } from './captcha.ts';
import { passwordLogin } from './password-login.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { SmsSendError, sendSmsCode, verifySmsCode, type SmsProvider, type SmsPurpose } from './sms.ts';
import { createUser, findUserByMobile, toUserInfo } from './users.ts';

/** What the account flows need: the database, the SMS provider and the platform's password and token settings. */
export interface AccountDeps {
  db: Kysely<Database>;
  sms: SmsProvider;
  cost: ScryptCost;
  /** Bearer-token lifetime, seconds. */
  tokenTtlSeconds: number;
  /** The password check shared with the operator login (one throttle, constant timing). */
  passwordLogin: ReturnType<typeof passwordLogin>;
  /** The SMS send quotas from the config (per client IP and per mobile). */
  smsQuotas: SmsQuotas;
}

/** The account flows' dependencies from the platform's services. */
export function accountDeps(app: FastifyInstance): AccountDeps {
  const { scryptCost: cost, tokenTtlSeconds } = app.config;
  return {
    db: app.pdb.db,
    sms: app.sms,
    cost,
    tokenTtlSeconds,
    passwordLogin: passwordLogin(app.pdb.db, cost),
    smsQuotas: smsQuotas(app.config.sms),
  };
}

const bad = (msg: string) => new ApiError(ApiCode.BAD_REQUEST, msg);

/**
 * Consumes the image captcha named in a raw sendSMS body: single use, so this attempt uses it up whether the answer
 * is right, wrong or malformed (call it before parsing the body).
 * @returns true when `imgKey`/`imgCode` answered a live captcha
 */
export async function consumeCaptchaOf(db: Kysely<Database>, raw: Record<string, unknown>): Promise<boolean> {
  return (
    typeof raw.imgKey === 'string' &&
    raw.imgKey.length <= 64 &&
    (await consumeCaptcha(db, raw.imgKey, typeof raw.imgCode === 'string' ? raw.imgCode : ''))
  );
}

/**
 * Sends an SMS code for `purpose` to `body.mobile`, asked from client `ip` (register: the mobile must be new; reset:
 * it must be known).
 * @throws ApiError 400 `imgCodeInvalid` when the captcha failed, `mobileRegistered` / `mobileNotRegistered`; 429
 *   `smsTooFrequent` within a minute of the last code, `smsLimited` past an hourly/daily quota (per mobile or IP) or
 *   the provider's own limit; 500 `smsSendFailed` when the provider refuses or cannot be reached
 */
export async function sendSms(
  deps: AccountDeps,
  body: SendSmsBody,
  captchaOk: boolean,
  purpose: SmsPurpose,
  ip: string,
): Promise<void> {
  if (!captchaOk) throw bad(Msg.imgCodeInvalid);
  const exists = await findUserByMobile(deps.db, body.mobile);
  if (purpose === 'register' && exists) throw bad(AccountMsg.mobileRegistered);
  if (purpose === 'reset' && !exists) throw bad(AccountMsg.mobileNotRegistered);
  let r: Awaited<ReturnType<typeof sendSmsCode>>;
  try {
    r = await sendSmsCode(deps.db, deps.sms, deps.smsQuotas, body.mobile, purpose, ip);
  } catch (err) {
    if (err instanceof SmsSendError && err.limited)
      throw new ApiError(ApiCode.TOO_MANY_REQUESTS, AccountMsg.smsLimited(60));
    if (err instanceof SmsSendError) throw new ApiError(ApiCode.SERVER_ERROR, AccountMsg.smsSendFailed);
    throw err;
  }
  if (r === 'sent') return;
  if (r.refused === 'tooFrequent') throw new ApiError(ApiCode.TOO_MANY_REQUESTS, AccountMsg.smsTooFrequent);
  throw new ApiError(
    ApiCode.TOO_MANY_REQUESTS,
    AccountMsg.smsLimited(Math.max(1, Math.ceil(r.retryAfterSeconds / 60))),
  );
}

/**
 * Registers `body.mobile` with its password once the SMS code checks out.
 * @returns the new user's id
 * @throws ApiError 400 `mobileRegistered` (also when a concurrent registration won), `smsCodeInvalid`
 */
export async function register(deps: AccountDeps, body: RegisterBody): Promise<number> {
  if (await findUserByMobile(deps.db, body.mobile)) throw bad(AccountMsg.mobileRegistered);
  if (!(await verifySmsCode(deps.db, body.mobile, 'register', body.smsCode))) throw bad(Msg.smsCodeInvalid);
  const id = await createUser(deps.db, {
    mobile: body.mobile,
    passwordHash: await hashPassword(body.password, deps.cost),
  });
  if (id === null) throw bad(AccountMsg.mobileRegistered);
  return id;
}

/**
 * Stores a new password hash for `userId` and revokes every token of the user in one transaction; with `news`, a
 * notification is written in the same transaction.
 */
async function replacePassword(
  db: Kysely<Database>,
  userId: number,
  passwordHash: string,
  news?: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
    await revokeAllTokens(trx, 'user', userId);
    if (news !== undefined) await notify(trx, userId, news);
  });
}

/**
 * Sets a new password for `body.mobile` once the SMS code checks out; every token of the user is revoked.
 * @returns the user's id
 * @throws ApiError 400 `mobileNotRegistered`, `smsCodeInvalid`
 */
export async function resetPassword(deps: AccountDeps, body: RegisterBody): Promise<number> {
  const user = await findUserByMobile(deps.db, body.mobile);
  if (!user) throw bad(AccountMsg.mobileNotRegistered);
  if (!(await verifySmsCode(deps.db, body.mobile, 'reset', body.smsCode))) throw bad(Msg.smsCodeInvalid);
  await replacePassword(deps.db, user.id, await hashPassword(body.password, deps.cost));
  return user.id;
}

/**
 * Logs `body.mobile` in from client `ip`: failures count per (ip, mobile) against LOGIN_POLICY, a success clears
 * them and issues a bearer token.
 * @throws ApiError 429 when throttled, 400 `loginFailed` for an unknown mobile or a wrong password (alike)
 */
export async function login(deps: AccountDeps, body: LoginBody, ip: string): Promise<LoginData> {
  const { db } = deps;
  const user = await deps.passwordLogin({
    subject: `${ip}|${body.mobile}`,
    find: () => findUserByMobile(db, body.mobile),
    password: body.password,
    failMsg: AccountMsg.loginFailed,
  });
  const { token } = await issueToken(db, 'user', user.id, deps.tokenTtlSeconds);
  return {
    token,
    expiresIn: deps.tokenTtlSeconds,
    userInfo: toUserInfo(user, await unreadCount(db, user.id)),
  };
}

/**
 * Changes the password of `user` (spec 01 §2.5): the old password must match (failures count against the login
 * throttle of (ip, mobile)); then the new hash is stored, every token of the user revoked (this session too) and a
 * notification written, in one transaction.
 * @throws ApiError 429 when throttled, 400 `oldPasswordWrong`
 */
export async function changePassword(
  deps: AccountDeps,
  user: UserRow,
  body: { oldPassword: string; password: string },
  ip: string,
): Promise<void> {
  const { db } = deps;
  const subject = `${ip}|${user.mobile}`;
  if (await isThrottled(db, LOGIN_POLICY, subject))
    throw new ApiError(ApiCode.TOO_MANY_REQUESTS, Msg.tooManyRequests);
  if (!(await verifyPassword(body.oldPassword, user.password_hash))) {
    await recordFailure(db, LOGIN_POLICY, subject);
    throw bad(AccountMsg.oldPasswordWrong);
  }
  const passwordHash = await hashPassword(body.password, deps.cost);
  await replacePassword(db, user.id, passwordHash, AccountMsg.passwordChangedNews);
}

/** Replaces the extraction code of `userId`: checkNo compares with the stored value, so the old one stops at once. */
export async function setExtractCode(
  db: Kysely<Database>,
  userId: number,
  extractCode: string,
): Promise<void> {
  await db.updateTable('users').set({ extract_code: extractCode }).where('id', '=', userId).execute();
}
