/**
 * The facts of the printed certificate sheet for a request (certificate-sheet.tsx): the public certificate's URL
 * (PUBLIC_URL, else the request's origin) and its QR code, the ledger proof summary, the issuer from configuration
 * (the load context's `site`, app/context.ts) and the issue time. Used by the print view and the two certificate pages.
 */
import type { AppLoadContext } from 'react-router';
import type { EvidenceView } from '../../contract/evidence-codes.ts';
import type { SignedTreeHead } from '../../contract/ledger.ts';
import { formatBeijing } from '../../contract/time.ts';
import type { SheetFacts } from './certificate-sheet.tsx';
import { proofSummary } from './ledger-proof.server.ts';
import { qrDataUri } from '../lib/qr.server.ts';
import { siteUrl } from '../lib/base-path.ts';

/**
 * @param sth the ledger head that came with the view (view.server.ts `loadCertificate`), for the proof summary
 * @param english the English certificate's URL (`/English/attestation/…`) goes into the QR code
 */
export async function sheetFacts(
  request: Request,
  context: AppLoadContext,
  view: EvidenceView,
  sth: SignedTreeHead | null,
  english: boolean,
): Promise<SheetFacts> {
  // PUBLIC_URL includes BASE_PATH when there is one (docs/decisions/047-base-path.md)
  const origin = context.site.publicUrl ?? siteUrl(request, context, '');
  const certificateUrl = `${origin}${english ? '/English' : ''}/attestation/${encodeURIComponent(view.baoquan)}`;
  return {
    certificateUrl,
    qr: await qrDataUri(certificateUrl, true),
    proof: proofSummary(view, sth),
    issuer: context.site.issuer,
    issuedAt: formatBeijing(Math.floor(Date.now() / 1000)),
  };
}
