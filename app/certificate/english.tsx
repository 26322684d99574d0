/**
 * /English/attestation/{id}: the certificate in English (spec 01 §2.3), served as `<html lang="en">` (the route's
 * `handle.lang`, read by the root layout) with English labels throughout, including the frame. The facts come from
 * the evidence view, worded per evidence kind (decision 028); the platform's Chinese certificate body is not
 * repeated. Download and extraction stay on the Chinese page. The browser's print prints the English sheet of the
 * PDF (certificate-sheet.tsx, print media only).
 */
import { Link } from 'react-router';
import type { Route } from './+types/english';
import { DeletedNotice, EnglishCertificate, Hashes, KindFacts } from './certificate-parts.tsx';
import { loadCertificate } from './view.server.ts';
import { IssuerBlock, SheetFoot } from './certificate-sheet.tsx';
import { sheetFacts } from './certificate-sheet.server.ts';
import { useAppUrl } from '../lib/base-path.ts';

export const handle = { lang: 'en' };

export const meta: Route.MetaFunction = ({ data: d }) => [
  { title: d ? `Electronic Data Preservation Certificate ${d.view.baoquan}` : 'Certificate' },
  { name: 'robots', content: 'noindex' },
];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { view, sth } = await loadCertificate(request, context, params.attestationId);
  return {
    view,
    sheet: await sheetFacts(request, context, view, sth, true),
  };
}

export default function EnglishAttestation({ loaderData }: Route.ComponentProps) {
  const appUrl = useAppUrl();
  const { view, sheet } = loaderData;
  const id = encodeURIComponent(view.baoquan);
  return (
    <section className="page certificate-page">
      <div className="print-only">
        <IssuerBlock view={view} english facts={sheet} />
      </div>
      <nav className="certificate-actions no-print" aria-label="Certificate actions">
        <a href={appUrl(`/English/attestation/${id}.pdf`)} className="button">
          PDF
        </a>
        <Link to={`/attestation/${id}`} className="button" lang="zh-CN" hrefLang="zh-CN">
          中文
        </Link>
      </nav>
      <DeletedNotice view={view} english />
      <EnglishCertificate view={view} />
      <KindFacts view={view} english />
      <h2 className="section-title">Verification</h2>
      <Hashes view={view} english />
      <div className="print-only">
        <SheetFoot view={view} english facts={sheet} />
      </div>
    </section>
  );
}
