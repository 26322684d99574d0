/**
 * The render jobs' internal calls (contract/renders.ts `RenderPaths`; docs/decisions/064-background-worker.md): the
 * background worker (header `x-internal-key`) claims a certificate render with a lease, then completes or fails it.
 * JSON in, the envelope out: 403 without the key, 400 (Chinese) for a bad body, HTTP 409 for a worker that no longer
 * holds its job. Logged at `warn` only, as the events' take call: the worker polls every second or so.
 */
import type { FastifyInstance } from 'fastify';
import { ok } from '../../contract/envelope.ts';
import { ClaimRenderBody, FailRenderBody, FinishRenderBody, RenderPaths } from '../../contract/renders.ts';
import { parseInput } from '../core/errors.ts';
import { internalOnly } from '../core/internal-key.ts';
import { nowSeconds } from '../core/time.ts';
import { claimRender, completeRender, failRender } from './service.ts';

/** Registers the three calls (needs the services plugin: `app.pdb`, `app.internalKey`). */
export async function renderRoutes(app: FastifyInstance): Promise<void> {
  const internal = { preHandler: internalOnly(app), logLevel: 'warn' as const };

  app.post(RenderPaths.claim, internal, async (request) => {
    const { worker, leaseSeconds } = parseInput(ClaimRenderBody, request.body);
    return ok(await claimRender(app.pdb, worker, leaseSeconds, nowSeconds()));
  });

  app.post(RenderPaths.complete, internal, async (request) => {
    const { id, worker } = parseInput(FinishRenderBody, request.body);
    await completeRender(app.pdb.db, id, worker);
    return ok(null);
  });

  app.post(RenderPaths.fail, internal, async (request) => {
    const { id, worker, error } = parseInput(FailRenderBody, request.body);
    await failRender(app.pdb.db, id, worker, error, nowSeconds());
    return ok(null);
  });
}
