/**
 * Account settings calls (contract `AccountPaths`; spec 01 §2.5, §5, §7): `POST /api/user/editPassword
 * {oldPassword, password, confirmPassword}` and `POST /api/user/editExtractCode {extractCode}`.
 *
 * A password change checks the old password (原密码错误; failures count against the login throttle), stores the new
 * hash, revokes every token of the user (all sessions, this one included: the next call answers 408) and writes a
 * notification, all in one transaction. The extraction code is replaced at once. The flows are in service.ts.
 */
import type { FastifyInstance } from 'fastify';
import { AccountMsg, AccountPaths, EditPasswordBody, ExtractCodeBody } from '../../contract/account.ts';
import { ok } from '../../contract/envelope.ts';
import { Msg } from '../../contract/messages.ts';
import { parseInput } from '../core/errors.ts';
import { currentUser } from './auth.ts';
import { accountDeps, changePassword, setExtractCode } from './service.ts';

/** Registers the settings routes (needs the services and auth plugins). */
export async function settingsRoutes(app: FastifyInstance): Promise<void> {
  const deps = accountDeps(app);

  app.post(AccountPaths.editPassword, { preHandler: app.requireUser }, async (request) => {
    const user = currentUser(request);
    await changePassword(deps, user, parseInput(EditPasswordBody, request.body), request.ip);
    request.log.info({ userId: user.id }, 'password changed; all tokens revoked');
    return ok(null, AccountMsg.passwordChanged);
  });

  app.post(AccountPaths.editExtractCode, { preHandler: app.requireUser }, async (request) => {
    const user = currentUser(request);
    const { extractCode } = parseInput(ExtractCodeBody, request.body);
    await setExtractCode(app.pdb.db, user.id, extractCode ?? ''); // required: never blank here
    request.log.info({ userId: user.id }, 'extraction code changed');
    return ok({ extractCode }, Msg.modified);
  });
}
