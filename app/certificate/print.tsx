/**
 * /attestation/{id}/print and /English/attestation/{id}/print: the A4 print view the gateway renders to PDF with
 * Chromium (decision 007) and that a browser can print directly. No top bar, no script needed; the Chinese text
 * is set in Noto Sans SC shipped as an npm package (@fontsource/noto-sans-sc) so the PDF embeds it. It carries a QR
 * code to the public certificate and the ledger proof summary. The English view is worded per evidence kind like
 * the English page (decision 028) and served as `<html lang="en">` (its loader's `lang`).
 */
import '@fontsource/noto-sans-sc/400.css';
import '@fontsource/noto-sans-sc/700.css';
import type { Route } from './+types/print';
import { CertificateBody, DeletedNotice, EnglishCertificate, KindFacts } from './certificate-parts.tsx';
import { loadProofSummary } from './ledger-proof.server.ts';
import { loadView, qrDataUri } from './view.server.ts';

export const handle = { bare: true };

export const meta: Route.MetaFunction = ({ data: d }) => [{ title: d ? `${d.view.baoquan}` : 'certificate' }];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const view = await loadView(request, context, params.attestationId);
  const english = new URL(request.url).pathname.startsWith('/English/');
  const origin = process.env.PUBLIC_URL?.replace(/\/$/, '') || new URL(request.url).origin;
  const certificateUrl = `${origin}${english ? '/English' : ''}/attestation/${encodeURIComponent(view.baoquan)}`;
  return {
    view,
    english,
    // The root layout's <html lang> (print views are bare documents): the English print is English.
    lang: english ? 'en' : 'zh-CN',
    certificateUrl,
    qr: await qrDataUri(certificateUrl),
    proof: await loadProofSummary(context, view.baoquan),
  };
}

export default function PrintCertificate({ loaderData }: Route.ComponentProps) {
  const { view, english, certificateUrl, qr, proof } = loaderData;
  return (
    <div className="print-sheet" lang={english ? 'en' : 'zh-CN'}>
      {english ? <EnglishCertificate view={view} withHashes /> : <CertificateBody view={view} />}
      <DeletedNotice view={view} english={english} />
      <KindFacts view={view} english={english} />
      <section className="print-proof">
        <div>
          <h2>{english ? 'Ledger proof' : '账本证明'}</h2>
          {proof ? (
            <dl className="facts">
              <dt>{english ? 'Leaf index' : '叶子序号'}</dt>
              <dd>{proof.leafIndex}</dd>
              <dt>{english ? 'Tree size' : '账本规模'}</dt>
              <dd>{proof.treeSize}</dd>
              <dt>{english ? 'Root hash' : '树根哈希'}</dt>
              <dd className="mono hash">{proof.rootHash}</dd>
              <dt>{english ? 'Signed at' : '签名时间'}</dt>
              <dd>{proof.signedAt}</dd>
              <dt>{english ? 'Key ID' : '签名公钥'}</dt>
              <dd className="mono hash">{proof.keyId}</dd>
            </dl>
          ) : (
            <p>{english ? 'Ledger proof not available.' : '账本证明暂不可用。'}</p>
          )}
        </div>
        <figure className="qr">
          <img
            src={qr}
            alt={english ? 'Scan to open the certificate' : '扫码查看证书'}
            width={120}
            height={120}
          />
          <figcaption>{english ? 'Scan to verify online' : '扫码在线核验'}</figcaption>
          <figcaption className="mono small">{certificateUrl}</figcaption>
        </figure>
      </section>
    </div>
  );
}
