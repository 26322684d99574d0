/**
 * The printed certificate (decision 029): the print view (/attestation/{id}/print, which the gateway prints to
 * the signed PDF) is {@link CertificateSheet}; the certificate pages show its {@link IssuerBlock} and
 * {@link SheetFoot} in print media only around their own certificate, so a browser's print carries what the PDF
 * does: issuer block (operator, cooperating notary office, certificate number, issue time with its zone), the
 * certificate, the kind's facts, the ledger proof summary, the QR code to the public certificate, and the signature
 * block with the platform's seal.
 */
import type { Issuer } from '../../contract/issuer.ts';
import type { EvidenceView } from '../../contract/evidence-codes.ts';
import { CertificateBody, DeletedNotice, EnglishCertificate, KindFacts } from './certificate-parts.tsx';
import type { ProofSummary } from './ledger-proof.server.ts';
import { Seal } from './seal.tsx';

/** What the sheet needs besides the view (`sheetFacts`, certificate-sheet.server.ts). */
export interface SheetFacts {
  certificateUrl: string;
  /** The QR code of `certificateUrl` as a data URI. */
  qr: string;
  proof: ProofSummary | null;
  issuer: Issuer;
  /** "YYYY-MM-DD HH:mm:ss", Beijing time: when this sheet was produced (the PDF's issue time). */
  issuedAt: string;
}

/** A configured name (operator, notary office) marked Chinese when it is, so English pages stay English around it. */
function Name({ value }: { value: string }) {
  return <span lang={/[\u3400-\u9fff]/.test(value) ? 'zh-CN' : undefined}>{value}</span>;
}

/** The issuer block at the head of the sheet: operator, notary office, certificate number, issue time. */
export function IssuerBlock({ view, english, facts }: SheetProps) {
  const { issuer, issuedAt } = facts;
  const rows: [string, React.ReactNode][] = english
    ? [
        ['Issued by', <Name value={issuer.operator} />],
        ['Notary office', <Name value={issuer.notaryOffice} />],
        ['Certificate No.', view.baoquan],
        ['Issued at', `${issuedAt} (Beijing time, UTC+8)`],
      ]
    : [
        ['出具机构', issuer.operator],
        ['合作公证机构', issuer.notaryOffice],
        ['证书编号', view.baoquan],
        ['出具时间', `${issuedAt}（北京时间，UTC+8）`],
      ];
  return (
    <dl className="print-issuer" data-testid="print-issuer">
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The foot of the sheet: ledger proof summary and QR code, then the signature statement with the seal. */
export function SheetFoot({ english, facts }: SheetProps) {
  const { certificateUrl, qr, proof, issuer, issuedAt } = facts;
  return (
    <>
      <section className="print-proof">
        <div>
          <h2>{english ? 'Ledger proof' : '账本证明'}</h2>
          {proof ? (
            // data-ledger-proof: the PDF renderer reads from the printed page that the summary is in it.
            <dl className="facts" data-ledger-proof="">
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
      <footer className="print-sign">
        <div className="print-seal">
          <Seal operator={issuer.operator} english={english} />
          <p>
            <Name value={issuer.operator} />
            <br />
            {issuedAt.slice(0, 10)}
          </p>
        </div>
        <p>
          {english ? (
            <>
              Issued by <Name value={issuer.operator} />. The PDF of this certificate carries the digital
              signature of <Name value={issuer.operator} /> (PAdES), which PDF readers show; scan the QR code
              or open the address above to verify it online.
            </>
          ) : (
            `本证书由${issuer.operator}出具。本证书的PDF文件附有${issuer.operator}的数字签名（PAdES），可用PDF阅读器查看；扫描二维码或访问上方地址可在线核验。`
          )}
        </p>
      </footer>
    </>
  );
}

interface SheetProps {
  view: EvidenceView;
  english: boolean;
  facts: SheetFacts;
}

/** The whole sheet (the print view): issuer block, certificate, facts of the kind, proof, QR code, seal. */
export function CertificateSheet(props: SheetProps) {
  const { view, english } = props;
  return (
    <div className="print-sheet" lang={english ? 'en' : 'zh-CN'}>
      <IssuerBlock {...props} />
      {english ? <EnglishCertificate view={view} withHashes /> : <CertificateBody view={view} />}
      <DeletedNotice view={view} english={english} />
      <KindFacts view={view} english={english} />
      <SheetFoot {...props} />
    </div>
  );
}
