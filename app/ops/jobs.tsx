/**
 * /ops/jobs (admin; decision 045): the platform's recurring jobs — face-verification polling, payment
 * reconciliation, the sweep of files left by interrupted saves and the prune of old evidence events (decision 059) —
 * with runs waiting, going and failed, and the newest failure's message, so an operator sees a provider outage (runs
 * failing and retried with growing delays) before users report results that never arrive.
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
  'events.prune': '清理一周前的证据事件（每小时）',
};

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
    </>
  );
}
