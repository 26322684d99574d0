/**
 * /verify (decisions 035, 036): check an evidence package against the keys this platform publishes
 * (shown here: the ledger key, the witnesses' keys, the TSA's certificates). With JavaScript the package is checked in
 * the browser (package-browser.ts, loaded only when a package is chosen) and never leaves the machine; without it,
 * or where the browser lacks WebCrypto, the form uploads the package and the gateway checks it with the same seven
 * steps and deletes it (package.server.ts). Either way each step is told in plain Chinese. The page also offers the
 * saved single-file verifier (/verify/offline, offline.ts) for use with no network at all.
 */
import { useState, type DragEvent, type FormEvent } from 'react';
import { data } from 'react-router';
import type { Route } from './+types/package-check';
import { isSuccess } from '../../contract/envelope.ts';
import { LedgerPaths, type LedgerPublicKey } from '../../contract/ledger.ts';
import { apiCall } from '../lib/api.server.ts';
import { checkUploadedPackage, PACKAGE_LIMIT } from './package.server.ts';
import { STATUS_WORDS, summaryOf, type PackageVerdict } from './package-steps.ts';
import { useAppUrl } from '../lib/base-path.ts';

export const meta: Route.MetaFunction = () => [{ title: '证据包核验 - 存证云' }];

export async function loader({ context }: Route.LoaderArgs) {
  const key = await apiCall<LedgerPublicKey>(context, LedgerPaths.publicKey);
  return { key: isSuccess(key.code) ? key.data : null, limitMb: PACKAGE_LIMIT / 1024 / 1024 };
}

export async function action({ request, context }: Route.ActionArgs) {
  const verdict = await checkUploadedPackage(request, context);
  return 'error' in verdict ? data(verdict, { status: 400 }) : verdict;
}

/** The published keys, as the page shows them. */
function PublishedKeys({ k }: { k: LedgerPublicKey }) {
  return (
    <dl className="verify-keys">
      <dt>账本公钥（Ed25519）</dt>
      <dd>
        <code data-testid="trusted-key">{k.keyId}</code>
      </dd>
      {k.noteKey ? (
        <>
          <dt>检查点验证密钥</dt>
          <dd>
            <code>{k.noteKey}</code>
          </dd>
        </>
      ) : null}
      <dt>见证方</dt>
      <dd>
        {k.witnesses?.length ? (
          <ul>
            {k.witnesses.map((w) => (
              <li key={w}>
                <code>{w}</code>
              </li>
            ))}
          </ul>
        ) : (
          '未配置（见证联署只列出名称，不核对签名）'
        )}
      </dd>
      <dt>可信时间戳机构证书</dt>
      <dd>{k.tsaCertificates ? '已公布，时间戳须由其签发' : '未配置（只核对时间戳自带的证书）'}</dd>
    </dl>
  );
}

/** One package's verdict, step by step. */
export function VerdictView({ v, where }: { v: PackageVerdict; where: 'browser' | 'server' }) {
  if ('error' in v) {
    return (
      <p className="form-error" role="alert" data-testid="package-error">
        {v.error}
      </p>
    );
  }
  return (
    <article className="verify-result" data-testid="package-verdict" data-where={where}>
      <p role="status" className={v.ok ? 'form-notice' : 'form-error'} data-testid="package-summary">
        {summaryOf(v)}
      </p>
      <p className="hint" data-testid="package-where">
        {where === 'browser'
          ? '已在本机浏览器中核验：证据包没有上传。'
          : '已在服务器核验：上传的证据包已在核验后删除。'}
      </p>
      <ol className="verify-steps">
        {v.steps.map((s) => (
          <li key={s.step} data-testid="package-step" data-status={s.status}>
            <strong>
              {s.name}：{STATUS_WORDS[s.status]}
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
  );
}

export default function PackageCheck({ loaderData, actionData }: Route.ComponentProps) {
  const appUrl = useAppUrl();
  const { key, limitMb } = loaderData;
  const [local, setLocal] = useState<PackageVerdict | null>(null);
  const [busy, setBusy] = useState(false);

  /** With JavaScript: check in the browser; where that cannot run, let the form upload the package. */
  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    const form = e.currentTarget;
    const file = (form.elements.namedItem('package') as HTMLInputElement | null)?.files?.[0];
    if (!key || !file) return;
    e.preventDefault();
    setBusy(true);
    setLocal(null);
    try {
      const m = await import('./package-browser.ts');
      if (!m.canCheckHere()) throw new Error('no WebCrypto here');
      setLocal(await m.checkPackageFile(file, key));
    } catch {
      form.submit(); // the bundle did not load or cannot run here: the upload path
    } finally {
      setBusy(false);
    }
  }

  /** A package dropped on the form is taken as if chosen, and checked. */
  function onDrop(e: DragEvent<HTMLFormElement>) {
    const input = e.currentTarget.elements.namedItem('package') as HTMLInputElement | null;
    if (!input || !e.dataTransfer?.files.length) return;
    e.preventDefault();
    input.files = e.dataTransfer.files;
    e.currentTarget.requestSubmit();
  }

  const shown = local ?? actionData ?? null;
  return (
    <section className="page narrow">
      <h1>证据包核验</h1>
      <p className="lead">
        选择从证据页面下载的证据包（ZIP
        文件），逐项核验原始文件、账本记录、包含证明、签名树头、见证联署和可信时间戳。浏览器启用 JavaScript
        时在本机核验，证据包不会上传；否则证据包上传到服务器核验，核验后立即删除。
      </p>
      {key ? (
        <>
          <h2>核验所用的密钥（本平台公布）</h2>
          <PublishedKeys k={key} />
        </>
      ) : null}
      <form
        method="post"
        encType="multipart/form-data"
        className="card verify-drop"
        onSubmit={onSubmit}
        onDragOver={(e) => e.preventDefault()}
        onDrop={onDrop}
      >
        <label htmlFor="package">{`证据包（ZIP，不超过${limitMb}MB）`}</label>
        <input id="package" name="package" type="file" accept=".zip,application/zip" required />
        <p className="hint">也可将证据包拖放到此处。本机核验时不限大小。</p>
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? '核验中…' : '核验'}
        </button>
      </form>
      <p>
        <a href={appUrl('/verify/offline')} download="cunzheng-verify.html" data-testid="offline-link">
          下载离线核验工具
        </a>
        ：单个 HTML 文件，内含上述密钥，保存后断网用浏览器打开即可核验证据包。
      </p>
      {shown ? <VerdictView v={shown} where={local ? 'browser' : 'server'} /> : null}
    </section>
  );
}
