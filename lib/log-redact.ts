/**
 * Keeps secrets out of the request logs of the gateway and the platform (docs/decisions/025-secrets-sms.md): the
 * URL in every Fastify request log line (`req` serializer of the per-request child logger) has the values of
 * signed and token-bearing query parameters (`sig`, `token`, `csrf`, extraction codes, batch items…) replaced by
 * `[REDACTED]`, and the token segment of the mobile certificate and preview paths too. Nothing here does I/O, so the
 * gateway imports it without loading the platform.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** What a redacted value is replaced with. */
export const REDACTED = '[REDACTED]';

/**
 * Query parameters (compared case-insensitively) whose values are secrets or sign something: signed file URLs
 * (`exp`/`sig`), Alipay's `sign`, bearer and view tokens, CSRF tokens, extraction and SMS codes, the batch
 * download's signed `items`.
 */
export const SECRET_QUERY_KEYS: ReadonlySet<string> = new Set([
  'sig',
  'sign',
  'signature',
  'token',
  'viewtoken',
  'access_token',
  'csrf',
  '_csrf',
  'checkno',
  'extractcode',
  'code',
  'smscode',
  'imgcode',
  'password',
  'items',
  'key',
  'certify_id',
]);

/** Paths whose last segment is a token (spec 01 §2.3 mobile certificate and preview links). */
const TOKEN_PATHS = [
  /^(\/mobile\/attestation\/[^/]+\/)[^/?]+/i,
  /^(\/mobile\/preview(?:Doc|Progress)?\/)[^/?]+/i,
];

/**
 * `url` (a request target: path and optional query) with the values of {@link SECRET_QUERY_KEYS} and the mobile
 * link tokens replaced by {@link REDACTED}; other parameters and their order are kept. Malformed input is never
 * thrown on: a query that cannot be split is dropped whole.
 */
export function redactUrl(url: string): string {
  if (typeof url !== 'string') return '';
  const q = url.indexOf('?');
  let pathPart = q === -1 ? url : url.slice(0, q);
  for (const re of TOKEN_PATHS) pathPart = pathPart.replace(re, `$1${REDACTED}`);
  if (q === -1) return pathPart;
  const query = url.slice(q + 1);
  const parts = query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const rawKey = eq === -1 ? pair : pair.slice(0, eq);
    let key: string;
    try {
      key = decodeURIComponent(rawKey.replace(/\+/g, ' ')).toLowerCase();
    } catch {
      return REDACTED;
    }
    return SECRET_QUERY_KEYS.has(key) && eq !== -1 ? `${rawKey}=${REDACTED}` : pair;
  });
  return `${pathPart}?${parts.join('&')}`;
}

/** The request fields logged per request: Fastify's default `req` serializer with the URL redacted. */
export function redactedRequest(req: FastifyRequest): Record<string, unknown> {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/**
 * A Fastify child-logger factory (`app.setChildLoggerFactory(redactingChildLoggerFactory)`, right after creating
 * the instance) whose request loggers serialize `req` with {@link redactedRequest}, so the "incoming request" line
 * and every error line carrying the request show no secret.
 */
export const redactingChildLoggerFactory: FastifyInstance['childLoggerFactory'] = (logger, bindings, opts) =>
  logger.child(bindings, { ...opts, serializers: { ...opts.serializers, req: redactedRequest } });
