/**
 * /evidences-all/web and /evidences-all/process: the user's web and process captures (issue 15 points 1, 3): each
 * job with its URLs, state and result — the
 * preserved evidence's certificate, or why it failed. While a job is queued or running the page refreshes itself
 * every few seconds (a meta refresh, so without JavaScript too). /evidences-all (the top bar's 在线取证) comes here.
 */
import { Link, redirect } from 'react-router';
import { CaptureTabs } from './capture-tabs.tsx';
import type { Route } from './+types/web-list';
import { isSuccess } from '../../contract/envelope.ts';
import {
  CAPTURE_REFRESH_SECONDS,
  CAPTURE_STATUS_WORDS,
  CapturePaths,
  type CaptureJobView,
  type CaptureKind,
} from '../../contract/capture.ts';
import { formatBeijing } from '../../contract/time.ts';
import { authedCall } from '../lib/auth.server.ts';
import { DataTable } from '../shell/data-table.tsx';

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `${data?.kind === 'process' ? '过程取证' : '网页取证'}记录 - 存证云` },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const where = new URL(request.url).pathname.replace(/\/+$/, '');
  if (where === '/evidences-all') throw redirect('/evidences-all/web');
  const kind: CaptureKind = where === '/evidences-all/process' ? 'process' : 'web';
  const res = await authedCall<CaptureJobView[]>(request, context, CapturePaths.jobs, { query: { kind } });
  const jobs = isSuccess(res.code) ? res.data : [];
  return {
    kind,
    jobs,
    error: isSuccess(res.code) ? null : res.msg,
    open: jobs.some((j) => j.status === 'queued' || j.status === 'running'),
  };
}

export default function WebCaptures({ loaderData }: Route.ComponentProps) {
  const { kind, jobs, error, open } = loaderData;
  const name = kind === 'web' ? '网页取证' : '过程取证';
  return (
    <section className="page">
      {open ? <meta httpEquiv="refresh" content={String(CAPTURE_REFRESH_SECONDS)} /> : null}
      <h1>{name}</h1>
      <CaptureTabs current={kind} />
      <p>
        <Link to={kind === 'web' ? '/newWeb' : '/newProcess'} className="button primary">
          新建{name}
        </Link>
      </p>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {open ? (
        <p role="status" className="form-notice">
          取证进行中，本页每 {CAPTURE_REFRESH_SECONDS} 秒自动刷新。
        </p>
      ) : null}
      <DataTable
        headers={['提交时间', '证据名称', '网址', '状态', '结果']}
        items={jobs}
        empty={`暂无${name}记录`}
        row={(j) => (
          <tr key={j.id} data-testid="capture-row" data-status={j.status}>
            <td>{formatBeijing(j.createdAt)}</td>
            <td>{j.title}</td>
            <td className="break">
              {j.urls[0]}
              {j.urls.length > 1 ? ` 等 ${j.urls.length} 个` : ''}
            </td>
            <td>
              {j.kind === 'process' ? (
                <Link to={`/evidences-all/process/queue/${j.id}`}>{CAPTURE_STATUS_WORDS[j.status]}</Link>
              ) : (
                CAPTURE_STATUS_WORDS[j.status]
              )}
            </td>
            <td>
              {j.status === 'done' && j.baoquan ? (
                <Link to={`/attestation/${encodeURIComponent(j.baoquan)}`}>查看证书 {j.baoquan}</Link>
              ) : j.status === 'failed' ? (
                <span className="form-error">{j.error}</span>
              ) : (
                <span className="muted">请稍候</span>
              )}
            </td>
          </tr>
        )}
      />
    </section>
  );
}
