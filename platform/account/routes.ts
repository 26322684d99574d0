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
import { ApiError, parseInput } from '../core/errors.ts';
import { issueToken, revokeAllTokens, revokeToken, tokenTtl } from '../core/tokens.ts';
import { consumeCaptcha, createCaptcha } from './captcha.ts';
import { hashPassword } from './passwords.ts';
import { passwordLogin } from './password-login.ts';
import { sendSmsCode, verifySmsCode, type SmsPurpose } from './sms.ts';
import { createUser, findUserByMobile, toUserInfo } from './users.ts';

/** Registers the account routes on `app` (needs the services and auth plugins). */
export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.pdb;
  const cost = app.config.scryptCost;
  const login = passwordLogin(db, cost);

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
      await revokeAllTokens(trx, 'user', user.id);
    });
    request.log.info({ userId: user.id }, 'password reset; tokens revoked');
    return ok(null, Msg.passwordReset);
  });

  app.post(AccountPaths.login, async (request) => {
    const body = parseInput(LoginBody, request.body);
    const user = await login({
      subject: `${request.ip}|${body.mobile}`,
      find: () => findUserByMobile(db, body.mobile),
      password: body.password,
      failMsg: Msg.loginFailed,
    });
    const { token } = await issueToken(db, 'user', user.id, tokenTtl('user', app.config));
    const data: LoginData = {
      token,
      expiresIn: tokenTtl('user', app.config),
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
      if (request.tokenHash) await revokeToken(db, 'user', request.tokenHash);
      return ok(null, Msg.loggedOut);
    },
  });
}
