/**
 * /ops/jobs (admin; decision 045): the platform's recurring jobs — face-verification polling, payment
 * reconciliation, the sweep of files left by interrupted saves and the prune of old evidence events (decision 059) —
 * with runs waiting, going and failed, and the newest failure's message, so an operator sees a provider outage (runs
 * failing and retried with growing delays) before users report results that never arrive. Under them, the
 * background worker's jobs (Chromium work: certificate PDFs rendered ahead, web and process captures;
 * docs/decisions/064-background-worker.md) with how long the oldest waiting one has waited, so a stopped or
 * overloaded worker shows.
 */
import type { Route } from './+types/jobs';
import { JobsOpsPaths, type JobsView } from '../../contract/jobs.ts';
import { DataTable } from '../shell/data-table.tsx';
import { opsData } from './ops.server.ts';

export const meta: Route.MetaFunction = () => [{ title: '后台任务 - 运营后台 - 存证云' }];

/** What each task does, in the console's words. */
const TASKS: Record<string, string> = {
  'face.poll': '人脸核身结果查询（每 3 秒）',
  'billing.reconcile': '充值订单对账（每 30 秒）',
  'files.sweep': '清理中断上传遗留的文件（每 10 分钟）',
  'events.prune': '清理一周前的证据事件与失败的渲染任务（每小时）',
};

/** What each of the background worker's jobs is, in the console's words. */
const WORK: Record<string, string> = {
  'certificate.render': '证书 PDF 预生成',
  capture: '网页取证与过程取证',
};

/** A wait in the console's words: `12 秒`, `5 分 3 秒`, `2 小时 10 分`, or `—` when nothing waits. */
function waitText(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds < 60) return `${seconds} 秒`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} 分 ${seconds % 60} 秒`;
  return `${Math.floor(seconds / 3600)} 小时 ${Math.floor((seconds % 3600) / 60)} 分`;
}

/** How the queue is kept. */
const KINDS: Record<NonNullable<JobsView['kind']>, string> = {
  'pg-boss': 'PostgreSQL（pg-boss，多实例共享）',
  sqlite: 'SQLite（本进程内）',
};

export async function loader({ request, context }: Route.LoaderArgs) {
  return opsData<JobsView>(request, context, JobsOpsPaths.jobs, { method: 'GET' });
}

export default function OpsJobs({ loaderData: view }: Route.ComponentProps) {
  const failing = view.tasks.filter((t) => t.failed > 0);
  return (
    <>
      <h1>后台任务</h1>
      <p>{view.kind ? `任务队列：${KINDS[view.kind]}` : '本实例未运行后台任务（PLATFORM_JOBS=0）'}</p>
      {failing.length > 0 ? (
        <p role="alert" className="form-error" data-testid="jobs-alert">
          有 {failing.length} 项任务多次重试后仍失败，请检查对应的服务商接口。
        </p>
      ) : null}
      <DataTable
        headers={['任务', '说明', '等待', '运行中', '失败', '最近错误']}
        items={view.tasks}
        empty="暂无任务"
        row={(t) => (
          <tr key={t.name} data-testid="job-row">
            <td className="mono">{t.name}</td>
            <td>{TASKS[t.name] ?? '—'}</td>
            <td>{t.queued}</td>
            <td>{t.active}</td>
            <td>{t.failed}</td>
            <td>{t.lastError ?? '—'}</td>
          </tr>
        )}
      />
      <h2 className="section-title">后台工作进程（Chromium）</h2>
      <DataTable
        headers={['任务', '说明', '等待', '运行中', '失败', '最长等待', '最近错误']}
        items={view.work}
        empty="暂无任务"
        row={(w) => (
          <tr key={w.name} data-testid="work-row">
            <td className="mono">{w.name}</td>
            <td>{WORK[w.name] ?? '—'}</td>
            <td>{w.queued}</td>
            <td>{w.active}</td>
            <td>{w.failed}</td>
            <td>{waitText(w.oldestWaitSeconds)}</td>
            <td>{w.lastError ?? '—'}</td>
          </tr>
        )}
      />
    </>
  );
}
