/**
 * /evidences-all/process/queue/:id: one process capture's progress (spec 01 §2 routes; decision 037) — its state,
 * refreshed every few seconds while it is queued or running (a meta refresh: no JavaScript needed), then each step's
 * log line (what was done and whether it worked) and the link to the preserved evidence's certificate, or why it
 * failed.
 */
import { data, Link } from 'react-router';
import type { Route } from './+types/process-queue';
import { isSuccess } from '../../contract/envelope.ts';
import {
  CAPTURE_REFRESH_SECONDS,
  CapturePaths,
  PROCESS_ACTION_WORDS,
  type CaptureJobView,
} from '../../contract/capture-codes.ts';
import { authedCall } from '../lib/auth.server.ts';

export const meta: Route.MetaFunction = () => [{ title: '过程取证进度 - 存证云' }];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const id = Number(params.id);
  if (!Number.isSafeInteger(id) || id <= 0) throw data('取证任务不存在', { status: 404 });
  const res = await authedCall<CaptureJobView>(request, context, CapturePaths.job, { query: { id } });
  if (!isSuccess(res.code) || res.data.kind !== 'process')
    throw data(res.msg || '取证任务不存在', { status: 404 });
  return { job: res.data };
}

export default function ProcessQueue({ loaderData }: Route.ComponentProps) {
  const { job } = loaderData;
  const open = job.status === 'queued' || job.status === 'running';
  return (
    <section className="page narrow">
      {open ? <meta httpEquiv="refresh" content={String(CAPTURE_REFRESH_SECONDS)} /> : null}
      <p className="breadcrumb">
        <Link to="/evidences-all/process">过程取证</Link> / {job.title}
      </p>
      <h1>过程取证进度</h1>
      <p role="status" data-testid="queue-status" data-status={job.status}>
        {job.status === 'queued'
          ? `排队中，本页每 ${CAPTURE_REFRESH_SECONDS} 秒自动刷新。`
          : job.status === 'running'
            ? `取证中，本页每 ${CAPTURE_REFRESH_SECONDS} 秒自动刷新。`
            : job.status === 'done'
              ? '取证完成，已保全。'
              : `取证失败：${job.error ?? ''}`}
      </p>
      {job.log ? (
        <ol className="verify-steps" data-testid="step-log">
          {job.log.map((s) => (
            <li key={s.n} data-status={s.ok ? 'pass' : 'fail'}>
              <strong>
                {PROCESS_ACTION_WORDS[s.action]}：{s.ok ? '完成' : '未完成'}
              </strong>
              {s.detail ? <p className="break">{s.detail}</p> : null}
              {s.error ? <p className="form-error">{s.error}</p> : null}
            </li>
          ))}
        </ol>
      ) : null}
      {job.status === 'done' && job.baoquan ? (
        <p>
          <Link to={`/attestation/${encodeURIComponent(job.baoquan)}`}>查看证书 {job.baoquan}</Link>
          {' · '}
          <Link to={`/evidences-all/process/preview?baoquan=${encodeURIComponent(job.baoquan)}`}>
            观看取证录像
          </Link>
        </p>
      ) : null}
    </section>
  );
}
