/**
 * The data of the reference certificate pages (routes/certificate.tsx, routes/certificate-plain.tsx; decision 032):
 * one call for the evidence to the platform at UPSTREAM_URL, its HTML sanitised, its QR code drawn (both cached as
 * the product does), its ledger proof summarised.
 */
import { data } from 'react-router';
import type { EvidenceView } from '../../../contract/evidence-codes.ts';
import type { SignedTreeHead } from '../../../contract/ledger.ts';
import { proofSummary } from '../../../app/certificate/ledger-proof.server.ts';
import { qrDataUri } from '../../../app/lib/qr.server.ts';
import { sanitizeCertificateHtml } from '../../../app/lib/sanitize.server.ts';
import { benchSetting } from '../../support/environment.ts';
import { visitor } from './visitor.server.ts';
import { loader as plainLoader } from './routes/login.tsx';

const UPSTREAM = benchSetting('UPSTREAM_URL') ?? 'http://127.0.0.1:1';
const ISSUER = { operator: '存证云', notaryOffice: '合作公证机构', contact: null };

/**
 * The page's data for `baoquan`, with the visitor's session read and CSRF cookie issued when `withVisitor` (the
 * reference of the row) or a constant CSRF token without (the plain page printed beside it, certificate-plain.tsx).
 * @throws a 404 answer when the platform does not answer the evidence
 */
export async function certificateData(request: Request, baoquan: string, withVisitor: boolean) {
  const { csrf, headers } = withVisitor
    ? await visitor(request)
    : { csrf: plainLoader().csrf, headers: undefined };
  const url = new URL('/api/share/getView', UPSTREAM);
  url.searchParams.set('baoquan', baoquan);
  url.searchParams.set('sth', '1');
  const answer = await fetch(url, { headers: { accept: 'application/json' } });
  const envelope = (await answer.json()) as { code: number; data: EvidenceView & { sth?: SignedTreeHead } };
  if (Number(envelope.code) !== 200) throw data(null, { status: 404 });
  const { sth, ...view } = envelope.data;
  const certificateUrl = `${new URL(request.url).origin}/attestation/${encodeURIComponent(view.baoquan)}`;
  const sheet = {
    certificateUrl,
    qr: await qrDataUri(certificateUrl, true),
    proof: proofSummary(view, sth ?? null),
    issuer: ISSUER,
    issuedAt: new Date().toISOString().slice(0, 19).replace('T', ' '),
  };
  const page = { view: { ...view, html: sanitizeCertificateHtml(view.html) }, sheet, csrf };
  return data(page, headers ? { headers } : undefined);
}
