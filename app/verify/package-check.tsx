/**
 * /verify (issue 17 point 5; decision 035): check an evidence package. The user uploads the ZIP they downloaded from an
 * evidence's page; the gateway checks it with the seven steps of the offline verifier against the ledger key this
 * platform publishes (shown here), deletes it, and says step by step what was proved or which step failed. A plain
 * form, so it works without JavaScript. (The in-browser check and the saved single-file verifier are still to come.)
 */
import { data, Form } from 'react-router';
import type { Route } from './+types/package-check';
import { isSuccess } from '../../contract/envelope.ts';
import { LedgerPaths, type LedgerPublicKey } from '../../contract/ledger.ts';
import { apiCall } from '../lib/api.server.ts';
import { checkUploadedPackage } from './package.server.ts';

export const meta: Route.MetaFunction = () => [{ title: '证据包核验 - 存证云' }];

export async function loader({ context }: Route.LoaderArgs) {
  const key = await apiCall<LedgerPublicKey>(context, LedgerPaths.publicKey);
  return {
    keyId: isSuccess(key.code) ? key.data.keyId : '',
    noteKey: isSuccess(key.code) ? (key.data.noteKey ?? '') : '',
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const verdict = await checkUploadedPackage(request, context);
  return 'error' in verdict ? data(verdict, { status: 400 }) : verdict;
}

const STATUS = { pass: '通过', fail: '未通过', skip: '未核对' } as const;

export default function PackageCheck({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <section className="page narrow">
      <h1>证据包核验</h1>
      <p className="lead">
        上传从证据页面下载的证据包（ZIP
        文件），逐项核验原始文件、账本记录、包含证明、签名树头、见证联署和可信时间戳。证据包只用于本次核验，核验后立即删除。
      </p>
      <p>
        核验所用的账本公钥（本平台公布）：<code data-testid="trusted-key">{loaderData.keyId}</code>
        {loaderData.noteKey ? (
          <>
            ，签名笔记验证密钥 <code>{loaderData.noteKey}</code>
          </>
        ) : null}
      </p>
      <Form method="post" encType="multipart/form-data" reloadDocument className="card">
        <label htmlFor="package">证据包（ZIP，不超过100MB）</label>
        <input id="package" name="package" type="file" accept=".zip,application/zip" required />
        <button type="submit" className="button primary">
          核验
        </button>
      </Form>
      {actionData && 'error' in actionData ? (
        <p className="form-error" role="alert" data-testid="package-error">
          {actionData.error}
        </p>
      ) : null}
      {actionData && 'steps' in actionData ? (
        <article className="verify-result" data-testid="package-verdict">
          <p
            role="status"
            className={actionData.ok ? 'form-notice' : 'form-error'}
            data-testid="package-summary"
          >
            {actionData.ok
              ? `核验通过：证据 ${actionData.baoquan ?? ''} 已按证据包所载记录在账本中。`
              : `核验未通过：第 ${actionData.failed ?? ''} 步（${actionData.steps.find((s) => s.step === actionData.failed)?.name ?? ''}）失败。`}
          </p>
          <ol className="verify-steps">
            {actionData.steps.map((s) => (
              <li key={s.step} data-testid="package-step" data-status={s.status}>
                <strong>
                  {s.name}：{STATUS[s.status]}
                </strong>
                <p>{s.text}</p>
                <details>
                  <summary>技术细节</summary>
                  <code>{s.detail}</code>
                </details>
              </li>
            ))}
          </ol>
        </article>
      ) : null}
    </section>
  );
}
