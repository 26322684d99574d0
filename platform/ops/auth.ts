/**
 * Operator authentication and roles of the console (docs/decisions/011-kyc-review.md, 015-operator-console-roles.md):
 * the `requireOperator` preHandler (a missing, unknown, expired or revoked operator token, or a disabled operator,
 * answers envelope 408), `requireRole`, which each area's ops routes call (403 无权访问 without the role), and
 * the queue registry `app.opsQueues`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiCode } from '../../contract/envelope.ts';
import { Msg } from '../../contract/messages.ts';
import { OpsMsg, type OpsRole } from '../../contract/ops.ts';
import { ApiError } from '../core/errors.ts';
import { bearerFrom, resolveToken } from '../core/tokens.ts';
import type { OperatorRow } from './schema.ts';
import { OpsQueues } from './queues.ts';
import { rolesOf } from './service.ts';

/** A logged-in operator with the roles they hold. */
export type ConsoleOperator = OperatorRow & { roles: OpsRole[] };

declare module 'fastify' {
  interface FastifyRequest {
    /** The operator, once `requireOperator` ran. */
    operator: ConsoleOperator | null;
    operatorTokenHash: string | null;
  }
  interface FastifyInstance {
    /** preHandler of the /api/ops calls (except login): envelope 408 unless the operator token is live. */
    requireOperator(request: FastifyRequest): Promise<void>;
    /** The queues the areas plugged into the console. */
    opsQueues: OpsQueues;
  }
}

/**
 * The operator of a call guarded by `requireOperator`, if they hold `role`.
 * @throws ApiError 408 when no operator is logged in; ApiError 403 (HTTP 403) 无权访问 without the role
 */
export function requireRole(request: FastifyRequest, role: OpsRole): ConsoleOperator {
  const operator = currentOperator(request);
  if (!operator.roles.includes(role)) throw new ApiError(ApiCode.FORBIDDEN, OpsMsg.forbidden, 403);
  return operator;
}

/** The operator of a call guarded by `requireOperator`. @throws ApiError 408 when none is logged in */
export function currentOperator(request: FastifyRequest): ConsoleOperator {
  if (!request.operator) throw new ApiError(ApiCode.SESSION_EXPIRED, Msg.sessionExpired);
  return request.operator;
}

/** Registers `request.operator`, `app.requireOperator` and `app.opsQueues`; needs the services plugin. */
export const operatorAuthPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('operator', null);
    app.decorateRequest('operatorTokenHash', null);
    app.decorate('opsQueues', new OpsQueues());
    app.decorate('requireOperator', async (request: FastifyRequest) => {
      const token = bearerFrom(request.headers.authorization);
      const found = token ? await resolveToken(app.pdb.db, 'operator', token) : null;
      if (!found) throw new ApiError(ApiCode.SESSION_EXPIRED, Msg.sessionExpired);
      request.operator = { ...found.owner, roles: await rolesOf(app.pdb.db, found.owner.id) };
      request.operatorTokenHash = found.tokenHash;
    });
  },
  { name: 'cunzheng-operator-auth', dependencies: ['cunzheng-services'] },
);
