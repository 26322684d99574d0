/**
 * Private files served by signed, expiring URLs (seal images, spec 01 §2.7; KYC images, spec 02 §3): `GET
 * <prefix>:id?exp=&sig=` streams the stored bytes when `sig` is the HMAC of (purpose, id, exp) under the platform's
 * signing key (files/signer.ts) and `exp` (unix seconds) has not passed. Raw answers: 403 for a missing, forged or
 * expired signature, 404 when the row is gone (both with an envelope body). Whoever holds the URL may read the file:
 * it is handed only to the owner (and, for KYC, operators), and lives minutes.
 */
import type { FastifyInstance } from 'fastify';
import { ApiCode } from '../../contract/envelope.ts';
import { EvidenceMsg } from '../../contract/evidence.ts';
import { ApiError } from '../core/errors.ts';
import { nowSeconds } from '../core/time.ts';
import type { UrlSigner } from './signer.ts';
import type { FileBucket } from './storage.ts';

/** What the route needs of a stored file's row. */
export interface StoredFileRow {
  storage_key: string;
  /** Bytes. */
  file_size: number;
  /** MIME type sent as Content-Type. */
  mime: string;
}

/** Options of {@link registerSignedFileRoute}. */
export interface SignedFileRouteOptions {
  /** Path prefix ending in `/`, e.g. `/api/kyc/image/`. */
  prefix: string;
  /** The signature purpose (UrlSigner.signFor). */
  purpose: string;
  /** The bucket holding the files (`app.files.bucket(…)`). */
  storage: FileBucket;
  /** The row of file `id`, or undefined. */
  lookup(id: number): Promise<StoredFileRow | undefined>;
  /** Message of the 404 answer. */
  notFound: string;
  /** Cache-Control of the answer (default `private, no-store`). */
  cacheControl?: string;
}

/** Registers the signed file route on `app` (needs the services plugin: `app.downloads`). */
export function registerSignedFileRoute(app: FastifyInstance, opts: SignedFileRouteOptions): void {
  app.get<{ Params: { id: string }; Querystring: { exp?: string; sig?: string } }>(
    `${opts.prefix}:id`,
    async (request, reply) => {
      const { id } = request.params;
      const { exp, sig } = request.query;
      if (!/^\d{1,15}$/.test(id) || !app.downloads.verifyFor(opts.purpose, id, exp, sig, nowSeconds())) {
        throw new ApiError(ApiCode.FORBIDDEN, EvidenceMsg.downloadLinkInvalid, 403);
      }
      const row = await opts.lookup(Number(id));
      if (!row) throw new ApiError(ApiCode.NOT_FOUND, opts.notFound, 404);
      reply
        .header('content-type', row.mime)
        .header('content-length', String(row.file_size))
        .header('cache-control', opts.cacheControl ?? 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', 'inline');
      return reply.send(opts.storage.get(row.storage_key));
    },
  );
}

/** The relative signed URL `<prefix><id>?exp=&sig=` of file `id`, expiring `ttlSeconds` after `now` (unix s). */
export function signedFileUrl(
  signer: UrlSigner,
  prefix: string,
  purpose: string,
  id: number,
  now: number,
  ttlSeconds: number,
): string {
  return `${prefix}${id}?${signer.signedQuery(purpose, String(id), now, ttlSeconds)}`;
}
