/**
 * The operator console's own calls (contract `OpsPaths`; docs/decisions/015-operator-console-roles.md): login and
 * logout with operator accounts (the user login's throttle and password check), who is logged in, the home with
 * each queue the operator's roles open, and the audit log of those areas (all areas to an admin). Each area's
 * queue has its own calls in `platform/<area>/ops-routes.ts` (the KYC review: platform/kyc/ops-routes.ts), all
 * registered in one list by platform/app.ts (decision 060).
 */
import type { FastifyInstance } from 'fastify';
import { AccountMsg } from '../../contract/account.ts';
import { ok } from '../../contract/envelope.ts';
import {
  OpsLoginBody,
  type OpsLoginData,
  OpsMsg,
  type OpsOperator,
  OpsPageQuery,
  OpsPaths,
} from '../../contract/ops.ts';
import { passwordLogin } from '../account/password-login.ts';
import { parseInput } from '../core/errors.ts';
import { issueToken, revokeToken, tokenTtl } from '../core/tokens.ts';
import { listAudit } from './audit.ts';
import { currentOperator } from './auth.ts';
import { consoleHome, findOperator, rolesOf } from './service.ts';

/** Registers the console's calls (needs services and the operator auth plugin). */
export async function opsRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.pdb;
  const login = passwordLogin(db, app.config.scryptCost);
  const guarded = { preHandler: app.requireOperator };

  app.post(OpsPaths.login, async (request) => {
    const body = parseInput(OpsLoginBody, request.body);
    const op = await login({
      subject: `ops|${request.ip}|${body.username}`,
      find: () => findOperator(db, body.username),
      password: body.password,
      failMsg: OpsMsg.loginFailed,
      usable: (o) => !o.disabled,
    });
    const ttl = tokenTtl('operator', app.config);
    const data: OpsLoginData = {
      token: (await issueToken(db, 'operator', op.id, ttl)).token,
      expiresIn: ttl,
      operator: { username: op.username, roles: await rolesOf(db, op.id) },
    };
    request.log.info({ operator: op.username }, 'operator logged in');
    return ok(data, AccountMsg.loggedIn);
  });

  app.post(OpsPaths.logout, guarded, async (request) => {
    if (request.operatorTokenHash) await revokeToken(db, 'operator', request.operatorTokenHash);
    return ok(null, AccountMsg.loggedOut);
  });

  app.get(OpsPaths.me, guarded, async (request) => {
    const { username, roles } = currentOperator(request);
    const data: OpsOperator = { username, roles };
    return ok(data);
  });

  app.get(OpsPaths.home, guarded, async (request) =>
    ok(await consoleHome(app.opsQueues, currentOperator(request))),
  );

  app.get(OpsPaths.audit, guarded, async (request) => {
    const { page } = parseInput(OpsPageQuery, request.query);
    return ok(await listAudit(db, app.opsQueues.auditAreasFor(currentOperator(request).roles), page));
  });
}
