/**
 * Hashed scripts and stylesheets (`/assets/*`) do not need the headers that govern a document: a CSP with fresh
 * nonces, frame and referrer rules … (~750 bytes on each of a page's ~10 asset answers; issue 16 point 3). They keep
 * nosniff, the resource policy, HSTS and their caching. No asset runs as a worker, whose policy would come from its
 * own answer.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Headers helmet sets that only a document uses; dropped from hashed assets. */
export const DOCUMENT_ONLY_HEADERS = [
  'content-security-policy',
  'x-frame-options',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
] as const;

/** An `onSend` hook of the UI scope: removes {@link DOCUMENT_ONLY_HEADERS} from `/assets/*` answers. */
export async function trimAssetHeaders<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: T,
): Promise<T> {
  if (request.url.startsWith('/assets/')) for (const h of DOCUMENT_ONLY_HEADERS) reply.removeHeader(h);
  return payload;
}
