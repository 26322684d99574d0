/**
 * The gateway's side of talking to the upstream API (spec 01 §8 "connection failed"): the readiness probe, the
 * headers a proxied request carries, and how a failed proxy attempt is recognised and answered (502, or 504 when the
 * upstream stayed silent past UPSTREAM_TIMEOUT_MS). Used by server/app.ts.
 */
import { injectTraceContext } from '../../lib/tracing.ts';
import type { FastifyReply, FastifyRequest, RawServerBase, RouteGenericInterface } from 'fastify';
import type { ApiEnvelope } from '../../contract/envelope.ts';
import { Msg } from '../../contract/messages.ts';
import type { GatewayConfig } from '../config/server.ts';

/** The connection-failure envelope the gateway answers with when the upstream cannot be reached (spec 01 §8). */
export const connectionFailedEnvelope: ApiEnvelope<null> = Object.freeze({
  code: 502,
  msg: Msg.connectionFailed,
  data: null,
});

/** Path the readiness probe asks the upstream for (the platform's health route, if it has one). */
export const UPSTREAM_HEALTH_PATH = '/api/healthz';

/**
 * Probes the upstream: GET `${upstreamUrl}/api/healthz` within `timeoutMs`.
 * Ready when it answers 2xx, or 404/405 (an upstream without a health route that still speaks HTTP: a TCP connect
 * plus a parsed response proves more than a bare connect). Not ready on 5xx, timeouts and connection errors.
 *
 * @returns `{ ready, status }`: `status` is the upstream HTTP status, or null when there was no HTTP answer.
 */
export async function probeUpstream(
  upstreamUrl: string,
  timeoutMs = 2000,
): Promise<{ ready: boolean; status: number | null }> {
  try {
    const res = await fetch(`${upstreamUrl}${UPSTREAM_HEALTH_PATH}`, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/json' },
    });
    await res.body?.cancel();
    const ready = (res.status >= 200 && res.status < 300) || res.status === 404 || res.status === 405;
    return { ready, status: res.status };
  } catch {
    return { ready: false, status: null };
  }
}

/**
 * Adds X-Forwarded-For/-Proto/-Host and the request's id (X-Request-Id) to a proxied request and drops the browser's
 * Cookie header. The client's own X-Forwarded-For is kept (and appended
 * to) only when TRUST_PROXY says the hop in front of us is ours; otherwise it could be forged, so it is replaced.
 */
export function forwardedHeaders(
  request: FastifyRequest<RouteGenericInterface, RawServerBase>,
  headers: Record<string, string | string[] | undefined>,
  trustProxy: GatewayConfig['trustProxy'],
): Record<string, string | string[] | undefined> {
  const peer = request.raw.socket.remoteAddress ?? '';
  const incoming = headers['x-forwarded-for'];
  const chain = Array.isArray(incoming) ? incoming.join(', ') : incoming;
  const trusted = trustProxy !== false && !(Array.isArray(trustProxy) && trustProxy.length === 0);
  // The gateway's own cookies (the sealed session, the CSRF token) are none of the upstream's business. `Expect`
  // is answered here (Node sends 100 Continue to the client); undici refuses to forward it.
  const { cookie: _cookie, expect: _expect, traceparent: _tp, tracestate: _ts, ...rest } = headers;
  const forwarded: Record<string, string | string[] | undefined> = {
    ...rest,
    'x-forwarded-for': trusted && chain ? `${chain}, ${peer}` : peer,
    'x-forwarded-proto': request.protocol,
    'x-forwarded-host': request.host,
    // the same id in the platform's log lines (lib/request-id.ts)
    'x-request-id': request.id,
  };
  // the platform's spans continue this request's trace (none when traces are off; a client's own is not passed on)
  injectTraceContext(forwarded);
  return forwarded;
}

/** Error codes meaning "could not talk to the upstream" (Node net errors, undici, @fastify/reply-from). */
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EPIPE',
]);

/** True when `error` (or its cause) says the upstream could not be reached or dropped the connection. */
export function isUpstreamConnectionError(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; depth++) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (
      CONNECTION_ERROR_CODES.has(code) ||
      code.startsWith('UND_ERR_') ||
      code.startsWith('FST_REPLY_FROM_')
    ) {
      return true;
    }
    e = e.cause as typeof e;
  }
  return false;
}

/** Answers a failed proxy attempt with the 502 envelope; closes the connection if the body was not read. */
export function replyConnectionFailed(
  reply: FastifyReply<RouteGenericInterface, RawServerBase>,
  error: Error,
): void {
  const timedOut = isUpstreamTimeout(error);
  reply.log.warn({ err: error }, timedOut ? 'upstream timed out' : 'upstream unreachable');
  if (!reply.request.raw.complete) reply.header('connection', 'close');
  void reply
    .code(timedOut ? 504 : 502)
    .type('application/json; charset=utf-8')
    .send(timedOut ? { ...connectionFailedEnvelope, code: 504 } : connectionFailedEnvelope);
}

/** True when `error` (or its cause) is the upstream staying silent past UPSTREAM_TIMEOUT_MS. */
export function isUpstreamTimeout(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; depth++) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (
      code === 'UND_ERR_HEADERS_TIMEOUT' ||
      code === 'UND_ERR_BODY_TIMEOUT' ||
      code === 'FST_REPLY_FROM_GATEWAY_TIMEOUT'
    )
      return true;
    e = e.cause as typeof e;
  }
  return false;
}
