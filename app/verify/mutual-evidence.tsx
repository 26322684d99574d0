/**
 * /queryAuthentication/mutualEvidence: 账本一致性 — anyone holding an earlier signed tree head (the tree size and
 * root printed on a certificate, or `sth` in a package's proof.json) checks that today's ledger extends it: nothing
 * recorded before was changed or removed (RFC 9162 consistency proof, verified on the gateway).
 */
import { data, Form } from 'react-router';
import type { Route } from './+types/mutual-evidence';
import { checkConsistency } from './consistency.server.ts';
import { NotFound } from './result.tsx';
import { readForm } from '../lib/form-body.server.ts';

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request, context);
  const size = Number(String(form.get('treeSize') ?? '').trim());
  const root = String(form.get('rootHash') ?? '')
    .trim()
    .toLowerCase();
  if (!Number.isSafeInteger(size) || size < 1)
    return data({ error: '请填写正确的账本规模（正整数）' }, { status: 400 });
  if (!/^[0-9a-f]{64}$/.test(root)) return data({ error: '请填写64位十六进制的树根哈希' }, { status: 400 });
  const result = await checkConsistency(context, size, root);
  if (!result.ok) return data({ error: result.error }, { status: 400 });
  return {
    error: null,
    size,
    treeSize: result.sth.treeSize,
    rootHash: result.sth.rootHash,
    proofLength: result.proofLength,
  };
}

export default function MutualEvidence({ actionData: result }: Route.ComponentProps) {
  return (
    <>
      <p className="lead">
        填写您早先保存的账本规模和树根哈希（见证书“账本证明”或证据包 proof.json 中的
        sth），核对账本此后只增未改。
      </p>
      <Form method="post" className="card" noValidate>
        <div className="field">
          <label htmlFor="treeSize">账本规模</label>
          <input id="treeSize" name="treeSize" type="text" inputMode="numeric" />
        </div>
        <div className="field">
          <label htmlFor="rootHash">树根哈希</label>
          <input id="rootHash" name="rootHash" type="text" className="mono" maxLength={64} />
        </div>
        <button type="submit" className="button primary">
          核对
        </button>
      </Form>
      {result?.error ? <NotFound text={result.error} /> : null}
      {result && !result.error && 'treeSize' in result ? (
        <p className="form-notice" role="status" data-testid="consistency-ok">
          一致：当前账本（{result.treeSize} 条记录，树根 {result.rootHash}）包含您保存的前 {result.size}{' '}
          条记录且未被改写； 一致性证明含 {result.proofLength} 个节点，签名树头已用账本公钥验证。
        </p>
      ) : null}
    </>
  );
}
