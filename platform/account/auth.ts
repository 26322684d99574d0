/**
 * Authentication plugin: reads `Authorization: Bearer <token>` and decorates `request.user`. `app.requireUser` is the
 * preHandler of login-required calls: a missing, unknown, expired or revoked token answers HTTP 200 with
 * `{code: 408, msg: Msg.sessionExpired, data: null}` (spec 01 §8).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiCode } from '../../contract/envelope.ts';
import { KycMsg } from '../../contract/kyc.ts';
import { Msg } from '../../contract/messages.ts';
import { ApiError } from '../core/errors.ts';
import type { UserRow } from './schema.ts';
import { bearerFrom, resolveToken } from '../core/tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller, once `requireUser` or `identify` ran and the token was live; otherwise null. */
    user: UserRow | null;
    /** SHA-256 of the caller's token (for logout). */
    tokenHash: string | null;
  }
  interface FastifyInstance {
    /** preHandler: rejects with envelope 408 unless the bearer token is live. */
    requireUser(request: FastifyRequest): Promise<void>;
    /**
     * preHandler after `requireUser`: rejects with envelope 412 and the gate message unless the caller passed
     * real-name verification (userStatus '3'; spec 02 §4). A multipart upload's connection is closed after the
     * answer instead of draining the body.
     */
    requireVerified(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /** Sets `request.user` when a live token is present; never rejects (public calls with an optional token). */
    identify(request: FastifyRequest): Promise<void>;
  }
}

/** The caller of a call guarded by `requireUser`. @throws ApiError 408 when called on an anonymous request. */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.user) throw new ApiError(ApiCode.SESSION_EXPIRED, Msg.sessionExpired);
  return request.user;
}

/** Registers `request.user`, `app.identify` and `app.requireUser`; needs the services plugin (`app.pdb`). */
export const authPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('user', null);
    app.decorateRequest('tokenHash', null);
    async function identify(request: FastifyRequest): Promise<void> {
      const token = bearerFrom(request.headers.authorization);
      if (!token) return;
      const found = await resolveToken(app.pdb.db, 'user', token);
      if (found) {
        request.user = found.owner;
        request.tokenHash = found.tokenHash;
      }
    }
    app.decorate('identify', identify);
    app.decorate('requireUser', async (request: FastifyRequest) => {
      await identify(request);
      if (!request.user) throw new ApiError(ApiCode.SESSION_EXPIRED, Msg.sessionExpired);
    });
    app.decorate('requireVerified', async (request: FastifyRequest, reply: FastifyReply) => {
      if (currentUser(request).user_status === '3') return;
      if (request.isMultipart()) reply.header('connection', 'close');
      throw new ApiError(ApiCode.KYC_REQUIRED, KycMsg.kycRequired);
    });
  },
  { name: 'cunzheng-auth', dependencies: ['cunzheng-services'] },
);
