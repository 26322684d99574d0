/**
 * /queryAuthentication/electronicData: open a ledger entry by its chain transaction hash (→ /chain/tx/{hash}), with
 * the evidence's preservation number, when given, to show the record too (decision 035, "Records by leaf hash").
 */
import { data, Form, redirect } from 'react-router';
import type { Route } from './+types/electronic-data';
import { NotFound } from './result.tsx';
import { readForm } from '../lib/form-body.server.ts';
import { explorerPath } from '../ledger/explorer-path.ts';

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request, context);
  const hash = String(form.get('hash') ?? '')
    .trim()
    .toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(hash))
    return data({ error: '请输入64位十六进制的链上交易哈希' }, { status: 400 });
  const baoquan = String(form.get('baoquan') ?? '').trim();
  return redirect(explorerPath(hash, baoquan.slice(0, 64) || null));
}

export default function ElectronicData({ actionData: result }: Route.ComponentProps) {
  return (
    <>
      <p className="lead">
        输入证书上的链上交易哈希，查看包含证明（RFC 9162）和签名树头；同时输入保全编号，还可查看账本记录原文。
      </p>
      <Form method="post" className="inline-form verify-form">
        <label htmlFor="tx">链上交易哈希</label>
        <input id="tx" name="hash" type="text" className="mono" maxLength={64} />
        <label htmlFor="tx-baoquan">保全编号（选填）</label>
        <input id="tx-baoquan" name="baoquan" type="text" className="mono" maxLength={64} />
        <button type="submit" className="button primary">
          查验
        </button>
      </Form>
      {result?.error ? <NotFound text={result.error} /> : null}
    </>
  );
}
