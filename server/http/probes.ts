/**
 * The gateway's own small routes: the health probes (`/healthz`: the process answers; `/readyz`: the upstream
 * answers its health route, server/proxy/upstream.ts), the open API's OpenAPI 3.1 document at `/openapi.json`
 * (generated from the contract's schemas on first request; decision 039), and the 404 of a request outside BASE_PATH
 * (docs/decisions/047-base-path.md).
 */
import type { FastifyInstance } from 'fastify';
import { openApiDocument } from '../../contract/open-api-document.ts';
import { OPEN_API_DOCUMENT_PATH } from '../../contract/open-api.ts';
import { notFoundHtml } from '../pdf/plugin.ts';
import { probeUpstream } from '../proxy/upstream.ts';

/** Probes an orchestrator or the image's HEALTHCHECK sends to the process itself, at the root whatever BASE_PATH is. */
const ROOT_PROBES = new Set(['/healthz', '/readyz']);

/**
 * Under a BASE_PATH, a request outside it (its URL was not rewritten, server/http/base-path.ts) is answered 404 with
 * the short not-found page linking to the prefix, before any route sees it; only the health probes answer at the root.
 */
export function outsideBasePathNotFound(app: FastifyInstance, basePath: string): void {
  app.addHook('onRequest', async (request, reply) => {
    if (request.originalUrl !== request.url) return; // it came under the prefix
    if (ROOT_PROBES.has(request.url.split('?', 1)[0]!)) return;
    return reply.code(404).type('text/html; charset=utf-8').send(notFoundHtml(basePath));
  });
}

/**
 * Registers `/healthz`, `/openapi.json` and `/readyz`. `readyTimeoutMs`: how long `/readyz` waits for the upstream
 * (`upstreamUrl`, no trailing slash) before answering 503, in milliseconds.
 */
export function registerProbes(
  app: FastifyInstance,
  opts: { upstreamUrl: string; basePath: string; readyTimeoutMs: number },
): void {
  app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok' }));
  // The open API's OpenAPI 3.1 document, generated from the contract's schemas on first request (decision 039).
  let openApiJson: string | undefined;
  app.get(OPEN_API_DOCUMENT_PATH, async (_request, reply) =>
    reply
      .type('application/json; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .send((openApiJson ??= JSON.stringify(openApiDocument(`${opts.basePath}/`)))),
  );
  app.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
    const probe = await probeUpstream(opts.upstreamUrl, opts.readyTimeoutMs);
    return reply.code(probe.ready ? 200 : 503).send({ status: probe.ready ? 'ok' : 'unavailable' });
  });
}
