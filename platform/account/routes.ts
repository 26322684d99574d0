/**
 * Account calls (contract `AccountPaths`; spec 01 §7, spec 02 §7 Session): image captcha, SMS codes, register, reset
 * password, login, logout. Bodies are form-encoded or JSON. Every answer is an envelope with HTTP 200; failures carry
 * code 400 (bad input or wrong credentials), 408 (log in again) or 429. The flows are in service.ts; getAuthInfo is
 * served by the KYC routes (the user info with the KYC details).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  AccountMsg,
  AccountPaths,
  LoginBody,
  RegisterBody,
  ResetPasswordBody,
  SendSmsBody,
} from '../../contract/account.ts';
import { ok } from '../../contract/envelope.ts';
import { parseInput } from '../core/errors.ts';
import { createCaptcha } from './captcha.ts';
import { accountDeps, consumeCaptchaOf, login, register, resetPassword, sendSms } from './service.ts';
import type { SmsPurpose } from './sms.ts';
import { revokeToken } from '../core/tokens.ts';

/** Registers the account routes on `app` (needs the services and auth plugins). */
export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.pdb;
  const deps = accountDeps(app);

  app.post(AccountPaths.imgCode, async () => ok(await createCaptcha(db)));

  async function sms(request: FastifyRequest, purpose: SmsPurpose) {
    const raw = (request.body ?? {}) as Record<string, unknown>;
    const captchaOk = await consumeCaptchaOf(db, raw);
    await sendSms(deps, parseInput(SendSmsBody, raw), captchaOk, purpose, request.ip);
    return ok(null, AccountMsg.smsSent);
  }
  app.post(AccountPaths.sendSms, (request) => sms(request, 'register'));
  app.post(AccountPaths.sendResetSms, (request) => sms(request, 'reset'));

  app.post(AccountPaths.register, async (request) => {
    const id = await register(deps, parseInput(RegisterBody, request.body));
    request.log.info({ userId: id }, 'user registered');
    return ok(null, AccountMsg.registered);
  });

  app.post(AccountPaths.resetPassword, async (request) => {
    const id = await resetPassword(deps, parseInput(ResetPasswordBody, request.body));
    request.log.info({ userId: id }, 'password reset; tokens revoked');
    return ok(null, AccountMsg.passwordReset);
  });

  app.post(AccountPaths.login, async (request) =>
    ok(await login(deps, parseInput(LoginBody, request.body), request.ip), AccountMsg.loggedIn),
  );

  // The legacy client's method for logout is not shown (spec 01 §7): accept GET and POST.
  app.route({
    method: ['GET', 'POST'],
    url: AccountPaths.logout,
    preHandler: app.requireUser,
    handler: async (request) => {
      if (request.tokenHash) await revokeToken(db, 'user', request.tokenHash);
      return ok(null, AccountMsg.loggedOut);
    },
  });
}
