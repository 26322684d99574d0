/**
 * Account settings calls (issue 4; spec 01 §2.5, §5, §7): `POST /api/user/editPassword {oldPassword, password,
 * confirmPassword}` and `POST /api/user/editExtractCode {extractCode}`.
 *
 * A password change checks the old password (原密码错误; failures count against the login throttle), stores the new
 * hash, revokes every token of the user (all sessions, this one included: the next call answers 408) and writes a
 * notification, all in one transaction. The extraction code is replaced at once: checkNo compares against the
 * stored value, so the old code stops working with the commit.
 */
import type { FastifyInstance } from 'fastify';
import {
  AccountAreaMsg,
  AccountAreaPaths,
  ApiCode,
  EditPasswordBody,
  ExtractCodeBody,
  Msg,
  ok,
} from '../../contract/index.ts';
import { LOGIN_POLICY, isThrottled, recordFailure } from '../core/attempts.ts';
import { ApiError, parseInput } from '../core/errors.ts';
import { notify } from '../notification/notifications.ts';
import { currentUser } from './auth.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { revokeAllTokens } from '../core/tokens.ts';

/** Registers the settings routes (needs the services and auth plugins). */
export async function settingsRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.pdb;

  app.post(AccountAreaPaths.editPassword, { preHandler: app.requireUser }, async (request) => {
    const user = currentUser(request);
    const body = parseInput(EditPasswordBody, request.body);
    // Guessing the old password through this call is throttled like login.
    const subject = `${request.ip}|${user.mobile}`;
    if (await isThrottled(db, LOGIN_POLICY, subject))
      throw new ApiError(ApiCode.TOO_MANY_REQUESTS, Msg.tooManyRequests);
    if (!(await verifyPassword(body.oldPassword, user.password_hash))) {
      await recordFailure(db, LOGIN_POLICY, subject);
      throw new ApiError(ApiCode.BAD_REQUEST, AccountAreaMsg.oldPasswordWrong);
    }
    const passwordHash = await hashPassword(body.password, app.config.scryptCost);
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', user.id).execute();
      await revokeAllTokens(trx, 'user', user.id);
      await notify(trx, user.id, AccountAreaMsg.passwordChangedNews);
    });
    request.log.info({ userId: user.id }, 'password changed; all tokens revoked');
    return ok(null, Msg.passwordChanged);
  });

  app.post(AccountAreaPaths.editExtractCode, { preHandler: app.requireUser }, async (request) => {
    const user = currentUser(request);
    const { extractCode } = parseInput(ExtractCodeBody, request.body);
    await db.updateTable('users').set({ extract_code: extractCode }).where('id', '=', user.id).execute();
    request.log.info({ userId: user.id }, 'extraction code changed');
    return ok({ extractCode }, Msg.modified);
  });
}
