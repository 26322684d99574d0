/**
 * /ops/notary/:id/certificate: the notarial certificate (公证书) of an accepted order as an A4 print view
 * (docs/decisions/034-notary.md). The office's 出证 prints it as the operator (their console session) to a
 * signed PDF and uploads it (app/ops/notary/detail.tsx); a browser can print it too. Bare (no console frame, no
 * script); the Chinese text is set in Noto Sans SC shipped as an npm package so the PDF embeds it, as the evidence
 * certificate's print view does. Only an order in progress (accepted, not yet issued) has one: any other answers 404,
 * so a certificate is never printed for an order the office has not accepted, nor printed again once issued.
 */
import '@fontsource/noto-sans-sc/400.css';
import '@fontsource/noto-sans-sc/700.css';
import '../../styles/notarial-certificate.css';
import { data } from 'react-router';
import type { Route } from './+types/certificate';
import { Notarial } from '../../../contract/notary-codes.ts';
import { NotaryOpsMsg, NotaryOpsPaths, type NotaryOpsDetail } from '../../../contract/notary-office-codes.ts';
import { formatBeijing } from '../../../contract/time.ts';
import { opsData, requireOperator } from '../ops.server.ts';
import { chineseDate } from './labels.ts';

export const handle = { bare: true };

export const meta: Route.MetaFunction = ({ data: d }) => [
  { title: d ? `公证书 ${d.certificateNo}` : '公证书' },
];

/** Where anyone checks a notarial certificate by its number (app/verify/notarial.tsx). */
const CHECK_PATH = '/queryAuthentication/notarial';

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const notFound = () => data({ message: NotaryOpsMsg.notFound }, { status: 404 });
  if (!/^[1-9]\d{0,14}$/.test(params.id)) throw notFound();
  await requireOperator(request, context);
  const d = await opsData<NotaryOpsDetail>(request, context, NotaryOpsPaths.detail, {
    method: 'GET',
    query: { id: Number(params.id) },
  });
  const { order, applicant } = d;
  // Accepted and not yet issued (nor terminated): the only state a certificate is printed in.
  if (order.notarial !== Notarial.inProgress || !order.certificateNo || !applicant) throw notFound();
  const { issuer } = context.site;
  return {
    certificateNo: order.certificateNo,
    typeName: order.typeName,
    orderDate: chineseDate(order.addTime),
    applicant,
    evidences: d.evidences.map((e) => ({
      id: e.id,
      baoquan: e.baoquan,
      title: e.title,
      name: e.name,
      saveTime: e.saveTime,
      fileHash: e.fileHash,
    })),
    office: issuer.notaryOffice,
    operator: issuer.operator,
    // Today in Beijing time: the day the certificate is issued.
    issuedOn: chineseDate(formatBeijing(Math.floor(Date.now() / 1000))),
  };
}

export default function NotarialCertificate({ loaderData: c }: Route.ComponentProps) {
  const enterprise = c.applicant.kind === 'enterprise';
  const applied =
    `兹证明，申请人${c.applicant.name}于${c.orderDate}向本处申请办理${c.typeName}，` +
    `请求对其在${c.operator}平台保全的下列电子数据（共${c.evidences.length}项）予以公证。`;
  const verified =
    '经审查，申请人已签署公证申请表、公证告知书、承诺书及授权委托书，并授权本处读取下列电子数据。' +
    `本处已将下列电子数据的SHA-256哈希值与${c.operator}平台账本中的保全记录逐一核对，结果一致，` +
    '该等电子数据自保全之时起未被修改。';
  return (
    <article className="notarial-certificate" data-testid="notarial-certificate">
      <h1>公证书</h1>
      <p className="nc-number" data-testid="notarial-certificate-no">
        {c.certificateNo}
      </p>
      <table className="nc-facts">
        <tbody>
          <tr>
            <th scope="row">申请人</th>
            <td>{c.applicant.name}</td>
          </tr>
          {c.applicant.idNumber ? (
            <tr>
              <th scope="row">{enterprise ? '统一社会信用代码' : '公民身份号码'}</th>
              <td className="nc-mono">{c.applicant.idNumber}</td>
            </tr>
          ) : null}
          <tr>
            <th scope="row">公证事项</th>
            <td>{c.typeName}</td>
          </tr>
        </tbody>
      </table>
      <p className="nc-text">{applied}</p>
      <p className="nc-text">{verified}</p>
      <table className="nc-evidences">
        <caption>公证的电子数据</caption>
        <colgroup>
          <col className="nc-col-no" />
          <col className="nc-col-baoquan" />
          <col className="nc-col-title" />
          <col className="nc-col-time" />
          <col className="nc-col-hash" />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">序号</th>
            <th scope="col">保全编号</th>
            <th scope="col">证据名称 / 文件名</th>
            <th scope="col">保全时间</th>
            <th scope="col">SHA-256</th>
          </tr>
        </thead>
        <tbody>
          {c.evidences.map((e, i) => (
            <tr key={e.id} data-testid="notarial-certificate-evidence">
              <td>{i + 1}</td>
              <td className="nc-mono">{e.baoquan}</td>
              <td>
                {e.title}
                {e.name ? <div className="nc-file">{e.name}</div> : null}
              </td>
              <td>{e.saveTime}</td>
              <td className="nc-mono nc-hash">{e.fileHash}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="nc-sign">
        <p>{c.office}</p>
        <p>{c.issuedOn}</p>
      </div>
      <p className="nc-check">本公证书可在 {CHECK_PATH} 按编号核验。</p>
    </article>
  );
}
