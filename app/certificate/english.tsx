/**
 * /English/attestation/{id}: the certificate in English (spec 01 §2.3). The facts come from the evidence view; the
 * platform's Chinese certificate body is not repeated. Download and extraction stay on the Chinese page.
 */
import { Link } from 'react-router';
import type { Route } from './+types/english';
import { fileTypeLabel } from '../../contract/evidence.ts';
import { formatBytes } from '../../contract/messages.ts';
import { DeletedNotice, Hashes, KindFacts } from './certificate-parts.tsx';
import { loadView } from './view.server.ts';

const TYPE_EN: Record<number, string> = { 1: 'Document', 2: 'Image', 3: 'Audio', 4: 'Video', 5: 'Other' };

export const meta: Route.MetaFunction = ({ data: d }) => [
  { title: d ? `Electronic Data Preservation Certificate ${d.view.baoquan}` : 'Certificate' },
  { name: 'robots', content: 'noindex' },
];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  return { view: await loadView(request, context, params.attestationId) };
}

export default function EnglishAttestation({ loaderData }: Route.ComponentProps) {
  const { view } = loaderData;
  const id = encodeURIComponent(view.baoquan);
  return (
    <section className="page certificate-page" lang="en">
      <nav className="certificate-actions" aria-label="Certificate actions">
        <a href={`/English/attestation/${id}.pdf`} className="button">
          PDF
        </a>
        <Link to={`/attestation/${id}`} className="button" lang="zh-CN">
          中文
        </Link>
      </nav>
      <DeletedNotice view={view} english />
      <article className="certificate-body cz-certificate">
        <h1>Electronic Data Preservation Certificate</h1>
        <table className="cz-certificate-facts">
          <tbody>
            <tr>
              <th scope="row">Preservation No.</th>
              <td>{view.baoquan}</td>
            </tr>
            <tr>
              <th scope="row">Title</th>
              <td>{view.title}</td>
            </tr>
            <tr>
              <th scope="row">File name</th>
              <td>{view.fileName || '-'}</td>
            </tr>
            <tr>
              <th scope="row">Size</th>
              <td>
                {formatBytes(view.fileSize)} ({view.fileSize} bytes)
              </td>
            </tr>
            <tr>
              <th scope="row">Type</th>
              <td>{TYPE_EN[view.fileType] ?? fileTypeLabel(view.fileType)}</td>
            </tr>
            <tr>
              <th scope="row">Preserved at</th>
              <td>{view.saveTime} (UTC+8)</td>
            </tr>
          </tbody>
        </table>
        <p className="cz-certificate-statement">
          This certifies that the platform received and preserved the electronic data above at the time
          stated, computed its SHA-256 hash and recorded it in a tamper-evident append-only ledger. Anyone can
          recompute the SHA-256 of the original file and compare it with the value below.
        </p>
      </article>
      <KindFacts view={view} english />
      <h2 className="section-title">Verification</h2>
      <Hashes view={view} english />
    </section>
  );
}
