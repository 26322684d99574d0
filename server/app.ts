/**
 * The gateway's Fastify app, as a list of registrations in the order they must run (docs/decisions/061): request ids,
 * logs, traces and metrics (server/observability/), security headers (server/http/security-headers.ts), cache
 * control, the per-IP rate limit (server/http/rate-limit.ts), the probes and `/openapi.json` (server/http/probes.ts),
 * `/api/*` to the upstream (server/proxy/), certificate PDFs and evidence packages (server/pdf/, server/package/) and
 * the React Router UI (server/pages/). Each third-party plugin is wired, with its options, in the one file of its
 * concern. Started by `server/start.ts`; tested with `inject` and loopback fakes in `server/app.test.ts`.
 */
import path from 'node:path';
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyServerOptions } from 'fastify';
import Fastify from 'fastify';
import type { PlatformCall } from '../contract/platform-call.ts';
import type { GatewayConfig } from './config/server.ts';
import type { RateLimitSettings } from './config/rate-limit.ts';
import { stripBasePath } from './http/base-path.ts';
import { addAnswerHooks } from './http/cache-control.ts';
import { gatewayFrameworkErrors } from './http/framework-errors.ts';
import { outsideBasePathNotFound, registerProbes } from './http/probes.ts';
import { registerRateLimits } from './http/rate-limit.ts';
import { addSecurityHeaders, cspDirectives } from './http/security-headers.ts';
import type { GatewayMetrics } from './observability/metrics.ts';
import { answerRequestId, observeRequests, requestLogOptions } from './observability/requests.ts';
import { packagePlugin } from './package/plugin.ts';
import { uiPages } from './pages/plugin.ts';
import type { ServerBuildSource } from './pages/ui-build.ts';
import type { PdfConfig } from './pdf/config.ts';
import { pdfPlugin } from './pdf/plugin.ts';
import { apiProxy } from './proxy/plugin.ts';

export type { ServerBuildSource } from './pages/ui-build.ts';

/** Options of {@link buildServer} that are not environment configuration. */
export interface BuildServerOptions {
  /** Base URL of the upstream API (embedded platform or UPSTREAM_URL), without a trailing slash. */
  upstreamUrl: string;
  /**
   * The UI. Undefined: `mode` production loads `${buildDirectory}/server/index.js`, any other mode runs Vite in
   * middleware mode. A build (or loader): served as production. `false`: no UI routes (gateway-only tests).
   */
  build?: ServerBuildSource | false;
  /** The React Router build directory (`build/`), holding `client/` (static assets) and `server/`. */
  buildDirectory?: string;
  /** `production` or anything else (development). Default: production when a build is given, else NODE_ENV. */
  mode?: string;
  /** A pino logger to use as Fastify's (`loggerInstance`); else `logger` options; default: level from config. */
  loggerInstance?: FastifyBaseLogger;
  logger?: FastifyServerOptions['logger'];
  /** The platform's internal key (INTERNAL_API_KEY or the embedded platform's): signs certificate PDFs. */
  internalKey?: string;
  /** The embedded platform's call without HTTP, for the pages' envelope calls (none in front of UPSTREAM_URL). */
  platformCall?: PlatformCall;
  /** Timeout of the upstream probe of `/readyz`, in milliseconds (default 2000). */
  readyTimeoutMs?: number;
  /** The PDF renderer's settings (server/pdf/config.ts); default: the schema's defaults. */
  pdf?: PdfConfig;
  /** Prometheus metrics to count every answer into (server/observability/metrics.ts); none when absent. */
  metrics?: GatewayMetrics;
  /** The per-IP rate limit (server/config/rate-limit.ts); default: the schema's (60 a minute). */
  rateLimit?: RateLimitSettings;
}

/**
 * Builds the gateway (not listening). Order matters: the security headers and the rate limit are global; `/api/*` is
 * registered in its own scope without compression (binary up/downloads stream through untouched, bodies unparsed
 * and unlimited); the UI scope has compression, static assets (hashed files `immutable`) and the React Router
 * handler.
 *
 * @throws when a plugin fails to load (e.g. a production start without `build/server/index.js`).
 */
export async function buildServer(config: GatewayConfig, opts: BuildServerOptions): Promise<FastifyInstance> {
  const upstreamUrl = opts.upstreamUrl.replace(/\/+$/, '');
  const mode = opts.mode ?? (opts.build ? 'production' : config.nodeEnv);
  const development = mode !== 'production';
  const buildDirectory = path.resolve(opts.buildDirectory ?? 'build');

  const app = Fastify({
    ...(opts.loggerInstance
      ? { loggerInstance: opts.loggerInstance }
      : { logger: opts.logger ?? { level: config.logLevel } }),
    // A hop count is valid at run time (proxy-addr) though Fastify's types omit it.
    trustProxy: config.trustProxy as FastifyServerOptions['trustProxy'],
    // Uploads of gigabytes may take long; the upstream enforces MAX_UPLOAD_BYTES, the proxy never buffers.
    requestTimeout: 0,
    return503OnClosing: true,
    // BASE_PATH: the prefix is removed before routing; `originalUrl` keeps it for React Router (server/http/base-path.ts)
    ...(config.basePath
      ? { rewriteUrl: (req: IncomingMessage) => stripBasePath(req.url ?? '/', config.basePath) }
      : {}),
    ...requestLogOptions(config.accessLog),
    // an undecodable path or an over-long parameter: 请求参数错误, not Fastify's English JSON
    frameworkErrors: gatewayFrameworkErrors(config.basePath, config.secureCookies),
  });
  app.decorate('basePath', config.basePath);
  await observeRequests(app, opts.metrics);
  if (config.basePath) outsideBasePathNotFound(app, config.basePath);
  answerRequestId(app);
  addSecurityHeaders(app, {
    directives: cspDirectives({ secure: config.secureCookies, development }),
    hsts: config.secureCookies,
  });
  addAnswerHooks(app);
  // Per-IP limit of logins, captcha/SMS and public lookups, shared through Redis (server/http/rate-limit.ts).
  await registerRateLimits(app, opts.rateLimit);
  registerProbes(app, {
    upstreamUrl,
    basePath: config.basePath,
    readyTimeoutMs: opts.readyTimeoutMs ?? 2000,
  });
  await app.register(apiProxy, {
    upstreamUrl,
    upstreamTimeoutMs: config.upstreamTimeoutMs,
    trustProxy: config.trustProxy,
  });
  if (opts.build === false) return app;

  // Certificate PDFs and evidence ZIPs: on the root scope (never compressed again), registered before the UI so
  // that these exact paths win over its catch-all; they print the UI's own pages, so only with a UI.
  await app.register(pdfPlugin, {
    upstreamUrl,
    dataDir: config.dataDir,
    buildDirectory,
    development,
    internalKey: opts.internalKey,
    platformCall: opts.platformCall,
    pdf: opts.pdf,
    site: config.site,
  });
  await app.register(packagePlugin, { upstreamUrl });
  await app.register(uiPages, {
    config,
    upstreamUrl,
    build: opts.build,
    buildDirectory,
    mode,
    internalKey: opts.internalKey,
    platformCall: opts.platformCall,
  });
  return app;
}
