/**
 * The facts of the printed certificate sheet for a request (certificate-sheet.tsx): the public certificate's URL
 * (PUBLIC_URL, else the request's origin) and its QR code, the ledger proof summary, the issuer from configuration
 * (contract/issuer.ts) and the issue time. Used by the print view and the two certificate pages.
 */
import type { AppLoadContext } from 'react-router';
import type { EvidenceView } from '../../contract/evidence-codes.ts';
import { certificateIssuer } from '../../contract/issuer.ts';
import { formatBeijing } from '../../contract/time.ts';
import type { SheetFacts } from './certificate-sheet.tsx';
import { loadProofSummary } from './ledger-proof.server.ts';
import { qrDataUri } from '../lib/qr.server.ts';
import { siteUrl } from '../lib/base-path.ts';

/** @param english the English certificate's URL (`/English/attestation/…`) goes into the QR code */
export async function sheetFacts(
  request: Request,
  context: AppLoadContext,
  view: EvidenceView,
  english: boolean,
): Promise<SheetFacts> {
  // PUBLIC_URL includes BASE_PATH when there is one (docs/decisions/047-base-path.md)
  const origin = process.env.PUBLIC_URL?.replace(/\/$/, '') || siteUrl(request, context, '');
  const certificateUrl = `${origin}${english ? '/English' : ''}/attestation/${encodeURIComponent(view.baoquan)}`;
  const [qr, proof] = await Promise.all([
    qrDataUri(certificateUrl, true),
    loadProofSummary(context, view.baoquan),
  ]);
  return {
    certificateUrl,
    qr,
    proof,
    issuer: certificateIssuer(process.env),
    issuedAt: formatBeijing(Math.floor(Date.now() / 1000)),
  };
}
