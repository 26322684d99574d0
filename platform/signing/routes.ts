/**
 * The signing area (contract/signing.ts; decision 029): the platform's {@link DocumentSigner}, opened at start when
 * DOCUMENT_SIGNING_PEM_FILE names a bundle (a bad one stops the start), else on first use (generating the local CA
 * and signer the first time: ECDSA P-256, milliseconds). Serves
 * - `POST /api/internal/signing/cms` (internal key): a detached CMS SignedData over a SHA-256 digest, for the
 *   gateway's PAdES certificate PDFs;
 * - `GET /api/signing/certificates`: the signer's public chain, so anyone can check a signature against it.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ok } from '../../contract/envelope.ts';
import {
  CmsSignBody,
  type CmsSignData,
  SigningPaths,
  type SigningCertificatesData,
} from '../../contract/signing.ts';
import { parseInput } from '../core/errors.ts';
import { internalOnly } from '../core/internal-key.ts';
import { DocumentSigner } from './document-signer.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The document signer (platform/signing/document-signer.ts), opened once on first call. */
    documentSigner: () => Promise<DocumentSigner>;
  }
}

/** Registers the signer and its routes (needs the services plugin: config, internal key). */
export const signingRoutes = fp(
  async (app: FastifyInstance) => {
    let opening: Promise<DocumentSigner> | null = null;
    const open = () => {
      opening ??= DocumentSigner.open(app.config.dataDir, app.config.documentSigning).then((signer) => {
        app.log.info({ signer: signer.signerName, fingerprint: signer.fingerprint }, 'document signer ready');
        return signer;
      });
      // A failed open (e.g. a full disk) is tried again by the next call.
      opening.catch(() => {
        opening = null;
      });
      return opening;
    };
    if (app.config.documentSigning.pemFile) await open();
    app.decorate('documentSigner', open);

    app.post(SigningPaths.cms, { preHandler: internalOnly(app) }, async (request) => {
      const { digest } = parseInput(CmsSignBody, request.body);
      const signer = await open();
      const cms = await signer.signDigest(Buffer.from(digest, 'hex'));
      const data: CmsSignData = { cms: cms.toString('base64'), signer: signer.signerName };
      return ok(data);
    });

    app.get(SigningPaths.certificates, async (_request, reply) => {
      const signer = await open();
      reply.header('cache-control', 'public, max-age=3600');
      const data: SigningCertificatesData = {
        pem: signer.chainPem,
        fingerprint: signer.fingerprint,
        signer: signer.signerName,
        notBefore: signer.notBefore.toISOString(),
        notAfter: signer.notAfter.toISOString(),
      };
      return ok(data);
    });
  },
  { name: 'cunzheng-signing', dependencies: ['cunzheng-services'] },
);
