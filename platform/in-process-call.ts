/**
 * The platform's side of a page call without HTTP (contract/platform-call.ts): the call goes through the platform's
 * own Fastify routing with `inject` (light-my-request), so hooks, authentication, body limits, rate limits and the
 * access line apply as to a call that came over the loopback socket. The request looks like one from the gateway
 * on loopback: remote address 127.0.0.1 (whose X-Forwarded-For the platform trusts, as over HTTP) and the Host of
 * the platform's loopback URL. Used by the worker thread (platform/worker.ts) and by the inline platform.
 */
import type { FastifyInstance } from 'fastify';
import type { PlatformCallAnswer, PlatformCallRequest } from '../contract/platform-call.ts';

/**
 * Answers `request` through `app`'s routes.
 * @param host the Host header the call would have carried over HTTP (`127.0.0.1:41234`)
 * @throws when `app` cannot take requests any more (closed)
 */
export async function answerInProcess(
  app: FastifyInstance,
  request: PlatformCallRequest,
  host: string,
): Promise<PlatformCallAnswer> {
  const res = await app.inject({
    method: request.method,
    url: request.url,
    // no user-agent of light-my-request's own: an HTTP call of the gateway sends none either
    headers: { host, 'user-agent': undefined, ...request.headers },
    ...(request.body !== undefined ? { payload: request.body } : {}),
    remoteAddress: '127.0.0.1',
  });
  const type = res.headers['content-type'];
  return { status: res.statusCode, contentType: typeof type === 'string' ? type : '', body: res.body };
}
