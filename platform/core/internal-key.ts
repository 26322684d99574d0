/**
 * The guard of the platform's internal calls (`/api/internal/*`: the gateway's jobs and its PDF signing): the
 * request must carry the internal key (INTERNAL_API_KEY, or the embedded platform's key file) in `x-internal-key`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiCode } from '../../contract/envelope.ts';
import { Msg } from '../../contract/messages.ts';
import { safeEqual } from './crypto.ts';
import { ApiError } from './errors.ts';

/**
 * A preHandler that lets only holders of `app.internalKey` through (constant-time comparison).
 * @throws ApiError 403 (FORBIDDEN, Msg.badRequest) when the header is missing or wrong
 */
export function internalOnly(app: FastifyInstance) {
  return async function requireInternalKey(request: FastifyRequest): Promise<void> {
    const given = request.headers['x-internal-key'];
    if (typeof given !== 'string' || !safeEqual(given, app.internalKey))
      throw new ApiError(ApiCode.FORBIDDEN, Msg.badRequest, 403);
  };
}
