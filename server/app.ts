/**
 * The gateway's Fastify app: security headers, `/healthz` and `/readyz`, `/api/*` streamed to the upstream, and the
 * React Router UI (built assets and the SSR handler). Started by `server/start.ts`; tested with `inject` and loopback
 * fakes in `server/app.test.ts`. Third-party plugins are wired here and nowhere else (ARCHITECTURE "Examples").
 */
import path from 'node:path';
import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyServerOptions } from 'fastify';
import Fastify from 'fastify';
import compress from '@fastify/compress';
import httpProxy from '@fastify/http-proxy';
import { reactRouterFastify } from '@mcansh/remix-fastify/react-router';
import { RouterContextProvider, type AppLoadContext } from 'react-router';
import { ApiCode, fail } from '../contract/envelope.ts';
import { lingerOnEarlyAnswer } from '../lib/linger.ts';
import { registerRequestTracing } from '../lib/tracing.ts';
import { Msg } from '../contract/messages.ts';
import type { GatewayLoadContext } from '../app/context.ts';
import type { PlatformCall } from '../contract/platform-call.ts';
import type { GatewayConfig } from './config.ts';
import { packagePlugin } from './package/plugin.ts';
import { declaresOversizeBody, forwardProxied, prepareProxyBody } from './proxy-body.ts';
import { openApiDocument } from '../contract/open-api-document.ts';
import type { GatewayMetrics } from './metrics.ts';
import { REQUEST_ID_HEADER, requestIdOf } from '../lib/request-id.ts';
import { OPEN_API_DOCUMENT_PATH } from '../contract/open-api.ts';
import { relayUpstreamAnswer } from './proxy-answer.ts';
import { appendPageBuffering } from './page-answer.ts';
import { notFoundHtml, pdfPlugin } from './pdf/plugin.ts';
import type { PdfConfig } from './pdf/config.ts';
import { trimAssetHeaders, trimJsonHeaders } from './asset-headers.ts';
import { guardCompressionSniff } from './compression-guard.ts';
import {
  forwardedHeaders,
  isUpstreamConnectionError,
  probeUpstream,
  replyConnectionFailed,
} from './upstream.ts';
import { addSecurityHeaders } from './security-headers.ts';
import { gatewayFrameworkErrors } from './framework-errors.ts';
import { redactingChildLoggerFactory } from '../lib/log-redact.ts';
import { AccessLogController } from '../lib/access-log.ts';
import { registerRateLimits } from './rate-limit.ts';
import { stripBasePath } from './base-path.ts';
import { partitionedUiOptions, type LoadContextGetter } from './route-partitions.ts';
import { servedBuild, type ServerBuildSource } from './ui-build.ts';

export type { ServerBuildSource } from './ui-build.ts';

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
  /** Prometheus metrics to count every answer into (server/metrics.ts); none when absent. */
  metrics?: GatewayMetrics;
  /** The per-IP rate limit (RateLimitSettings, server/config-rate-limit.ts); default: the schema's (60 a minute). */
  rateLimit?: Parameters<typeof registerRateLimits>[1];
}

/**
 * Builds the load context of one request. A `RouterContextProvider` carrying the fields as own properties: with
 * `future.v8_middleware` React Router rejects anything that is not a provider, and without it loaders read the
 * fields as on a plain object; either way `context.cspNonce` etc. work. `httpsRequest`: the request came over
 * https (directly or, with TRUST_PROXY, per X-Forwarded-Proto), so its cookies are Secure and `__Host-` named.
 */
export function createLoadContext(
  config: GatewayConfig,
  upstreamUrl: string,
  cspNonce: string,
  clientIp = '',
  documents?: Pick<GatewayLoadContext, 'printPage' | 'internalKey' | 'platformCall'>,
  requestId = '',
  httpsRequest = false,
): RouterContextProvider & GatewayLoadContext {
  const fields: GatewayLoadContext = {
    cspNonce,
    requestId,
    clientIp,
    upstreamUrl,
    sessionSecrets: config.sessionSecrets,
    // SECURE_COOKIES, or a request that arrived over https as a trusted proxy says (X-Forwarded-Proto with
    // TRUST_PROXY; Fastify ignores the header from a peer TRUST_PROXY does not name)
    secureCookies: config.secureCookies || httpsRequest,
    basePath: config.basePath,
    maxUploadBytes: config.maxUploadBytes,
    formBodyLimitBytes: config.formBodyLimitBytes,
    upstreamTimeoutMs: config.upstreamTimeoutMs,
    announcement: config.announcement,
    site: config.site,
    ...documents,
  };
  return Object.assign(new RouterContextProvider(), fields);
}

/**
 * The Content-Security-Policy directives (helmet syntax). helmet appends `'nonce-…'` to script-src and style-src
 * per request. Because a nonce makes browsers ignore `'unsafe-inline'` in style-src, inline `<style>` and
 * `style="…"` are allowed through the CSP3 style-src-elem / style-src-attr directives.
 */
export function cspDirectives(opts: {
  secure: boolean;
  development: boolean;
}): Record<string, string[] | null> {
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    scriptSrcAttr: ["'none'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    styleSrcElem: ["'self'", "'unsafe-inline'"],
    styleSrcAttr: ["'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'", 'data:'],
    // Vite's HMR client talks over a WebSocket on its own port in development.
    connectSrc: opts.development ? ["'self'", 'ws:', 'wss:'] : ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    // Only behind TLS: over plain HTTP on a LAN address it would send the forms and assets to a dead https port.
    upgradeInsecureRequests: opts.secure ? [] : null,
  };
}

/** A session cookie of the gateway (the user's or the console's, with or without a `__Host-`/`__Secure-` prefix). */
const SESSION_COOKIE = /(?:^|;)\s*(?:__Host-|__Secure-)?cz_(?:session|ops)=[^;\s]/;

/** True when a request carries credentials: a session cookie or an Authorization header. */
export function carriesCredentials(headers: { cookie?: string; authorization?: string }): boolean {
  return !!headers.authorization?.trim() || SESSION_COOKIE.test(headers.cookie ?? '');
}

/**
 * The Cache-Control of an answer (OWASP ASVS 5.0 14.3.2, docs/decisions/020-hardening-a.md): an answer to a request
 * with credentials, or one that sets a cookie, is `no-store` unless its route declared it `public` (hashed assets,
 * the region tree, the ledger key) or already forbids storing. Other answers keep what they have (public
 * certificate pages stay cacheable). Returns the value to set, or null to leave the header alone.
 */
export function privateCacheControl(
  headers: { cookie?: string; authorization?: string },
  current: string | undefined,
  setsCookie: boolean,
): string | null {
  if (!setsCookie && !carriesCredentials(headers)) return null;
  if (current && /\b(?:public|no-store)\b/i.test(current)) return null;
  return 'no-store';
}

/**
 * Builds the gateway (not listening). Order matters: helmet and rate-limit are global; `/api/*` is registered in its
 * own scope without compression (binary up/downloads stream through untouched, bodies unparsed and unlimited);
 * the UI scope has compression, static assets (hashed files `immutable`) and the React Router handler.
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
    // one id per request in every log line, passed to the platform and answered as X-Request-Id
    genReqId: requestIdOf,
    // BASE_PATH: the prefix is removed before routing; `originalUrl` keeps it for React Router (server/base-path.ts)
    ...(config.basePath
      ? { rewriteUrl: (req: IncomingMessage) => stripBasePath(req.url ?? '/', config.basePath) }
      : {}),
    logController: new AccessLogController(config.accessLog), // one line per request
    // an undecodable path or an over-long parameter: 请求参数错误, not Fastify's English JSON
    frameworkErrors: gatewayFrameworkErrors(config.basePath, config.secureCookies),
  });
  app.decorate('basePath', config.basePath);
  app.setChildLoggerFactory(redactingChildLoggerFactory); // no signed or token-bearing URL in the logs
  await registerRequestTracing(app); // request spans when OTEL_* asks for traces (lib/tracing.ts)

  opts.metrics?.instrument(app);
  if (config.basePath) outsideBasePathNotFound(app, config.basePath);
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
  addSecurityHeaders(app, {
    directives: cspDirectives({ secure: config.secureCookies, development }),
    hsts: config.secureCookies,
  });
  // Private answers are never stored by browsers or shared caches; registered first so every scope inherits it.
  app.addHook('onSend', async (request, reply, payload) => {
    const current = reply.getHeader('cache-control');
    const value = privateCacheControl(
      request.headers,
      typeof current === 'string' ? current : undefined,
      reply.hasHeader('set-cookie'),
    );
    if (value) reply.header('cache-control', value);
    return payload;
  });
  // An answer given before the request body was read keeps its connection a moment, so the client reads it.
  app.addHook('onSend', async (request, reply, payload) => {
    lingerOnEarlyAnswer(request.raw, reply.raw, (name, value) => reply.header(name, value));
    return payload;
  });
  // Per-IP limit of logins, captcha/SMS and public lookups, shared through Redis (server/rate-limit.ts).
  await registerRateLimits(app, opts.rateLimit);

  app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok' }));
  // The open API's OpenAPI 3.1 document, generated from the contract's schemas on first request (decision 039).
  let openApiJson: string | undefined;
  app.get(OPEN_API_DOCUMENT_PATH, async (_request, reply) =>
    reply
      .type('application/json; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .send((openApiJson ??= JSON.stringify(openApiDocument(`${config.basePath}/`)))),
  );
  app.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
    const probe = await probeUpstream(upstreamUrl, opts.readyTimeoutMs ?? 2000);
    return reply.code(probe.ready ? 200 : 503).send({ status: probe.ready ? 'ok' : 'unavailable' });
  });

  const upstreamPath = new URL(upstreamUrl).pathname.replace(/\/+$/, '');
  await app.register(async function apiProxy(api) {
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
      upstream: upstreamUrl,
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
        headersTimeout: config.upstreamTimeoutMs,
        bodyTimeout: config.upstreamTimeoutMs,
      },
      replyOptions: {
        rewriteRequestHeaders: (request, headers) => forwardedHeaders(request, headers, config.trustProxy),
        onError: (reply, { error }) => replyConnectionFailed(reply, error),
        // every answer passes through untouched; saved evidence reaches the PDF renderer as a platform event
        // (server/pdf/plugin.ts; decision 059), never by reading answers
        onResponse: (_request, reply, res) => relayUpstreamAnswer(reply, res),
      },
    });
  });

  if (opts.build !== false) {
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
  }

  if (opts.build !== false) {
    const uiBuild = await servedBuild(opts.build, config.basePath, development, buildDirectory);
    await app.register(async function ui(web) {
      // React Router reads the raw request as a stream; when the browser aborts (a cut-off upload) Node emits
      // 'error' on it, possibly after that stream stopped listening. Without a listener of our own that error
      // would be an uncaught exception and take the whole process down.
      web.addHook('onRequest', async (request) => {
        request.raw.on('error', (err) => request.log.debug({ err }, 'request stream error'));
      });
      // Answers are compressed; request bodies are not decompressed (no browser sends an encoded form, and an
      // encoded body would slip past FORM_BODY_LIMIT_BYTES' count of wire bytes): no preParsing hook per request.
      await web.register(compress, {
        globalCompression: true,
        globalDecompression: false,
        encodings: ['br', 'gzip', 'deflate'],
      });
      // before the plugin's own onSend: answers whose first bytes it would take as already compressed
      web.addHook('onSend', guardCompressionSniff);
      web.addHook('onSend', trimAssetHeaders);
      web.addHook('onRoute', appendPageBuffering); // after compression's own route hook: the bytes that go out
      // Private pages printed to signed PDFs (notarisation documents), their upload's key, the platform's own call.
      const documents: Pick<GatewayLoadContext, 'printPage' | 'internalKey' | 'platformCall'> = {
        ...(web.hasDecorator('pagePrinter')
          ? {
              printPage: (
                path: string,
                cookie: string | null,
                reason: string,
                signer?: 'platform' | 'notary',
              ) => web.pagePrinter.print(path, cookie, reason, signer),
            }
          : {}),
        ...(opts.internalKey ? { internalKey: opts.internalKey } : {}),
        ...(opts.platformCall ? { platformCall: opts.platformCall } : {}),
      };
      // The provider has no index signature, which AppLoadContext declares; the fields are all there.
      const getLoadContext: LoadContextGetter = (request, reply) =>
        createLoadContext(
          config,
          upstreamUrl,
          reply.cspNonce.script,
          request.ip,
          documents,
          request.id,
          request.protocol === 'https',
        ) as unknown as AppLoadContext;
      await web.register(reactRouterFastify, {
        buildDirectory,
        mode,
        // The hashed assets' .br/.gz made at build time (scripts/precompress.ts), at a quality per-request
        // compression cannot afford; @fastify/compress leaves answers that are already encoded alone.
        fastifyStaticOptions: { preCompressed: true },
        // In production a loaded build is served by partitions, each request against the routes of its first path
        // segment (server/route-partitions.ts); a build loaded per request (tests) or Vite's (development) whole.
        ...(!development && uiBuild && typeof uiBuild !== 'function'
          ? partitionedUiOptions(uiBuild, getLoadContext, mode)
          : uiBuild
            ? { productionServerBuild: uiBuild }
            : {}),
        getLoadContext,
      });
    });
  }

  return app;
}

/** Probes an orchestrator or the image's HEALTHCHECK sends to the process itself, at the root whatever BASE_PATH is. */
const ROOT_PROBES = new Set(['/healthz', '/readyz']);

/**
 * Under a BASE_PATH, a request outside it (its URL was not rewritten, server/base-path.ts) is answered 404 with the
 * short not-found page linking to the prefix, before any route sees it; only the health probes answer at the root.
 */
function outsideBasePathNotFound(app: FastifyInstance, basePath: string): void {
  app.addHook('onRequest', async (request, reply) => {
    if (request.originalUrl !== request.url) return; // it came under the prefix
    if (ROOT_PROBES.has(request.url.split('?', 1)[0]!)) return;
    return reply.code(404).type('text/html; charset=utf-8').send(notFoundHtml(basePath));
  });
}
