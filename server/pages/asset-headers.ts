/**
 * Hashed scripts and stylesheets (`/assets/*`) do not need the headers that govern a document: a CSP with fresh
 * nonces, frame and referrer rules … (~750 bytes on each of a page's ~10 asset answers; decision 031). They keep
 * nosniff, the resource policy, HSTS and their caching. No asset runs as a worker, whose policy would come from its
 * own answer. Nor do they need validators: their names carry their content hash and they are cached `immutable`, so
 * no browser revalidates them, and `ETag`, `Last-Modified` and `Accept-Ranges` (~110 bytes each) go too.
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

/** Validators and range support that an `immutable` hashed asset never uses. */
export const VALIDATOR_HEADERS = ['etag', 'last-modified', 'accept-ranges'] as const;

/** The policy of a JSON answer: it may not be framed (OWASP REST Security Cheat Sheet, "Security Headers"). */
export const JSON_CSP = "frame-ancestors 'none'";

/**
 * An `onSend` hook of the `/api` scope: replaces {@link DOCUMENT_ONLY_HEADERS} of JSON answers, which no browser
 * renders as a document, by the few bytes an API answer needs: `Content-Security-Policy: frame-ancestors 'none'`
 * beside the `X-Content-Type-Options: nosniff` it keeps (about 690 of an envelope's 1,540 header bytes saved).
 * Other answers of the platform (a sandbox provider's page, a downloaded file) keep the document headers.
 */
export async function trimJsonHeaders<T>(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: T,
): Promise<T> {
  if (/^application\/json\b/i.test(String(reply.getHeader('content-type') ?? ''))) {
    for (const h of DOCUMENT_ONLY_HEADERS) reply.removeHeader(h);
    reply.header('content-security-policy', JSON_CSP);
  }
  return payload;
}

/**
 * An `onSend` hook of the UI scope: removes {@link DOCUMENT_ONLY_HEADERS} from `/assets/*` answers, and
 * {@link VALIDATOR_HEADERS} from those cached `immutable`.
 */
export async function trimAssetHeaders<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: T,
): Promise<T> {
  if (!request.url.startsWith('/assets/')) return payload;
  for (const h of DOCUMENT_ONLY_HEADERS) reply.removeHeader(h);
  if (String(reply.getHeader('cache-control') ?? '').includes('immutable'))
    for (const h of VALIDATOR_HEADERS) reply.removeHeader(h);
  return payload;
}
