/**
 * Pieces every certificate view shares (Chinese, English, print, mobile): the platform's certificate body, the
 * verification hashes (chain transaction hash links to our ledger explorer), and the kind-specific facts of
 * spec 01 §2.3: app-capture device info, user-data row count and field names with example values (≤ 10 characters).
 */
import { Link } from 'react-router';
import type { EvidenceView } from '../../contract/evidence.ts';

export function CertificateBody({ view }: { view: EvidenceView }) {
  return <article className="certificate-body" dangerouslySetInnerHTML={{ __html: view.html }} />;
}

/** Example values are cut to 10 characters (spec 01 §2.3). */
export function cut10(value: string): string {
  const chars = Array.from(value);
  return chars.length > 10 ? `${chars.slice(0, 10).join('')}…` : value;
}

export function KindFacts({ view, english = false }: { view: EvidenceView; english?: boolean }) {
  return (
    <>
      {view.isApp === 1 ? (
        <section className="kind-facts" aria-labelledby="app-facts">
          <h2 id="app-facts" className="section-title">
            {english ? 'Capture device' : '取证设备信息'}
          </h2>
          <dl className="facts">
            <dt>{english ? 'Forensic type' : '取证类型'}</dt>
            <dd>{view.appType || '-'}</dd>
            <dt>{english ? 'Device name' : '设备名称'}</dt>
            <dd>{view.configName || '-'}</dd>
            <dt>{english ? 'Model' : '设备型号'}</dt>
            <dd>{view.configModelName || '-'}</dd>
            <dt>{english ? 'System version' : '系统版本'}</dt>
            <dd>{view.configVersion || '-'}</dd>
            <dt>{english ? 'Processor' : '处理器'}</dt>
            <dd>{view.configProcessor || '-'}</dd>
            <dt>{english ? 'Kernel' : '内核'}</dt>
            <dd>{view.configCore || '-'}</dd>
          </dl>
        </section>
      ) : null}
      {view.userData ? (
        <section className="kind-facts" aria-labelledby="data-facts">
          <h2 id="data-facts" className="section-title">
            {english ? 'User data' : '数据内容'}
          </h2>
          <p>{english ? `${view.userData.line} rows` : `共 ${view.userData.line} 条数据`}</p>
          <table className="table" data-testid="user-data-fields">
            <thead>
              <tr>
                <th>{english ? 'Field' : '字段名称'}</th>
                <th>{english ? 'Example value' : '示例值'}</th>
              </tr>
            </thead>
            <tbody>
              {view.userData.fields.map((f) => (
                <tr key={f.fieldName}>
                  <td>{f.fieldName}</td>
                  <td>{cut10(f.exampleValue)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
    </>
  );
}

export function Hashes({ view, english = false }: { view: EvidenceView; english?: boolean }) {
  return (
    <dl className="facts hashes">
      <dt>{english ? 'File SHA-256' : '文件SHA256'}</dt>
      <dd className="mono hash" data-testid="filehash">
        {view.filehash}
      </dd>
      <dt>{english ? 'Ledger transaction hash' : '链上交易哈希'}</dt>
      <dd className="mono hash">
        <Link to={`/chain/tx/${view.chainhash}`} data-testid="chainhash">
          {view.chainhash}
        </Link>
      </dd>
    </dl>
  );
}

/** The deleted-data notice (decision 006: the ledger entry stays, the data went on that date). */
export function DeletedNotice({ view, english = false }: { view: EvidenceView; english?: boolean }) {
  if (!view.deletedAt) return null;
  return (
    <p className="form-notice notice-deleted" role="status">
      {english
        ? `The owner deleted the stored data on ${view.deletedAt}; the ledger record remains.`
        : `该证据数据已由所有人于 ${view.deletedAt} 删除，保全记录仍保留在存证账本中。`}
    </p>
  );
}
