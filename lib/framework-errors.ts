/**
 * Answers of the requests Fastify refuses before it routes them (its `frameworkErrors` option): a path whose
 * percent-encoding is not UTF-8 (`FST_ERR_BAD_URL`, e.g. `/%E0`) and a route parameter longer than `maxParamLength`
 * (100 characters, `FST_ERR_MAX_PARAM_LENGTH`, HTTP 414). Fastify's own answer is an English JSON body; ours is the
 * envelope with 请求参数错误 (spec 01 §7/§8, the 4xx in Chinese every bad input gets, decision 021).
 *
 * Fastify runs no hook for these requests (no onRequest, no onSend), so the answer sets what the hooks would have:
 * `Cache-Control: no-store` here, the gateway's security headers in server/http/framework-errors.ts.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiCode, fail } from '../contract/envelope.ts';
import { Msg } from '../contract/messages.ts';

/** The HTTP status of a framework error: 414 for an over-long parameter, else 400. */
export function frameworkErrorStatus(error: FastifyError): number {
  return error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
}

/**
 * The platform's `frameworkErrors`: HTTP 400 (414 for an over-long parameter) with `{code: 400, msg: 请求参数错误,
 * data: null}` and `no-store`.
 */
export function envelopeFrameworkError(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  return reply
    .code(frameworkErrorStatus(error))
    .header('cache-control', 'no-store')
    .send(fail(ApiCode.BAD_REQUEST, Msg.badRequest));
}
