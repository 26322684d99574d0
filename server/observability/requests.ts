/**
 * What every request of the gateway leaves behind (decision 040 "Request ids", decision 044): one id per request
 * (X-Request-Id taken or made, lib/request-id.ts) in every log line, passed to the upstream and answered; one
 * redacted access line (ACCESS_LOG, lib/access-log.ts; no signed or token-bearing URL, lib/log-redact.ts); a span when
 * OTEL_* asks for traces (lib/tracing.ts); and the Prometheus counts (server/observability/metrics.ts).
 */
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { AccessLogController, type AccessLogMode } from '../../lib/access-log.ts';
import { redactingChildLoggerFactory } from '../../lib/log-redact.ts';
import { REQUEST_ID_HEADER, requestIdOf } from '../../lib/request-id.ts';
import { registerRequestTracing } from '../../lib/tracing.ts';
import type { GatewayMetrics } from './metrics.ts';

/** Fastify's options for request ids and access lines (`accessLog`: all, errors or off). */
export function requestLogOptions(
  accessLog: AccessLogMode,
): Pick<FastifyServerOptions, 'genReqId' | 'logController'> {
  return {
    // one id per request in every log line, passed to the platform and answered as X-Request-Id
    genReqId: requestIdOf,
    logController: new AccessLogController(accessLog), // one line per request
  };
}

/** Redacted child loggers, request spans and, when given, the metrics' hooks; register first. */
export async function observeRequests(app: FastifyInstance, metrics?: GatewayMetrics): Promise<void> {
  app.setChildLoggerFactory(redactingChildLoggerFactory); // no signed or token-bearing URL in the logs
  await registerRequestTracing(app); // request spans when OTEL_* asks for traces (lib/tracing.ts)
  metrics?.instrument(app);
}

/** Answers every request's id as X-Request-Id (an `onRequest` hook). */
export function answerRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
}
