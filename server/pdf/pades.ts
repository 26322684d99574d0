/**
 * PAdES signing of a finished PDF (decisions 029, 033): an invisible signature field whose
 * dictionary says `/SubFilter /ETSI.CAdES.detached` (ETSI EN 319 142-1), the signing time `/M`, the reason and
 * location; @signpdf/signpdf fills `/ByteRange` and puts the CMS SignedData into `/Contents`. The CMS comes from a
 * {@link CmsSource}: the platform's document signer over `POST /api/internal/signing/cms` (so the key never leaves
 * the platform), or the signer itself in tests and in one process.
 */
import { createHash } from 'node:crypto';
import { plainAddPlaceholder } from '@signpdf/placeholder-plain';
import { SignPdf } from '@signpdf/signpdf';
import { Signer, SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import type { ApiEnvelope } from '../../contract/envelope.ts';
import type { PlatformCallAnswer } from '../../contract/platform-call.ts';
import { type CmsSignData, type SignerName, SigningPaths } from '../../contract/signing.ts';
import { callPlatform, type PlatformTarget } from '../../app/lib/platform-call.server.ts';

/** Makes a detached CMS SignedData (DER) over a SHA-256 digest (32 bytes). */
export interface CmsSource {
  cmsFor(digest: Buffer): Promise<Buffer>;
}

/** Bytes reserved in the PDF for the CMS (the hex string is twice that): a chain of two needs ~1–3 KB (EC or RSA). */
export const SIGNATURE_PLACEHOLDER_BYTES = 16_384;

/** Thrown when the platform does not sign (unreachable, a non-success envelope, or the wrong key). */
export class SigningUnavailableError extends Error {
  override name = 'SigningUnavailableError';
}

/** The platform's document signer, reached with the internal key (without HTTP when the platform is embedded). */
export class PlatformCmsSource implements CmsSource {
  private readonly target: PlatformTarget;
  private readonly internalKey: string;
  private readonly timeoutMs: number;
  private readonly signer: SignerName;
  constructor(
    target: PlatformTarget,
    internalKey: string,
    timeoutMs = 10_000,
    /** Which of the platform's signers: its own (certificates, documents) or the notary office's (decision 034). */
    signer: SignerName = 'platform',
  ) {
    this.target = target;
    this.internalKey = internalKey;
    this.timeoutMs = timeoutMs;
    this.signer = signer;
  }

  /** @throws SigningUnavailableError when the platform does not answer a CMS within the timeout */
  async cmsFor(digest: Buffer): Promise<Buffer> {
    let answer: PlatformCallAnswer;
    try {
      answer = await callPlatform(
        this.target,
        {
          method: 'POST',
          url: SigningPaths.cms,
          headers: { 'content-type': 'application/json', 'x-internal-key': this.internalKey },
          body: JSON.stringify({ digest: digest.toString('hex'), signer: this.signer }),
        },
        AbortSignal.timeout(this.timeoutMs),
      );
    } catch (err) {
      throw new SigningUnavailableError('the platform signer is unreachable', { cause: err });
    }
    let body: ApiEnvelope<CmsSignData> | null = null;
    try {
      body = JSON.parse(answer.body) as ApiEnvelope<CmsSignData>;
    } catch {
      // not an envelope: refused below
    }
    if (answer.status < 200 || answer.status > 299 || body?.code !== 200 || !body.data?.cms) {
      throw new SigningUnavailableError(`the platform signer answered ${answer.status}`);
    }
    return Buffer.from(body.data.cms, 'base64');
  }
}

class DigestSigner extends Signer {
  private readonly source: CmsSource;
  constructor(source: CmsSource) {
    super();
    this.source = source;
  }
  override async sign(pdfBuffer: Buffer): Promise<Buffer> {
    return this.source.cmsFor(createHash('sha256').update(pdfBuffer).digest());
  }
}

/** What the signature dictionary says besides the CMS. */
export interface SignatureInfo {
  /** `/Name`: who signs (the platform operator). */
  name: string;
  /** `/Reason`, e.g. 电子数据保全证书. */
  reason: string;
  /** `/Location`: the site's origin. */
  location: string;
  /** `/ContactInfo`. */
  contactInfo: string;
  /** `/M`; default now. */
  signingTime?: Date;
}

/**
 * Signs `pdf` (a complete PDF, e.g. Chromium's print) with one invisible PAdES signature. The signature dictionary,
 * its widget and the AcroForm are appended as an incremental update (ISO 32000-1 §7.5.6) by @signpdf/placeholder-plain,
 * which leaves the printed bytes as they are (about 2 ms for a certificate); a PDF it cannot read (a cross-reference
 * stream instead of a table) is rewritten by pdf-lib without object streams first (about 15 ms). Then the CMS from
 * `source` fills the placeholder (@signpdf/signpdf).
 * @returns the signed PDF
 * @throws SigningUnavailableError from the source; SignPdfError when the CMS exceeds the placeholder
 */
export async function signPdf(pdf: Uint8Array, source: CmsSource, info: SignatureInfo): Promise<Buffer> {
  const signingTime = info.signingTime ?? new Date();
  const fields = {
    reason: info.reason,
    contactInfo: info.contactInfo,
    name: info.name,
    location: info.location,
    signingTime,
    signatureLength: SIGNATURE_PLACEHOLDER_BYTES,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    appName: 'Cunzheng',
  };
  let prepared: Buffer;
  try {
    prepared = plainAddPlaceholder({ pdfBuffer: Buffer.from(pdf), ...fields });
  } catch {
    // pdf-lib (~3.7 MB of heap) only for this rare path, loaded on first use (decision 056).
    const [{ PDFDocument }, { pdflibAddPlaceholder }] = await Promise.all([
      import('pdf-lib'),
      import('@signpdf/placeholder-pdf-lib'),
    ]);
    const doc = await PDFDocument.load(pdf, { updateMetadata: false });
    pdflibAddPlaceholder({ pdfDoc: doc, ...fields });
    prepared = Buffer.from(await doc.save({ useObjectStreams: false }));
  }
  return new SignPdf().sign(prepared, new DigestSigner(source), signingTime);
}
