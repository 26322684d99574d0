/**
 * /ops, the console home (docs/decisions/015-operator-console-roles.md): each queue the operator's roles open,
 * with how many items wait and the oldest of them (each opens `<queue path>/<id>`), plus the queue's other views.
 * After a decision the detail page lands here with `?done=<key>` and the queue's message.
 */
import { Link } from 'react-router';
import type { Route } from './+types/home';
import { type OpsHomeData, OpsMsg, OpsPaths } from '../../contract/ops.ts';
import { DataTable } from '../shell/data-table.tsx';
import { FormNotice } from '../shell/field.tsx';
import { opsData } from './ops.server.ts';
import { OPS_QUEUES, queueOf } from './queues.ts';

export const meta: Route.MetaFunction = () => [{ title: '工作台 - 运营后台 - 存证云' }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const home = await opsData<OpsHomeData>(request, context, OpsPaths.home, { method: 'GET' });
  const done = new URL(request.url).searchParams.get('done') ?? '';
  const notice = OPS_QUEUES.map((q) => q.notices[done]).find(Boolean) ?? null;
  return { queues: home.queues, notice };
}

export default function OpsHome({ loaderData: { queues, notice } }: Route.ComponentProps) {
  const shown = queues.flatMap((summary) => {
    const entry = queueOf(summary.area);
    return entry ? [{ summary, entry }] : [];
  });
  return (
    <>
      <h1>工作台</h1>
      <FormNotice text={notice} />
      {shown.length === 0 ? <p className="muted">{OpsMsg.noQueues}</p> : null}
      {shown.map(({ summary, entry }) => (
        <section key={entry.area} aria-label={entry.title}>
          <h2 className="section-title">
            {entry.title} <span className="tag">待处理 {summary.count}</span>
          </h2>
          <nav className="tabs" aria-label={`${entry.title}视图`}>
            {entry.views.map((v) => (
              <Link key={v.to} to={v.to}>
                {v.label}
              </Link>
            ))}
          </nav>
          <DataTable
            headers={['编号', '手机号', '姓名/名称', '状态', '提交时间', '操作']}
            items={summary.items}
            empty="暂无待处理"
            row={(item) => (
              <tr key={item.id} data-testid="ops-row">
                <td>{item.id}</td>
                <td>{item.subject}</td>
                <td>{item.name}</td>
                <td className="nowrap">{entry.item.state}</td>
                <td>{item.submittedAt}</td>
                <td>
                  <Link to={`${entry.path}/${encodeURIComponent(item.ref)}`}>{entry.item.open}</Link>
                </td>
              </tr>
            )}
          />
          {summary.count > summary.items.length ? (
            <p>
              <Link to={entry.path}>查看全部 {summary.count} 条</Link>
            </p>
          ) : null}
        </section>
      ))}
    </>
  );
}
