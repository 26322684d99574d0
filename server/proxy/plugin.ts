/**
 * `/api/*` to the upstream (@fastify/http-proxy and its options; decision 052), in a scope of its own
 * without compression: binary up- and downloads stream through untouched, bodies unparsed and unlimited (the upstream
 * enforces MAX_UPLOAD_BYTES). A small request body is forwarded as its exact bytes, a larger one streams
 * (server/proxy/body.ts); an answer that declares at most 128 KiB comes back whole, a larger one streams
 * (server/proxy/answer.ts). A connection failure answers the spec's envelope (server/proxy/upstream.ts).
 */
import httpProxy from '@fastify/http-proxy';
import type { FastifyInstance } from 'fastify';
import { ApiCode, fail } from '../../contract/envelope.ts';
import { Msg } from '../../contract/messages.ts';
import { trimJsonHeaders } from '../pages/asset-headers.ts';
import { relayUpstreamAnswer } from './answer.ts';
import { declaresOversizeBody, forwardProxied, prepareProxyBody } from './body.ts';
import { forwardedHeaders, isUpstreamConnectionError, replyConnectionFailed } from './upstream.ts';

/** Options of {@link apiProxy}. */
export interface ApiProxyOptions {
  /** Base URL of the upstream API, without a trailing slash; its path (if any) prefixes `/api`. */
  upstreamUrl: string;
  /** UPSTREAM_TIMEOUT_MS: how long a silent upstream may keep a request, in milliseconds. */
  upstreamTimeoutMs: number;
  /** TRUST_PROXY as parsed: whose X-Forwarded-* headers are passed on (server/proxy/upstream.ts). */
  trustProxy: Parameters<typeof forwardedHeaders>[2];
}

/** The `/api/*` scope; register it with `app.register(apiProxy, options)`. */
export async function apiProxy(api: FastifyInstance, opts: ApiProxyOptions): Promise<void> {
  const upstreamPath = new URL(opts.upstreamUrl).pathname.replace(/\/+$/, '');
  // When the upstream refuses a request that has a body, undici destroys the body stream with the connect error,
  // which reaches Fastify as a request error before the proxy's onError: answer it with the same envelope.
  api.setErrorHandler((error: Error & { code?: string; statusCode?: number }, _request, reply) => {
    if (isUpstreamConnectionError(error)) return replyConnectionFailed(reply, error);
    reply.log.error({ err: error }, 'api proxy error');
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    return reply.code(status).send(error);
  });
  api.addHook('onSend', trimJsonHeaders); // an envelope is not a document
  // A small body is read whole; a larger one goes as a guarded copy undici may destroy on an early answer.
  api.addHook('preHandler', prepareProxyBody);
  // A JSON or form body the platform would refuse by its length is refused here, before a byte is forwarded.
  api.addHook('onRequest', async (request, reply) => {
    if (declaresOversizeBody(request.headers)) {
      return reply.code(200).send(fail(ApiCode.PAYLOAD_TOO_LARGE, Msg.bodyTooLarge));
    }
  });
  await api.register(httpProxy, {
    upstream: opts.upstreamUrl,
    prefix: '/api',
    rewritePrefix: `${upstreamPath}/api`,
    handler: forwardProxied,
    disableRequestLogging: true, // reply-from's two info lines per call; the access line says it all
    undici: {
      connections: 256,
      pipelining: 1,
      connectTimeout: 5_000,
      // Both refresh while bytes flow (undici refreshes the headers timer on every body chunk it writes): they
      // bound a silent upstream, not a long upload (UPSTREAM_TIMEOUT_MS).
      headersTimeout: opts.upstreamTimeoutMs,
      bodyTimeout: opts.upstreamTimeoutMs,
    },
    replyOptions: {
      rewriteRequestHeaders: (request, headers) => forwardedHeaders(request, headers, opts.trustProxy),
      onError: (reply, { error }) => replyConnectionFailed(reply, error),
      // every answer passes through untouched; saved evidence reaches the PDF renderer as a platform event
      // (server/pdf/plugin.ts; decision 059), never by reading answers
      onResponse: (_request, reply, res) => relayUpstreamAnswer(reply, res),
    },
  });
}
