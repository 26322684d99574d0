/**
 * The React Router UI (@mcansh/remix-fastify, which serves the built assets with @fastify/static, and its options):
 * in a scope of its own with compression (server/pages/compress.ts), each page rendered against the load context of
 * its request (server/pages/load-context.ts). In production a loaded build is served by partitions
 * (server/pages/route-partitions.ts), in development Vite's middleware serves it.
 */
import { reactRouterFastify } from '@mcansh/remix-fastify/react-router';
import type { FastifyInstance } from 'fastify';
import type { AppLoadContext } from 'react-router';
import type { GatewayLoadContext } from '../../app/context.ts';
import type { PlatformCall } from '../../contract/platform-call.ts';
import type { GatewayConfig } from '../config/server.ts';
import { registerCompression } from './compress.ts';
import { createLoadContext } from './load-context.ts';
import { partitionedUiOptions, type LoadContextGetter } from './route-partitions.ts';
import { servedBuild, type ServerBuildSource } from './ui-build.ts';

/** Options of {@link uiPages}. */
export interface UiPagesOptions {
  config: GatewayConfig;
  /** Base URL of the upstream API, without a trailing slash. */
  upstreamUrl: string;
  /** The build, or undefined to load `${buildDirectory}/server/index.js` (production) or run Vite (development). */
  build: ServerBuildSource | undefined;
  /** The React Router build directory (absolute). */
  buildDirectory: string;
  /** `production` or anything else (development). */
  mode: string;
  /** The platform's internal key, for the pages that upload printed documents. */
  internalKey?: string;
  /** The embedded platform's call without HTTP (none in front of UPSTREAM_URL). */
  platformCall?: PlatformCall;
}

/** The UI scope; register it with `app.register(uiPages, options)` after the PDF plugin (its `pagePrinter`). */
export async function uiPages(web: FastifyInstance, opts: UiPagesOptions): Promise<void> {
  const { config, upstreamUrl, buildDirectory, mode } = opts;
  const development = mode !== 'production';
  const uiBuild = await servedBuild(opts.build, config.basePath, development, buildDirectory);
  // React Router reads the raw request as a stream; when the browser aborts (a cut-off upload) Node emits
  // 'error' on it, possibly after that stream stopped listening. Without a listener of our own that error
  // would be an uncaught exception and take the whole process down.
  web.addHook('onRequest', async (request) => {
    request.raw.on('error', (err) => request.log.debug({ err }, 'request stream error'));
  });
  await registerCompression(web);
  // Private pages printed to signed PDFs (notarisation documents), their upload's key, the platform's own call.
  const documents: Pick<GatewayLoadContext, 'printPage' | 'internalKey' | 'platformCall'> = {
    ...(web.hasDecorator('pagePrinter')
      ? {
          printPage: (path: string, cookie: string | null, reason: string, signer?: 'platform' | 'notary') =>
            web.pagePrinter.print(path, cookie, reason, signer),
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
    // segment (server/pages/route-partitions.ts); a build loaded per request (tests) or Vite's (development) whole.
    ...(!development && uiBuild && typeof uiBuild !== 'function'
      ? partitionedUiOptions(uiBuild, getLoadContext, mode)
      : uiBuild
        ? { productionServerBuild: uiBuild }
        : {}),
    getLoadContext,
  });
}
