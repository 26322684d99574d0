/**
 * The product's certificate page (app/certificate/attestation.tsx) as a visitor without a session sees it, as a bare
 * React Router page: the same document from the product's own presentational components (certificate-parts.tsx,
 * certificate-sheet.tsx) and the same page work — one call for the evidence (`GET /api/share/getView?baoquan=&sth=1`
 * on the platform at UPSTREAM_URL, as JSON), its HTML sanitised, its QR code drawn (both cached as the product does),
 * its ledger proof summarised — behind a signed cookie session and a CSRF cookie (visitor.server.ts). Without the
 * product's machinery: no upstream wrapper, time-outs, request ids, user info, logging or security headers.
 * `npm run bench` serves it as `/attestation/{baoquan}`, the reference of the certificate page row (decision 032).
 */
import { Form, Link, useLoaderData } from 'react-router';
import type { EvidenceView } from '../../../../contract/evidence-codes.ts';
import {
  CertificateBody,
  DeletedNotice,
  Hashes,
  KindFacts,
} from '../../../../app/certificate/certificate-parts.tsx';
import { IssuerBlock, SheetFoot } from '../../../../app/certificate/certificate-sheet.tsx';
import { certificateData } from '../certificate.server.ts';
import { handle, links } from './login.tsx';

export { handle, links };

export async function loader({ request, params }: { request: Request; params: { baoquan?: string } }) {
  return certificateData(request, params.baoquan ?? '', true);
}

export function meta({ data: d }: { data?: { view: EvidenceView } }) {
  return [
    { title: `电子数据保全证书 ${d?.view.baoquan ?? ''} - 存证云` },
    { name: 'robots', content: 'noindex' },
  ];
}

export default function Certificate() {
  const { view, sheet, csrf } = useLoaderData<typeof loader>();
  const pdf = `/attestation/${encodeURIComponent(view.baoquan)}.pdf`;
  return (
    <section className="page certificate-page">
      <div className="print-only">
        <IssuerBlock view={view} english={false} facts={sheet} />
      </div>
      <nav className="certificate-actions no-print" aria-label="证书操作">
        <a href={pdf} className="button">
          打印证书
        </a>
        <a href={pdf} className="button" download>
          下载PDF
        </a>
        <Link to={`/English/attestation/${encodeURIComponent(view.baoquan)}`} className="button">
          English
        </Link>
      </nav>
      <DeletedNotice view={view} />
      <CertificateBody view={view} />
      <KindFacts view={view} />
      <div className="no-print">
        <h2 className="section-title">核验信息</h2>
        <p className="muted">
          使用任意 SHA-256
          工具计算原始文件的哈希值，与下方“文件SHA256”比对一致，即可证明文件自保全以来未被修改。
        </p>
        <Hashes view={view} />
      </div>
      <div className="print-only">
        <SheetFoot view={view} english={false} facts={sheet} />
      </div>
      <section className="download-box" aria-labelledby="download-title">
        <h2 id="download-title">下载证据</h2>
        <Form method="post" reloadDocument className="inline-form" noValidate>
          <input type="hidden" name="csrf" value={csrf} />
          <input type="hidden" name="intent" value="code" />
          <label htmlFor="code">提取码</label>
          <input
            id="code"
            name="code"
            type="text"
            maxLength={30}
            autoComplete="off"
            placeholder="请输入证据所有人提供的提取码"
          />
          <button type="submit" className="button primary">
            提取下载
          </button>
        </Form>
        <p className="muted">
          您是证据所有人？
          <Link to={`/login?redirect=${encodeURIComponent(`/attestation/${view.baoquan}`)}`}>登录</Link>
          后可直接下载。
        </p>
      </section>
    </section>
  );
}
