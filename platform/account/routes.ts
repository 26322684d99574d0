/**
 * Account calls of issue 2 (paths: contract `AccountPaths`; spec 01 §7, spec 02 §7): image captcha, SMS codes,
 * register, reset password, login, user info, logout. Bodies are form-encoded or JSON. Every answer is an
 * envelope with HTTP 200; failures carry code 400 (bad input or wrong credentials), 408 (log in again) or 429.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  AccountPaths,
  ApiCode,
  LoginBody,
  Msg,
  RegisterBody,
  ResetPasswordBody,
  SendSmsBody,
  ok,
  type LoginData,
} from '../../contract/index.ts';
import { unreadCount } from '../notification/notifications.ts';
import { LOGIN_POLICY, clearFailures, isThrottled, recordFailure } from '../core/attempts.ts';
import { ApiError, parseInput } from '../core/errors.ts';
import { consumeCaptcha, createCaptcha } from './captcha.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { sendSmsCode, verifySmsCode, type SmsPurpose } from './sms.ts';
import { issueToken, revokeAllTokens, revokeToken } from './tokens.ts';
import { createUser, findUserByMobile, toUserInfo } from './users.ts';

/** Registers the account routes on `app` (needs the services and auth plugins). */
export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.pdb;
  const cost = app.config.scryptCost;
  // Verified against when the mobile is unknown, so response time does not reveal which mobiles have accounts.
  let dummyHash: Promise<string> | undefined;
  const getDummyHash = () => (dummyHash ??= hashPassword('not-a-real-password-0', cost));

  app.post(AccountPaths.imgCode, async () => ok(await createCaptcha(db)));

  async function sendSms(request: FastifyRequest, purpose: SmsPurpose) {
    const raw = (request.body ?? {}) as Record<string, unknown>;
    // The captcha is single use: this attempt consumes it whether the answer is right, wrong or malformed.
    const captchaOk =
      typeof raw.imgKey === 'string' &&
      raw.imgKey.length <= 64 &&
      (await consumeCaptcha(db, raw.imgKey, typeof raw.imgCode === 'string' ? raw.imgCode : ''));
    const body = parseInput(SendSmsBody, raw);
    if (!captchaOk) throw new ApiError(ApiCode.BAD_REQUEST, Msg.imgCodeInvalid);
    const exists = await findUserByMobile(db, body.mobile);
    if (purpose === 'register' && exists) throw new ApiError(ApiCode.BAD_REQUEST, Msg.mobileRegistered);
    if (purpose === 'reset' && !exists) throw new ApiError(ApiCode.BAD_REQUEST, Msg.mobileNotRegistered);
    const r = await sendSmsCode(db, app.sms, body.mobile, purpose);
    if (r === 'tooFrequent') throw new ApiError(ApiCode.TOO_MANY_REQUESTS, Msg.smsTooFrequent);
    return ok(null, Msg.smsSent);
  }
  app.post(AccountPaths.sendSms, (request) => sendSms(request, 'register'));
  app.post(AccountPaths.sendResetSms, (request) => sendSms(request, 'reset'));

  app.post(AccountPaths.register, async (request) => {
    const body = parseInput(RegisterBody, request.body);
    if (await findUserByMobile(db, body.mobile))
      throw new ApiError(ApiCode.BAD_REQUEST, Msg.mobileRegistered);
    if (!(await verifySmsCode(db, body.mobile, 'register', body.smsCode))) {
      throw new ApiError(ApiCode.BAD_REQUEST, Msg.smsCodeInvalid);
    }
    const id = await createUser(db, {
      mobile: body.mobile,
      passwordHash: await hashPassword(body.password, cost),
    });
    if (id === null) throw new ApiError(ApiCode.BAD_REQUEST, Msg.mobileRegistered);
    request.log.info({ userId: id }, 'user registered');
    return ok(null, Msg.registered);
  });

  app.post(AccountPaths.resetPassword, async (request) => {
    const body = parseInput(ResetPasswordBody, request.body);
    const user = await findUserByMobile(db, body.mobile);
    if (!user) throw new ApiError(ApiCode.BAD_REQUEST, Msg.mobileNotRegistered);
    if (!(await verifySmsCode(db, body.mobile, 'reset', body.smsCode))) {
      throw new ApiError(ApiCode.BAD_REQUEST, Msg.smsCodeInvalid);
    }
    const passwordHash = await hashPassword(body.password, cost);
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', user.id).execute();
      await revokeAllTokens(trx, user.id);
    });
    request.log.info({ userId: user.id }, 'password reset; tokens revoked');
    return ok(null, Msg.passwordReset);
  });

  app.post(AccountPaths.login, async (request) => {
    const body = parseInput(LoginBody, request.body);
    const subject = `${request.ip}|${body.mobile}`;
    if (await isThrottled(db, LOGIN_POLICY, subject)) {
      throw new ApiError(ApiCode.TOO_MANY_REQUESTS, Msg.tooManyRequests);
    }
    const user = await findUserByMobile(db, body.mobile);
    const valid = await verifyPassword(body.password, user?.password_hash ?? (await getDummyHash()));
    if (!user || !valid) {
      await recordFailure(db, LOGIN_POLICY, subject);
      throw new ApiError(ApiCode.BAD_REQUEST, Msg.loginFailed);
    }
    await clearFailures(db, LOGIN_POLICY, subject);
    const { token } = await issueToken(db, user.id, app.config.tokenTtlSeconds);
    const data: LoginData = {
      token,
      expiresIn: app.config.tokenTtlSeconds,
      userInfo: toUserInfo(user, await unreadCount(db, user.id)),
    };
    return ok(data, Msg.loggedIn);
  });

  // getAuthInfo is served by the KYC routes (issue 5: user info with the KYC details).
  // The legacy client's method for logout is not shown (spec 01 §7): accept GET and POST.
  app.route({
    method: ['GET', 'POST'],
    url: AccountPaths.logout,
    preHandler: app.requireUser,
    handler: async (request) => {
      if (request.tokenHash) await revokeToken(db, request.tokenHash);
      return ok(null, Msg.loggedOut);
    },
  });
}
