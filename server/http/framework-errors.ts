/**
 * The gateway's answer to a request Fastify refuses before routing (a path whose percent-encoding is not UTF-8, a
 * route parameter over 100 characters: lib/framework-errors.ts). Under `/api/` it is the platform's
 * envelope (请求参数错误, HTTP 400/414), for an API client; anywhere else a short page in Chinese with a link home,
 * since a browser asked for a page. Fastify runs no hook for these requests, so the answer carries the headers the
 * hooks would have set: X-Request-Id, `no-store`, and security headers for a page with no resources.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { Msg } from '../../contract/messages.ts';
import { envelopeFrameworkError, frameworkErrorStatus } from '../../lib/framework-errors.ts';
import { REQUEST_ID_HEADER } from '../../lib/request-id.ts';
import { plainPageHtml } from './plain-page.ts';
import { plainPageHeaders } from './security-headers.ts';

/** The page of a bad URL, its home link under `basePath` ('' or e.g. `/cunzheng`). */
export function badUrlHtml(basePath: string): string {
  return plainPageHtml({
    title: Msg.badRequest,
    heading: Msg.badRequest,
    text: '链接地址无效，请检查后重试。',
    basePath,
  });
}

/**
 * Builds the gateway's `frameworkErrors` handler.
 * @param basePath the gateway's BASE_PATH ('' when none); the request's URL has it removed already
 * @param hsts whether answers carry Strict-Transport-Security (behind TLS)
 */
export function gatewayFrameworkErrors(
  basePath: string,
  hsts: boolean,
): (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => FastifyReply {
  const headers = plainPageHeaders(hsts);
  const page = badUrlHtml(basePath);
  return (error, request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    if (/^\/api(\/|$)/.test(request.url)) return envelopeFrameworkError(error, request, reply);
    for (const [name, value] of headers) reply.header(name, value);
    return reply
      .code(frameworkErrorStatus(error))
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(page);
  };
}
