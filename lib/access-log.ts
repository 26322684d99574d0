/**
 * The access log: one short line per answered request (`{"msg":"request","method","url","status","ms"}` on the
 * request's child logger, so with its `reqId`), instead of Fastify's two lines ("incoming request", "request
 * completed") per request in each of gateway and platform. The URL is redacted (log-redact.ts). ACCESS_LOG chooses
 * what is logged: `all` (default), `errors` (answers with status ≥ 400 only) or `off`; errors thrown by handlers are
 * logged by Fastify as before either way. The embedded platform logs `errors` only, as the gateway's line already
 * covers each request. Nothing here does I/O beyond the logger, so the gateway imports it without the platform.
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { z } from 'zod';
import { redactUrl } from './log-redact.ts';

/** Which answers get an access line. */
export const ACCESS_LOG_MODES = ['all', 'errors', 'off'] as const;
export type AccessLogMode = (typeof ACCESS_LOG_MODES)[number];

/** The ACCESS_LOG variable (empty means unset → `all`). */
export const AccessLogSchema = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim().toLowerCase() || undefined : v),
  z
    .enum(ACCESS_LOG_MODES, { error: `ACCESS_LOG must be one of ${ACCESS_LOG_MODES.join(', ')}` })
    .default('all'),
);

/**
 * Fastify's log controller with the access line in place of its two request lines: `incomingRequest` logs nothing,
 * `requestCompleted` logs the line (a thrown error at `error` with `err`, else status ≥ 500 at `error`, the rest at
 * `info`: a 4xx is the client's business, such as a bot's 404), as `mode` allows. Fastify's other lines (errors of
 * the default error handler, stream errors, route not found, closing) are its own, unchanged. Pass as
 * `Fastify({ logController })`.
 */
export class AccessLogController extends LogController {
  private readonly mode: AccessLogMode;
  constructor(mode: AccessLogMode) {
    super();
    this.mode = mode;
  }

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const status = reply.statusCode;
    if (this.mode === 'off' || (this.mode === 'errors' && status < 400 && !error)) return;
    const line = {
      method: request.method,
      url: redactUrl(request.url),
      status,
      ms: Math.round(reply.elapsedTime),
    };
    if (error) request.log.error({ ...line, err: error }, 'request');
    else request.log[status >= 500 ? 'error' : 'info'](line, 'request');
  }
}
