/** How a found evidence is shown on the verification pages. */
import { Link } from 'react-router';
import { fileTypeLabel, fileTypeLabelEn } from '../../contract/evidence-codes.ts';
import type { PublicEvidence } from '../../contract/verify.ts';
import { explorerPath } from '../ledger/explorer-path.ts';

const KIND: Record<PublicEvidence['kind'], string> = {
  file: '文件保全',
  hash: '哈希保全',
  property: '用户数据保全',
  app: '移动取证',
  web: '网页取证',
  process: '过程取证',
  music: '音乐作品保全',
};

/** The kinds in English (the /English pages, decision 028). */
const KIND_EN: Record<PublicEvidence['kind'], string> = {
  file: 'File preservation',
  hash: 'Hash preservation',
  property: 'User data preservation',
  app: 'App capture',
  web: 'Web capture',
  process: 'Process capture',
  music: 'Music work',
};

export function EvidenceResult({
  evidence,
  english = false,
}: {
  evidence: PublicEvidence;
  english?: boolean;
}) {
  return (
    <article className="verify-result" data-testid="verify-result">
      <dl className="facts">
        <dt>{english ? 'Preservation No.' : '保全编号'}</dt>
        <dd className="mono">{evidence.baoquan}</dd>
        <dt>{english ? 'Title' : '证据名称'}</dt>
        <dd>{evidence.title}</dd>
        <dt>{english ? 'Kind' : '保全方式'}</dt>
        <dd>
          {english
            ? `${KIND_EN[evidence.kind]} · ${fileTypeLabelEn(evidence.fileType)}`
            : `${KIND[evidence.kind]} · ${fileTypeLabel(evidence.fileType)}`}
        </dd>
        <dt>{english ? 'Preserved at' : '保全时间'}</dt>
        <dd>{english ? `${evidence.saveTime} (UTC+8)` : evidence.saveTime}</dd>
        <dt>{english ? 'File SHA-256' : '文件SHA256'}</dt>
        <dd className="mono hash">{evidence.filehash}</dd>
        <dt>{english ? 'Ledger transaction hash' : '链上交易哈希'}</dt>
        <dd className="mono hash">
          <Link to={explorerPath(evidence.chainhash, evidence.baoquan)}>{evidence.chainhash}</Link>
        </dd>
      </dl>
      {evidence.deletedAt ? (
        <p className="form-notice notice-deleted">
          {english
            ? `Data deleted by the owner on ${evidence.deletedAt}.`
            : `证据数据已由所有人于 ${evidence.deletedAt} 删除。`}
        </p>
      ) : null}
      <p>
        <Link to={`${english ? '/English' : ''}/attestation/${encodeURIComponent(evidence.baoquan)}`}>
          {english ? 'Open the certificate' : '查看保全证书'}
        </Link>
      </p>
    </article>
  );
}

export function NotFound({ text }: { text: string }) {
  return (
    <p className="form-error" role="alert" data-testid="verify-none">
      {text}
    </p>
  );
}
