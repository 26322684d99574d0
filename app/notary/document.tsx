/**
 * /notary/document/{orderId}/{docType}: the A4 print view of one of the four documents of a notarisation order
 * (step 2, decision 034: 1 公证申请表, 2 公证告知书, 3 承诺书, 4 授权委托书), made from what the order saved (the applicant,
 * the application, the evidences) with the user's default seal placed at the signature, or the applicant's name
 * when they have none. The owner can open it in the browser to read it before signing; the signature step prints
 * the same view with the owner's own session to a PDF the platform signs (PAdES). No top bar, no script; the
 * Chinese text set in Noto Sans SC (shipped with the app) so the PDF embeds it. Another user's order answers 404.
 */
import '@fontsource/noto-sans-sc/400.css';
import '@fontsource/noto-sans-sc/700.css';
import { data } from 'react-router';
import type { Route } from './+types/document';
import { ApiCode, isSuccess } from '../../contract/envelope.ts';
import { NotaryPaths, type NotaryDocumentData } from '../../contract/notary.ts';
import { NOTARY_DOCUMENTS, NotaryMsg } from '../../contract/notary-codes.ts';
import { formatBeijing } from '../../contract/time.ts';
import { authedCall } from '../lib/auth.server.ts';
import { authorisationParagraphs, noticeParagraphs, undertakingParagraphs } from './document-texts.ts';
import { notFound, orderIdOf } from './notary.server.ts';
import { useAppUrl } from '../lib/base-path.ts';

export const handle = { bare: true };

export const meta: Route.MetaFunction = ({ data: d }) => [
  { title: d ? `${d.title} ${d.doc.orderNo}` : '公证文书' },
];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const orderId = orderIdOf(params);
  const docType = Number(params.docType);
  const meta = NOTARY_DOCUMENTS.find((d) => d.type === docType);
  if (!meta) throw notFound(NotaryMsg.documentNotFound);
  const res = await authedCall<NotaryDocumentData>(request, context, NotaryPaths.documentData, {
    query: { orderId },
  });
  if (Number(res.code) === ApiCode.NOT_FOUND) throw notFound(res.msg);
  if (!isSuccess(res.code)) throw data({ message: res.msg }, { status: 400 });
  return {
    doc: res.data,
    docType,
    title: meta.name,
    office: context.site.issuer.notaryOffice,
    // The date the document is signed: today in Beijing time.
    date: formatBeijing(Math.floor(Date.now() / 1000)).slice(0, 10),
  };
}

export default function NotaryDocument({ loaderData }: Route.ComponentProps) {
  const { doc, docType, title, office, date } = loaderData;
  return (
    <article className="print-sheet notary-document" data-testid="notary-document">
      <header className="notary-document-head">
        <h1>{title}</h1>
        <p className="muted">
          订单编号：<span className="mono">{doc.orderNo}</span>
          {'\u3000'}公证事项：{doc.typeName}
        </p>
      </header>
      {docType === 1 ? <ApplicationBody doc={doc} office={office} /> : null}
      {docType === 2 ? <Paragraphs items={noticeParagraphs(office)} /> : null}
      {docType === 3 ? <Paragraphs items={undertakingParagraphs(office)} /> : null}
      {docType === 4 ? (
        <>
          <Paragraphs items={authorisationParagraphs(office)} />
          <Evidences doc={doc} />
        </>
      ) : null}
      <SignatureBlock doc={doc} date={date} docType={docType} />
    </article>
  );
}

function Paragraphs({ items }: { items: string[] }) {
  return (
    <div className="notary-document-body">
      {items.map((p) => (
        <p key={p}>{p}</p>
      ))}
    </div>
  );
}

function ApplicationBody({ doc, office }: { doc: NotaryDocumentData; office: string }) {
  const f = doc.form;
  const rows: [string, string][] = [
    [doc.applicant.kind === 'enterprise' ? '申请单位' : '申请人', doc.applicant.name],
    [doc.applicant.kind === 'enterprise' ? '统一社会信用代码' : '身份证号码', doc.applicant.idNumber],
    ['联系电话', doc.mobile],
    ['受理机构', office],
    ['公证事项', doc.typeName],
    ['公证用途', f.purpose],
    ['使用地', f.usePlace],
    ['公证书份数', `${f.copies}份`],
    ['收件人', `${f.recipient}\u3000${f.phoneNumber}`],
    ['收件地址', `${f.region} ${f.address}`],
    ['备注', f.remark || '无'],
    ['申请时间', doc.addTime],
  ];
  return (
    <>
      <table className="notary-document-table">
        <tbody>
          {rows.map(([k, v]) => (
            <tr key={k}>
              <th scope="row">{k}</th>
              <td>{v}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Evidences doc={doc} />
    </>
  );
}

function Evidences({ doc }: { doc: NotaryDocumentData }) {
  return (
    <>
      <h2>申请公证的电子数据（共{doc.evidences.length}项）</h2>
      <table className="notary-document-table">
        <thead>
          <tr>
            <th scope="col">保全编号</th>
            <th scope="col">证据名称</th>
            <th scope="col">保全时间</th>
            <th scope="col">SHA-256</th>
          </tr>
        </thead>
        <tbody>
          {doc.evidences.map((e) => (
            <tr key={e.baoquan}>
              <td className="mono">{e.baoquan}</td>
              <td>{e.title}</td>
              <td>{e.saveTime}</td>
              <td className="mono">{e.fileHash}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function SignatureBlock({ doc, date, docType }: { doc: NotaryDocumentData; date: string; docType: number }) {
  const appUrl = useAppUrl();
  const who = docType === 4 ? '委托人' : doc.applicant.kind === 'enterprise' ? '申请单位' : '申请人';
  return (
    <footer className="notary-signature" data-testid="notary-signature">
      <p>
        {who}（签章）：
        {doc.seal ? (
          <img src={appUrl(doc.seal)} alt={`${doc.applicant.name}的签章`} className="notary-seal" />
        ) : (
          <span className="notary-typed-name">{doc.applicant.name}</span>
        )}
      </p>
      <p>日期：{date}</p>
    </footer>
  );
}
