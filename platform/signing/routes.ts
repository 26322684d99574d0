/**
 * The signing area (contract/signing.ts; decision 029): the platform's {@link DocumentSigner}, opened at start when
 * DOCUMENT_SIGNING_PEM_FILE names a bundle (a bad one stops the start), else on first use (generating the local CA
 * and signer the first time: ECDSA P-256, milliseconds). Serves
 * - `POST /api/internal/signing/cms` (internal key): a detached CMS SignedData over a SHA-256 digest, for the
 *   gateway's PAdES certificate PDFs, by the platform's signer or (`signer: 'notary'`) the notary office's, which
 *   signs notarial certificates (decision 034; NOTARY_SIGNING_PEM_FILE, else generated like the platform's);
 * - `GET /api/signing/certificates?signer=`: a signer's public chain, so anyone can check a signature against it.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ok } from '../../contract/envelope.ts';
import {
  CmsSignBody,
  type CmsSignData,
  SigningPaths,
  SignerQuery,
  type SignerName,
  type SigningCertificatesData,
} from '../../contract/signing.ts';
import { parseInput } from '../core/errors.ts';
import { internalOnly } from '../core/internal-key.ts';
import { DocumentSigner, NOTARY_SIGNING_FILE } from './document-signer.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The document signer (platform/signing/document-signer.ts), opened once on first call. */
    documentSigner: () => Promise<DocumentSigner>;
    /** The notary office's signer of notarial certificates, opened once on first call (decision 034). */
    notarySigner: () => Promise<DocumentSigner>;
  }
}

/** Registers the signer and its routes (needs the services plugin: config, internal key). */
export const signingRoutes = fp(
  async (app: FastifyInstance) => {
    /** Opens a signer once (a failed open, e.g. a full disk, is tried again by the next call). */
    const opener = (what: string, open: () => Promise<DocumentSigner>) => {
      let opening: Promise<DocumentSigner> | null = null;
      return () => {
        opening ??= open().then((signer) => {
          app.log.info({ signer: signer.signerName, fingerprint: signer.fingerprint }, `${what} ready`);
          return signer;
        });
        opening.catch(() => {
          opening = null;
        });
        return opening;
      };
    };
    const open = opener('document signer', () =>
      DocumentSigner.open(app.config.dataDir, app.config.documentSigning),
    );
    const openNotary = opener('notary signer', () =>
      DocumentSigner.open(app.config.dataDir, { ...app.config.notarySigning, fileName: NOTARY_SIGNING_FILE }),
    );
    if (app.config.documentSigning.pemFile) await open();
    if (app.config.notarySigning.pemFile) await openNotary();
    app.decorate('documentSigner', open);
    app.decorate('notarySigner', openNotary);
    const signerOf = (name: SignerName) => (name === 'notary' ? openNotary() : open());

    app.post(SigningPaths.cms, { preHandler: internalOnly(app) }, async (request) => {
      const { digest, signer: name } = parseInput(CmsSignBody, request.body);
      const signer = await signerOf(name);
      const cms = await signer.signDigest(Buffer.from(digest, 'hex'));
      const data: CmsSignData = { cms: cms.toString('base64'), signer: signer.signerName };
      return ok(data);
    });

    app.get(SigningPaths.certificates, async (request, reply) => {
      const signer = await signerOf(parseInput(SignerQuery, request.query).signer);
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
