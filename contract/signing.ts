/**
 * The document-signing contract (decision 029): the platform holds the key that signs certificate
 * PDFs (and, later, the notarisation documents) as PAdES signatures; the gateway renders a PDF, hashes its byte
 * range and asks the platform for a CMS SignedData over that digest. No I/O.
 *
 * - `POST /api/internal/signing/cms` (header `x-internal-key`), body {@link CmsSignBody}: answers
 *   {@link CmsSignData}. Internal only: the key is the platform's INTERNAL_API_KEY.
 * - `GET /api/signing/certificates`: the public certificate chain of the signer (PEM, signer first), so anyone can
 *   check a certificate PDF's signature against it.
 */
import { z } from 'zod';
import './zod-locale.ts';

/** Messages of the signing area. */
export const SigningMsg = {
  badDigest: '摘要格式不正确',
} as const;

export const SigningPaths = {
  cms: '/api/internal/signing/cms',
  certificates: '/api/signing/certificates',
} as const;

/**
 * Who signs: the platform operator's signer (certificate PDFs, the notarisation documents) or the notary office's
 * (notarial certificates, decision 034).
 */
export const SIGNERS = ['platform', 'notary'] as const;
export type SignerName = (typeof SIGNERS)[number];

/** The request: the SHA-256 (64 lowercase hex) of the PDF's signed byte range (the time is the PDF's own `/M`). */
export const CmsSignBody = z.object({
  signer: z.enum(SIGNERS).default('platform'),
  digest: z
    .string()
    .regex(/^[0-9a-f]{64}$/, { message: SigningMsg.badDigest })
    .describe('SHA-256 of the signed byte range, lowercase hex'),
});
export type CmsSignBody = z.infer<typeof CmsSignBody>;

/** The answer: a detached CMS SignedData (RFC 5652) as base64 DER, and who signed. */
export interface CmsSignData {
  /** ContentInfo(SignedData), DER, base64: signed attributes content-type, message-digest, signing-certificate-v2. */
  cms: string;
  /** The signer certificate's subject common name (the platform operator). */
  signer: string;
}

/** The public chain: PEM certificates, the signer's first, then its issuers. */
export interface SigningCertificatesData {
  pem: string;
  /** SHA-256 of the signer certificate's DER, uppercase hex. */
  fingerprint: string;
  /** The signer certificate's subject common name. */
  signer: string;
  /** Validity of the signer certificate, ISO 8601. */
  notBefore: string;
  notAfter: string;
}

/** `GET /api/signing/certificates?signer=` query (default the platform's). */
export const SignerQuery = z.object({ signer: z.enum(SIGNERS).default('platform') });
