/**
 * Pages and data answers go out as one buffer (docs/decisions/052 "Stream replies").
 *
 * React Router's answer reaches Fastify as a stream (the adapter wraps the web `Response` body in a `Readable`), and
 * @fastify/compress pipes it through a compression stream. The document is complete before the first byte goes out
 * anyway (app/entry.server.tsx renders `onAllReady`, for browsers without JavaScript), so nothing is gained by
 * streaming it, and Fastify's stream replies keep each request's objects alive past two young-generation
 * collections (see server/proxy/answer.ts). This `onSend` hook, appended to each route after @fastify/compress's
 * own (which it adds per route), reads an HTML or single-fetch data answer whole — compressed, as it goes out — and
 * hands Fastify the bytes; files (static assets, PDFs, ZIPs) stream as before.
 */
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { readWhole } from '../proxy/answer.ts';

/** Content types read whole: documents and React Router's single-fetch data (`.data` requests). */
const WHOLE_TYPES = /^(text\/html|text\/x-script)\b/i;

/** Fastify `onSend` hook: see the module comment. */
export async function bufferPageAnswer(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  if (!payload || typeof (payload as Readable).pipe !== 'function') return payload;
  const type = reply.getHeader('content-type');
  if (typeof type !== 'string' || !WHOLE_TYPES.test(type)) return payload;
  return readWhole(payload as Readable);
}

/**
 * Fastify `onRoute` hook: appends {@link bufferPageAnswer} to the route's `onSend` hooks. Add it after
 * @fastify/compress is registered, so that it runs after compression's route-level hook.
 */
export function appendPageBuffering(route: RouteOptions): void {
  const existing = route.onSend;
  route.onSend = [...(Array.isArray(existing) ? existing : existing ? [existing] : []), bufferPageAnswer];
}
