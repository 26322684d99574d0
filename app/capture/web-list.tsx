/**
 * /evidences-all/web and /evidences-all/process: the user's web and process captures (decision 039).
 * First the capture jobs with their state and result — the preserved evidence's certificate (and a process
 * capture's progress page), or why it failed; while a job is queued or running the page refreshes itself every few
 * seconds (a meta refresh, so without JavaScript too). Then the preserved captures as an evidence list with the same
 * filters, labels, deletion and certificates as files. /evidences-all (the top bar's 在线取证) comes here.
 */
import { Link, redirect } from 'react-router';
import type { Route } from './+types/web-list';
import { isSuccess } from '../../contract/envelope.ts';
import {
  CAPTURE_REFRESH_SECONDS,
  CAPTURE_STATUS_WORDS,
  CapturePaths,
  type CaptureJobView,
  type CaptureKind,
} from '../../contract/capture-codes.ts';
import { formatBeijing } from '../../contract/time.ts';
import { authedCall } from '../lib/auth.server.ts';
import { DataTable } from '../shell/data-table.tsx';
import { listAction, listLoader } from '../evidence/list.server.ts';
import { EvidenceListPage } from '../evidence/list-page.tsx';

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `${data?.kind === 'process' ? '过程取证' : '网页取证'} - 存证云` },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const where = new URL(request.url).pathname.replace(/\/+$/, '');
  if (where === '/evidences-all') throw redirect('/evidences-all/web');
  const kind: CaptureKind = where === '/evidences-all/process' ? 'process' : 'web';
  const [res, list] = await Promise.all([
    authedCall<CaptureJobView[]>(request, context, CapturePaths.jobs, { query: { kind } }),
    listLoader(request, context, kind),
  ]);
  const jobs = isSuccess(res.code) ? res.data : [];
  return {
    ...list,
    kind,
    jobs,
    jobsError: isSuccess(res.code) ? null : res.msg,
    open: jobs.some((j) => j.status === 'queued' || j.status === 'running'),
  };
}

export const action = ({ request, context }: Route.ActionArgs) => listAction(request, context);

/** The capture jobs: state and result of each, newest first. */
function CaptureJobs({
  jobs,
  error,
  open,
  kind,
}: {
  jobs: CaptureJobView[];
  error: string | null;
  open: boolean;
  kind: CaptureKind;
}) {
  const name = kind === 'web' ? '网页取证' : '过程取证';
  return (
    <section aria-labelledby="capture-jobs">
      {open ? <meta httpEquiv="refresh" content={String(CAPTURE_REFRESH_SECONDS)} /> : null}
      <h2 id="capture-jobs">{name}任务</h2>
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
        empty={`暂无${name}任务`}
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
      <h2>已保全的{name}</h2>
    </section>
  );
}

export default function WebCaptures({ loaderData, actionData }: Route.ComponentProps) {
  const { jobs, jobsError, open, kind } = loaderData;
  return (
    <EvidenceListPage
      loaderData={loaderData}
      actionData={actionData}
      intro={<CaptureJobs jobs={jobs} error={jobsError} open={open} kind={kind} />}
    />
  );
}
