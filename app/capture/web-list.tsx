/**
 * /evidences-all/web: the user's web captures (issue 15 point 1): each job with its URLs, state and result — the
 * preserved evidence's certificate, or why it failed. While a job is queued or running the page refreshes itself
 * every few seconds (a meta refresh, so without JavaScript too). /evidences-all (the top bar's 在线取证) comes here.
 */
import { Link, redirect } from 'react-router';
import type { Route } from './+types/web-list';
import { isSuccess } from '../../contract/envelope.ts';
import { CapturePaths, type CaptureJobView, type CaptureStatus } from '../../contract/capture.ts';
import { formatBeijing } from '../../contract/time.ts';
import { authedCall } from '../lib/auth.server.ts';
import { DataTable } from '../shell/data-table.tsx';

/** Seconds between refreshes while a capture is open. */
const REFRESH_SECONDS = 3;

const STATUS: Record<CaptureStatus, string> = {
  queued: '排队中',
  running: '取证中',
  done: '已保全',
  failed: '取证失败',
};

export const meta: Route.MetaFunction = () => [{ title: '网页取证记录 - 存证云' }];

export async function loader({ request, context }: Route.LoaderArgs) {
  if (new URL(request.url).pathname.replace(/\/+$/, '') === '/evidences-all')
    throw redirect('/evidences-all/web');
  const res = await authedCall<CaptureJobView[]>(request, context, CapturePaths.jobs, { method: 'GET' });
  const jobs = isSuccess(res.code) ? res.data : [];
  return {
    jobs,
    error: isSuccess(res.code) ? null : res.msg,
    open: jobs.some((j) => j.status === 'queued' || j.status === 'running'),
  };
}

export default function WebCaptures({ loaderData }: Route.ComponentProps) {
  const { jobs, error, open } = loaderData;
  return (
    <section className="page">
      {open ? <meta httpEquiv="refresh" content={String(REFRESH_SECONDS)} /> : null}
      <h1>网页取证</h1>
      <p>
        <Link to="/newWeb" className="button primary">
          新建网页取证
        </Link>
      </p>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {open ? (
        <p role="status" className="form-notice">
          取证进行中，本页每 {REFRESH_SECONDS} 秒自动刷新。
        </p>
      ) : null}
      <DataTable
        headers={['提交时间', '证据名称', '网址', '状态', '结果']}
        items={jobs}
        empty="暂无网页取证记录"
        row={(j) => (
          <tr key={j.id} data-testid="capture-row" data-status={j.status}>
            <td>{formatBeijing(j.createdAt)}</td>
            <td>{j.title}</td>
            <td className="break">
              {j.urls[0]}
              {j.urls.length > 1 ? ` 等 ${j.urls.length} 个` : ''}
            </td>
            <td>{STATUS[j.status]}</td>
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
