/**
 * The events' internal call (contract/events.ts; docs/decisions/059-evidence-events.md): `POST
 * /api/internal/events/take` with the internal key, which the gateway's consumers call through their PlatformCall
 * (over the worker's message port, `inject` inline, or HTTP to UPSTREAM_URL). Registered by the services plugin
 * (platform/services.ts), so every platform serves it.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ok } from '../../contract/envelope.ts';
import { EventPaths, TakeEventsBody, type TakenEvents } from '../../contract/events.ts';
import { parseInput } from '../core/errors.ts';
import { internalOnly } from '../core/internal-key.ts';
import { takeEvents } from './events.ts';

/**
 * Registers the take call (needs `app.pdb` and `app.internalKey`). Answers 403 without the key, 400 (Chinese) for a
 * bad consumer name or count, else {@link TakenEvents}.
 */
export const eventsPlugin = fp(
  async (app: FastifyInstance) => {
    app.post(EventPaths.take, { preHandler: internalOnly(app), logLevel: 'warn' }, async (request) => {
      const { consumer, max } = parseInput(TakeEventsBody, request.body);
      const data: TakenEvents = { events: await takeEvents(app.pdb.db, consumer, max) };
      return ok(data);
    });
  },
  { name: 'cunzheng-events' },
);
