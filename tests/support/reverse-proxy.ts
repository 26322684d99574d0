/**
 * A small corporate reverse proxy for the BASE_PATH tests (docs/decisions/047-base-path.md):
 * `http://127.0.0.1:${PORT}${PROXY_PREFIX}/…` is forwarded unchanged (prefix kept, bodies streamed) to `PROXY_TARGET`
 * with X-Forwarded-Proto/Host/For, the way nginx's `location /cunzheng/ { proxy_pass http://app; }` does; any other
 * path is answered 404 by the proxy itself ("another application of the host"), so a link or redirect that leaves
 * the prefix fails visibly. Run as a script (Playwright's webServer) or with {@link startReverseProxy}.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import httpProxy from '@fastify/http-proxy';
import type { AddressInfo } from 'node:net';
import { testNumber, testSetting } from './environment.ts';

/** What the proxy answers outside its prefix: a page no test should ever land on. */
export const OUTSIDE_PREFIX_TEXT = 'not this application (outside the proxied prefix)';

/**
 * Starts the proxy on 127.0.0.1:`port` (0: any free port).
 * @param prefix e.g. `/cunzheng` (no trailing slash)
 * @param target the app's base URL without the prefix, e.g. `http://127.0.0.1:3102`
 * @returns the running instance and its base URL including the prefix (no trailing slash)
 */
export async function startReverseProxy(
  prefix: string,
  target: string,
  port = 0,
): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify({ logger: false, requestTimeout: 0 });
  // bodies pass through untouched, whatever their type (uploads of any size)
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  await app.register(httpProxy, {
    upstream: target,
    prefix,
    rewritePrefix: prefix,
    replyOptions: {
      rewriteRequestHeaders: (request, headers) => ({
        ...headers,
        'x-forwarded-proto': 'http',
        'x-forwarded-host': request.headers.host ?? '',
        'x-forwarded-for': request.ip,
      }),
    },
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).type('text/plain').send(OUTSIDE_PREFIX_TEXT));
  await app.listen({ host: '127.0.0.1', port });
  const { port: bound } = app.server.address() as AddressInfo;
  return { app, url: `http://127.0.0.1:${bound}${prefix}` };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const prefix = testSetting('PROXY_PREFIX') ?? '/cunzheng';
  const target = testSetting('PROXY_TARGET');
  if (!target) throw new Error('PROXY_TARGET is not set');
  const { app } = await startReverseProxy(prefix, target, testNumber('PORT', 0));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void app.close());
}
