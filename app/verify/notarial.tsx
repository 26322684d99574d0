/**
 * /queryAuthentication/notarial: check a notarial certificate (公证书) by its number (decision 034; platform
 * `GET /api/notarial/check`, public, counted against the public lookups' budget): that it was issued, when, for an
 * order of which date, by which office, over which preservation numbers, and — given the SHA-256 of the PDF the
 * asker holds — whether that file is the issued one. A GET form like the preservation number lookup, so a result has
 * a shareable URL and needs no JavaScript. No personal data is shown.
 */
import { Form, Link } from 'react-router';
import type { Route } from './+types/notarial';
import { isSuccess } from '../../contract/envelope.ts';
import { NotarialCheckQuery, type NotarialCheckData, NotaryPaths } from '../../contract/notary.ts';
import { Msg } from '../../contract/messages.ts';
import { apiCall } from '../lib/api.server.ts';
import type { Lookup } from './lookup.server.ts';
import { NotFound } from './result.tsx';

export const meta: Route.MetaFunction = () => [{ title: '公证书核验 - 存证云' }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const number = url.searchParams.get('number');
  const hash = url.searchParams.get('hash') ?? '';
  const form = { number: number ?? '', hash };
  // The page itself, before anything was asked.
  if (number === null && !hash) return { form, result: null };
  const parsed = NotarialCheckQuery.safeParse(form);
  if (!parsed.success) {
    const result: Lookup<NotarialCheckData> = {
      ok: false,
      error: parsed.error.issues[0]?.message ?? Msg.badRequest,
    };
    return { form, result };
  }
  const res = await apiCall<NotarialCheckData>(context, NotaryPaths.notarialCheck, {
    method: 'GET',
    query: { number: parsed.data.number, hash: parsed.data.hash },
    urlPath: url.pathname,
    signal: request.signal,
  });
  const result: Lookup<NotarialCheckData> = isSuccess(res.code)
    ? { ok: true, value: res.data }
    : { ok: false, error: res.msg || Msg.serverError };
  return { form: { number: parsed.data.number, hash: parsed.data.hash ?? '' }, result };
}

export default function NotarialCheck({ loaderData: { form, result } }: Route.ComponentProps) {
  return (
    <>
      <p className="lead">
        输入公证书上的编号，核验该公证书是否已经出具；同时填写手中公证书 PDF 文件的 SHA-256
        哈希值，可核对该文件是否正是出具的那一份。
      </p>
      <Form method="get" className="card">
        <div className="field">
          <label htmlFor="nc-number">公证书编号</label>
          <input
            id="nc-number"
            name="number"
            type="text"
            defaultValue={form.number}
            maxLength={60}
            required
            placeholder="如 (2026)存证云公字第000123号"
            autoComplete="off"
          />
        </div>
        <div className="field">
          <label htmlFor="nc-hash">公证书文件SHA-256（选填）</label>
          <input
            id="nc-hash"
            name="hash"
            type="text"
            className="mono"
            defaultValue={form.hash}
            maxLength={64}
            autoComplete="off"
            spellCheck={false}
          />
          <div className="field-hint">64位十六进制，可在本机计算公证书PDF文件的SHA-256后粘贴。</div>
        </div>
        <button type="submit" className="button primary">
          核验
        </button>
      </Form>
      {result ? result.ok ? <NotarialResult check={result.value} /> : <NotFound text={result.error} /> : null}
    </>
  );
}

function NotarialResult({ check }: { check: NotarialCheckData }) {
  return (
    <>
      {check.hashMatches === false ? (
        <p className="form-error" role="alert" data-testid="notarial-mismatch">
          文件与出具的公证书不一致：所填 SHA-256
          与出具的公证书文件不同，该文件不是出具的公证书原件或已被修改。
        </p>
      ) : null}
      {check.hashMatches === true ? (
        <p className="form-notice" role="status" data-testid="notarial-match">
          文件一致：所填 SHA-256 与出具的公证书文件完全相同。
        </p>
      ) : null}
      <article className="verify-result" data-testid="notarial-result">
        <p className="form-notice" role="status">
          该公证书已出具。
        </p>
        <dl className="facts">
          <dt>公证书编号</dt>
          <dd>{check.number}</dd>
          <dt>出具时间</dt>
          <dd>{check.issuedAt}</dd>
          <dt>申请时间</dt>
          <dd>{check.orderTime}</dd>
          <dt>公证事项</dt>
          <dd>{check.typeName}</dd>
          <dt>公证机构</dt>
          <dd>{check.office}</dd>
          {check.baoquan ? (
            <>
              <dt>保全编号</dt>
              <dd>
                {check.baoquan.map((no) => (
                  <div key={no} className="mono hash">
                    <Link to={`/queryAuthentication/safekeeping?no=${encodeURIComponent(no)}`}>{no}</Link>
                  </div>
                ))}
              </dd>
            </>
          ) : null}
          {check.sha256 ? (
            <>
              <dt>公证书文件SHA-256</dt>
              <dd className="mono hash">{check.sha256}</dd>
            </>
          ) : null}
        </dl>
        {check.hashMatches ? null : (
          <p className="muted">所涉保全编号仅在填写的公证书文件SHA-256与出具文件一致时显示。</p>
        )}
      </article>
    </>
  );
}
