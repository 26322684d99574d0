/**
 * Test helpers for the gateway's unit tests: a fake upstream on loopback, a minimal React Router server build and a
 * config without disk side effects. Not imported by production code.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ServerBuild } from 'react-router';
import type { GatewayConfig } from '../../server/config/server.ts';
import { buildServer, type BuildServerOptions } from '../../server/app.ts';
import { loadRateLimitSettings } from '../../server/config/rate-limit.ts';
import { TEST_SITE } from './site.ts';

/** A gateway config for tests: fixed secret, no announcement, silent logs. */
export function testConfig(overrides: Partial<GatewayConfig> = {}): GatewayConfig {
  return {
    port: 0,
    host: '127.0.0.1',
    upstreamUrl: null,
    dataDir: '/nonexistent',
    sessionSecrets: ['test-secret-test-secret-test-secret-0000'],
    sessionSecretSource: 'env',
    secureCookies: false,
    trustProxy: false,
    basePath: '',
    announcement: null,
    maxUploadBytes: 2 * 1024 ** 3,
    formBodyLimitBytes: 64 * 1024,
    upstreamTimeoutMs: 30_000,
    shutdownTimeoutMs: 10_000,
    logLevel: 'silent',
    logFormat: 'json',
    accessLog: 'all',
    embeddedPlatform: 'inline',
    // buildServer without a build or a mode runs Vite (development), as under Vitest's NODE_ENV=test before
    nodeEnv: 'test',
    site: TEST_SITE,
    ...overrides,
  };
}

/**
 * The rate limit of test gateways: far above what a suite sends from its one loopback address (the limit itself is
 * server/http/rate-limit.test.ts's).
 */
export const TEST_RATE_LIMIT = loadRateLimitSettings({ RATE_LIMIT_PER_MINUTE: '100000' });

/** What the fake upstream saw of the last proxied request. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  bytes: number;
  sha256: string;
}

/**
 * A tiny upstream on 127.0.0.1: `GET /api/healthz`, `POST /api/echo` (streams and hashes the body, answers
 * `{code:200, data: SeenRequest}`), `GET /api/text` (100 KB of compressible text, to prove /api is not compressed).
 */
export async function startFakeUpstream(): Promise<{ app: FastifyInstance; url: string; port: number }> {
  const app = Fastify({ logger: false });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
  app.get('/api/healthz', async () => ({ code: 200, msg: 'ok', data: null }));
  app.get('/api/text', async (_req, reply) => reply.type('text/plain').send('证'.repeat(100_000 / 3)));
  app.all('/api/echo', async (request) => {
    const hash = createHash('sha256');
    let bytes = 0;
    const body = request.body as NodeJS.ReadableStream | undefined;
    if (body && typeof body[Symbol.asyncIterator] === 'function') {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        hash.update(chunk);
        bytes += chunk.length;
      }
    }
    const seen: SeenRequest = {
      method: request.method,
      url: request.url,
      headers: request.headers,
      bytes,
      sha256: hash.digest('hex'),
    };
    return { code: 200, msg: 'ok', data: seen };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  return { app, url: `http://127.0.0.1:${port}`, port };
}

/**
 * A hand-made React Router server build with two routes: `/` renders a document whose inline script carries the
 * load context's CSP nonce, and `/ctx` is a resource route answering the load context as JSON.
 */
export function fakeServerBuild(): ServerBuild {
  const routeModule = (extra: Record<string, unknown>) => ({ default: undefined, ...extra });
  return {
    entry: {
      module: {
        default: (
          _request: Request,
          status: number,
          headers: Headers,
          _ctx: unknown,
          loadContext: unknown,
        ) => {
          const nonce = (loadContext as { cspNonce: string }).cspNonce;
          headers.set('content-type', 'text/html; charset=utf-8');
          const html = `<!doctype html><html><body><p>${'页'.repeat(2000)}</p><script nonce="${nonce}">1</script></body></html>`;
          return new Response(html, { status, headers });
        },
      },
    },
    routes: {
      root: { id: 'root', path: '', module: { default: () => null } },
      'routes/home': { id: 'routes/home', parentId: 'root', index: true, module: { default: () => null } },
      'routes/ctx': {
        id: 'routes/ctx',
        parentId: 'root',
        path: 'ctx',
        module: routeModule({
          loader: ({ context }: { context: unknown }) => Response.json({ ...(context as object) }),
        }),
      },
    },
    assets: {
      entry: { module: '/assets/entry.js', imports: [] },
      routes: {
        root: { id: 'root', path: '', module: '/assets/root.js', hasLoader: false, hasAction: false },
        'routes/home': { id: 'routes/home', parentId: 'root', index: true, module: '/assets/home.js' },
        'routes/ctx': {
          id: 'routes/ctx',
          parentId: 'root',
          path: 'ctx',
          module: '/assets/ctx.js',
          hasLoader: true,
        },
      },
      url: '/assets/manifest.js',
      version: 'test',
    },
    publicPath: '/',
    assetsBuildDirectory: 'build/client',
    future: {},
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: 'lazy', manifestPath: '/__manifest' },
  } as unknown as ServerBuild;
}

/** A gateway without UI in front of a plain `node:http` upstream on loopback ({@link gatewayOver}). */
export interface GatewayOverUpstream {
  gateway: FastifyInstance;
  /** The gateway's base URL. */
  base: string;
  /** Stops the gateway, then the upstream. */
  close(): Promise<void>;
}

/**
 * Starts an upstream answering with `handler` and a gateway (no UI build, `testConfig()`) proxying to it; `opts`
 * adds build options (a logger, say; logs are off by default).
 */
export async function gatewayOver(
  handler: http.RequestListener,
  opts: Partial<BuildServerOptions> = {},
): Promise<GatewayOverUpstream> {
  const upstream = http.createServer(handler);
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const gateway = await buildServer(testConfig(), {
    upstreamUrl,
    build: false,
    rateLimit: TEST_RATE_LIMIT,
    ...(opts.loggerInstance ? {} : { logger: false }),
    ...opts,
  });
  await gateway.listen({ host: '127.0.0.1', port: 0 });
  return {
    gateway,
    base: `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`,
    close: async () => {
      await gateway.close();
      await new Promise((resolve) => upstream.close(resolve));
    },
  };
}
