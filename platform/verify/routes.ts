/**
 * Public verification calls of `/queryAuthentication` (contract `VerifyPaths`; spec 01 §2.1, §7):
 * - `POST /api/check/bqno {no}` → `{viewToken}`: a token for that one evidence number, valid 10 minutes
 *   (`<exp>.<hex HMAC over "view:<no>:<exp>">`, the signing key with its own purpose string); an unknown number
 *   answers code 404 `VerifyMsg.evidenceNumberNotFound`;
 * - `POST /api/check/bqview {viewToken, no}` → PublicEvidence; a bad or expired token answers code 400
 *   `VerifyMsg.viewTokenInvalid`;
 * - `POST /api/check/byHash {hash}` → PublicEvidence[] with that SHA-256, newest first, at most 20 (none → []);
 * - `POST /api/check/downCertificate {viewToken, no}` → CertificateDownloadData: the certificate PDF paths of the
 *   looked-up number, with the same token check as bqview (decision 027);
 * - `POST /api/check/packageKey` → LedgerPublicKey: the key the gateway's /verify checks an uploaded evidence package
 *   against (decision 035), asked once per check.
 *
 * Rate limit: every call of the five counts against one budget per client IP (`request.ip`, which is the browser's
 * address because the platform trusts X-Forwarded-For from the gateway, TRUST_PROXY): at most
 * `PUBLIC_LOOKUP_POLICY.max` calls per window, then code 429 `Msg.tooManyRequests` (service.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ok } from '../../contract/envelope.ts';
import {
  ByHashBody,
  DownCertificateBody,
  NoBody,
  VerifyPaths,
  ViewTokenBody,
  type ViewTokenData,
} from '../../contract/verify.ts';
import { parseInput } from '../core/errors.ts';
import { nowSeconds } from '../core/time.ts';
import { LedgerSigner, publishedLedgerKey } from '../ledger/signer.ts';
import { byHash, certificateFor, countLookup, publicView, viewTokenFor } from './service.ts';

/**
 * Registers the public lookups (needs the services plugin). Loads the ledger key under `${config.dataDir}/keys/`.
 * @throws when the key cannot be read or written
 */
export async function verifyRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.pdb;
  const limit = { preHandler: (request: FastifyRequest) => countLookup(db, request.ip) };

  app.post(VerifyPaths.bqno, limit, async (request) => {
    const { no } = parseInput(NoBody, request.body);
    const data: ViewTokenData = { viewToken: await viewTokenFor(db, app.downloads, no, nowSeconds()) };
    return ok(data);
  });

  app.post(VerifyPaths.bqview, limit, async (request) => {
    const q = parseInput(ViewTokenBody, request.body);
    return ok(await publicView(db, app.downloads, q, nowSeconds()));
  });

  app.post(VerifyPaths.byHash, limit, async (request) => {
    const { hash } = parseInput(ByHashBody, request.body);
    return ok(await byHash(db, hash));
  });

  app.post(VerifyPaths.downCertificate, limit, async (request) => {
    const q = parseInput(DownCertificateBody, request.body);
    return ok(await certificateFor(db, app.downloads, q, nowSeconds()));
  });

  const ledgerKey = publishedLedgerKey(
    (await LedgerSigner.open(app.config.dataDir, app.config.ledgerOrigin)).publicKey,
    app.config,
  );
  app.post(VerifyPaths.packageKey, limit, async () => ok(ledgerKey));
}
