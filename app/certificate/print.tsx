/**
 * /attestation/{id}/print and /English/attestation/{id}/print: the A4 print view the gateway renders to PDF with
 * Chromium (decision 007) and signs (PAdES, decision 029), and that a browser can print directly. No top bar, no
 * script needed; the Chinese text is set in Noto Sans SC shipped as an npm package (@fontsource/noto-sans-sc) so
 * the PDF embeds it. The sheet itself (issuer, certificate, proof, QR code, seal) is certificate-sheet.tsx. The
 * English view is worded per evidence kind like the English page (decision 028) and served as `<html lang="en">`.
 */
import '@fontsource/noto-sans-sc/400.css';
import '@fontsource/noto-sans-sc/700.css';
import type { Route } from './+types/print';
import { CertificateSheet } from './certificate-sheet.tsx';
import { sheetFacts } from './certificate-sheet.server.ts';
import { loadCertificate } from './view.server.ts';

export const handle = { bare: true };

export const meta: Route.MetaFunction = ({ data: d }) => [{ title: d ? `${d.view.baoquan}` : 'certificate' }];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { view, sth } = await loadCertificate(request, context, params.attestationId);
  const english = new URL(request.url).pathname.startsWith('/English/');
  return {
    view,
    english,
    // The root layout's <html lang> (print views are bare documents): the English print is English.
    lang: english ? 'en' : 'zh-CN',
    facts: await sheetFacts(request, context, view, sth, english),
  };
}

export default function PrintCertificate({ loaderData }: Route.ComponentProps) {
  const { view, english, facts } = loaderData;
  return <CertificateSheet view={view} english={english} facts={facts} />;
}
