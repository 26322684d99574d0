/**
 * /chain/tx/{hash}[?baoquan=]: the public ledger explorer the certificate's chain transaction hash links to (spec 01
 * §2.3, decision 005): the entry's leaf, the inclusion proof and the signed tree head, with the public key to check
 * it, and its record when `baoquan` is the evidence's preservation number (the certificate's link carries it).
 * Without it, a form asks for the number (GET, no JavaScript needed); a wrong one says so (decision 035).
 */
import { data, Form, Link } from 'react-router';
import type { Route } from './+types/chain-tx';
import { isSuccess } from '../../contract/envelope.ts';
import { type LedgerEntryView, LedgerPaths, type LedgerPublicKey } from '../../contract/ledger.ts';
import { apiCall } from '../lib/api.server.ts';
import { beijingTime } from '../certificate/ledger-proof.server.ts';
import { useAppUrl } from '../lib/base-path.ts';

export const meta: Route.MetaFunction = ({ params }) => [
  { title: `账本记录 ${params.hash.slice(0, 12)}… - 存证云` },
];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (!/^[0-9a-f]{64}$/i.test(params.hash)) throw data({ message: 'not found' }, { status: 404 });
  const baoquan = (new URL(request.url).searchParams.get('baoquan') ?? '').trim().slice(0, 64);
  const [entry, key] = await Promise.all([
    apiCall<LedgerEntryView>(context, LedgerPaths.entry, {
      query: { hash: params.hash.toLowerCase(), ...(baoquan ? { baoquan } : {}) },
    }),
    apiCall<LedgerPublicKey>(context, LedgerPaths.publicKey),
  ]);
  if (Number(entry.code) === 404) throw data({ message: entry.msg }, { status: 404 });
  if (!isSuccess(entry.code)) throw data({ message: entry.msg }, { status: 502 });
  return {
    entry: entry.data,
    key: isSuccess(key.code) ? key.data : null,
    signedAt: beijingTime(entry.data.sth.timestamp),
    savedAt: entry.data.record ? beijingTime(entry.data.record.savedAt * 1000) : null,
    /** A number was given and it is not this record's. */
    wrongNumber: baoquan !== '' && entry.data.record === null,
  };
}

export default function ChainTx({ loaderData }: Route.ComponentProps) {
  const appUrl = useAppUrl();
  const { entry, key, signedAt, savedAt, wrongNumber } = loaderData;
  const { record } = entry;
  return (
    <section className="page">
      <h1>账本记录</h1>
      <dl className="facts">
        <dt>交易哈希（叶子哈希）</dt>
        <dd className="mono hash" data-testid="leaf-hash">
          {entry.leafHash}
        </dd>
        <dt>叶子序号</dt>
        <dd>{entry.leafIndex}</dd>
        {record ? (
          <>
            <dt>保全编号</dt>
            <dd>
              <Link to={`/attestation/${encodeURIComponent(record.baoquan)}`}>{record.baoquan}</Link>
            </dd>
            <dt>文件SHA256</dt>
            <dd className="mono hash">{record.sha256}</dd>
            <dt>记录时间</dt>
            <dd>{savedAt}</dd>
          </>
        ) : null}
      </dl>
      <h2 className="section-title">记录原文（叶子哈希 = SHA-256(0x00 ‖ 原文)）</h2>
      {entry.recordCanonical !== null ? (
        <pre className="code-block">{entry.recordCanonical}</pre>
      ) : (
        <>
          {wrongNumber ? (
            <p className="form-error" role="alert">
              保全编号与该记录不符。
            </p>
          ) : null}
          <p className="muted">
            记录原文含保全编号，仅向持有保全编号的人显示：请从证书页打开，或输入保全编号。
          </p>
          <Form method="get" className="inline-form">
            <label htmlFor="record-baoquan">保全编号</label>
            <input id="record-baoquan" name="baoquan" type="text" className="mono" maxLength={64} required />
            <button type="submit" className="button">
              显示记录原文
            </button>
          </Form>
        </>
      )}
      <h2 className="section-title">包含证明（RFC 9162）</h2>
      {entry.inclusionProof.length === 0 ? (
        <p className="muted">该记录即为树根，无需中间节点。</p>
      ) : (
        <ol className="mono proof-list">
          {entry.inclusionProof.map((h, i) => (
            <li key={`${i}-${h}`}>{h}</li>
          ))}
        </ol>
      )}
      <h2 className="section-title">签名树头</h2>
      <dl className="facts">
        <dt>账本规模</dt>
        <dd>{entry.sth.treeSize}</dd>
        <dt>树根哈希</dt>
        <dd className="mono hash">{entry.sth.rootHash}</dd>
        <dt>签名时间</dt>
        <dd>{signedAt}</dd>
        <dt>签名（Ed25519）</dt>
        <dd className="mono hash">{entry.sth.signature}</dd>
        <dt>公钥标识</dt>
        <dd className="mono hash">{entry.sth.keyId}</dd>
      </dl>
      {key ? (
        <details>
          <summary>账本公钥（PEM）</summary>
          <pre className="code-block">{key.pem}</pre>
          <p>
            <a href={appUrl('/.well-known/cunzheng-ledger-key.pem')}>下载公钥</a>
          </p>
        </details>
      ) : null}
    </section>
  );
}
