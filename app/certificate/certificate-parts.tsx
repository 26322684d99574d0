/**
 * Pieces every certificate view shares (Chinese, English, print, mobile): the platform's certificate body, the
 * English certificate (facts and statement per evidence kind, decision 028), the verification hashes (chain
 * transaction hash links to our ledger explorer; the hash is named for what it was computed over), and the
 * kind-specific facts of spec 01 §2.3: app-capture device info, user-data row count and field names with example
 * values (≤ 10 characters).
 */
import { Link } from 'react-router';
import {
  captureShotPath,
  type EvidenceView,
  fileTypeLabelEn,
  packageContents,
} from '../../contract/evidence-codes.ts';
import { formatBytes } from '../../contract/messages.ts';
import { useAppUrl } from '../lib/base-path.ts';
import { explorerPath } from '../ledger/explorer-path.ts';

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
      {view.capture?.shots ? <CaptureShots view={view} english={english} /> : null}
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

/**
 * A capture's screenshots (decision 039): each page (web) or step (process) as the browser showed it, from the
 * preserved WACZ, printed with the certificate. A process capture's owner gets the link to its video.
 */
function CaptureShots({ view, english }: { view: EvidenceView; english: boolean }) {
  const appUrl = useAppUrl();
  const what = view.kind === 'process' ? (english ? 'Step' : '步骤') : english ? 'Page' : '网页';
  const shots = Array.from({ length: view.capture?.shots ?? 0 }, (_, i) => i + 1);
  return (
    <section className="kind-facts capture-shots" aria-labelledby="capture-shots">
      <h2 id="capture-shots" className="section-title">
        {english ? 'Screenshots' : '取证截图'}
      </h2>
      {shots.map((n) => (
        <figure key={n}>
          <img
            src={appUrl(captureShotPath(view.baoquan, n))}
            alt={english ? `${what} ${n} as captured` : `${what} ${n} 截图`}
            data-testid="capture-shot"
          />
          <figcaption>{english ? `${what} ${n}` : `第 ${n} 个${what}`}</figcaption>
        </figure>
      ))}
      {view.capture?.video && view.isSelf === 1 ? (
        <p className="no-print">
          <Link to={`/evidences-all/process/preview?baoquan=${encodeURIComponent(view.baoquan)}`}>
            {english ? 'Watch the recording' : '观看取证录像'}
          </Link>
        </p>
      ) : null}
    </section>
  );
}

/** What the evidence hash was computed over: the file, the file as the user stated it, or data.csv. */
export function hashLabel(kind: EvidenceView['kind'], english = false): string {
  if (kind === 'hash') return english ? 'File SHA-256 (submitted by the user)' : '文件SHA256（用户提交）';
  if (kind === 'property') return english ? 'Data SHA-256 (data.csv)' : '数据SHA256（data.csv）';
  return english ? 'File SHA-256' : '文件SHA256';
}

export function Hashes({ view, english = false }: { view: EvidenceView; english?: boolean }) {
  return (
    <dl className="facts hashes">
      <dt>{hashLabel(view.kind, english)}</dt>
      <dd className="mono hash" data-testid="filehash">
        {view.filehash}
      </dd>
      <dt>{english ? 'Ledger transaction hash' : '链上交易哈希'}</dt>
      <dd className="mono hash">
        <Link to={explorerPath(view.chainhash, view.baoquan)} data-testid="chainhash">
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

const KIND_EN: Record<EvidenceView['kind'], string> = {
  file: 'File preservation',
  hash: 'Hash preservation',
  property: 'User data preservation',
  app: 'App capture',
  web: 'Web capture',
  process: 'Process capture',
  music: 'Music work',
};

/** The English facts of the kind (the platform's certificate body is Chinese only). */
function englishFacts(view: EvidenceView): [string, string][] {
  const size = `${formatBytes(view.fileSize)} (${view.fileSize} bytes)`;
  if (view.kind === 'hash') {
    return [
      ...(view.fileName ? ([['File name (stated by the user)', view.fileName]] as [string, string][]) : []),
      ...(view.fileSize > 0 ? ([['Size (stated by the user)', size]] as [string, string][]) : []),
      [
        'Type',
        view.fileName
          ? `${fileTypeLabelEn(view.fileType)} (inferred from the stated name, unverified)`
          : 'Other',
      ],
    ];
  }
  if (view.kind === 'property') {
    return [
      ['Data format', 'CSV (UTF-8, RFC 4180, header row first)'],
      ['Rows', `${view.userData?.line ?? 0} (header excluded)`],
      ['Size', size],
    ];
  }
  return [
    ['File name', view.fileName || '-'],
    ['Size', size],
    ['Type', fileTypeLabelEn(view.fileType)],
  ];
}

/** The English statement of the kind: what the platform received, and how anyone re-checks it. */
export function englishStatement(kind: EvidenceView['kind']): string {
  if (kind === 'hash') {
    return (
      'The platform received only the SHA-256 hash submitted by the user, never the file itself; the name, size ' +
      'and type above are as the user stated them and prove nothing about the content. The hash was recorded in a ' +
      'tamper-evident append-only ledger at the time stated. Anyone holding the original file can recompute its ' +
      'SHA-256 and compare it with the value below: a match shows the file existed then and is unchanged since.'
    );
  }
  if (kind === 'property') {
    return (
      'This certifies that the platform received the user data above at the time stated, normalised it as CSV ' +
      '(UTF-8, RFC 4180, field names in the first row), computed the SHA-256 of that CSV and recorded it in a ' +
      'tamper-evident append-only ledger. Anyone can recompute the SHA-256 of the downloaded data.csv and compare ' +
      'it with the value below.'
    );
  }
  return (
    'This certifies that the platform received and preserved the electronic data above at the time stated, ' +
    'computed its SHA-256 hash and recorded it in a tamper-evident append-only ledger. Anyone can recompute the ' +
    'SHA-256 of the original file and compare it with the value below.'
  );
}

/**
 * The certificate in English (spec 01 §2.3 English page; its print view with `withHashes`): number, title, kind,
 * the kind's facts, time, what the package holds (not for deleted data), and the kind's statement.
 */
export function EnglishCertificate({
  view,
  withHashes = false,
}: {
  view: EvidenceView;
  withHashes?: boolean;
}) {
  const rows: [string, string][] = [
    ['Preservation No.', view.baoquan],
    ['Title', view.title],
    ['Kind', KIND_EN[view.kind]],
    ...englishFacts(view),
    ['Preserved at', `${view.saveTime} (UTC+8)`],
    ...(withHashes
      ? ([
          [hashLabel(view.kind, true), view.filehash],
          ['Ledger transaction hash', view.chainhash],
        ] as [string, string][])
      : []),
    ...(view.deletedAt
      ? []
      : ([['Package contents', packageContents(view.kind, true)]] as [string, string][])),
  ];
  return (
    <article className="certificate-body cz-certificate" data-testid="english-certificate">
      <h1>Electronic Data Preservation Certificate</h1>
      <table className="cz-certificate-facts">
        <tbody>
          {rows.map(([k, v]) => (
            <tr key={k}>
              <th scope="row">{k}</th>
              <td className={/SHA-256|hash/.test(k) ? 'mono cz-hash' : undefined}>{v}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="cz-certificate-statement">{englishStatement(view.kind)}</p>
    </article>
  );
}
