/**
 * One id per request, the same in the gateway's and the platform's log lines and on the answer (decision 040):
 * a well-formed `X-Request-Id` that came in (from a corporate gateway in front, or from our own gateway to the
 * platform) is kept, anything else gets a new UUID. Well-formed: 1–64 of `[A-Za-z0-9._-]`, so nobody can write
 * arbitrary text into the logs through it. Used as Fastify's `genReqId` (pino logs it as `reqId`).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The header that carries the id, lower case. */
export const REQUEST_ID_HEADER = 'x-request-id';

const WELL_FORMED = /^[A-Za-z0-9._-]{1,64}$/;

/** The request's id: its well-formed X-Request-Id, else a new random UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && WELL_FORMED.test(given) ? given : randomUUID();
}
