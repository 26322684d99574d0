/**
 * /ops/audit: the console's one audit log (docs/decisions/015-operator-console-roles.md), newest first, paginated
 * by links: every decision of the areas the operator's roles open (all areas to an admin), with the area, the
 * operator (命令行 for operator accounts changed with the CLI), the subject, the user concerned and the remark.
 */
import type { Route } from './+types/audit';
import { type AuditEntry, type AuditListData, OPS_PAGE_SIZE, OpsPaths } from '../../contract/ops.ts';
import { DataTable } from '../shell/data-table.tsx';
import { Pagination } from '../shell/pagination.tsx';
import { opsData } from './ops.server.ts';
import { queueOf } from './queues.ts';

export const meta: Route.MetaFunction = () => [{ title: '审计日志 - 运营后台 - 存证云' }];

/** The console's own area: operator accounts (CLI). */
const OPS_AREA = {
  title: '运营账号',
  actions: { create: '创建', roles: '修改角色' } as Record<string, string>,
};

function areaOf(e: AuditEntry): { title: string; actions: Readonly<Record<string, string>> } {
  return queueOf(e.area) ?? (e.area === 'ops' ? OPS_AREA : { title: e.area, actions: {} });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const page = Math.max(1, Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1);
  const audit = await opsData<AuditListData>(request, context, OpsPaths.audit, {
    method: 'GET',
    query: { page },
  });
  return { page, list: audit.list, count: audit.count };
}

export default function OpsAudit({ loaderData: { page, list, count } }: Route.ComponentProps) {
  return (
    <>
      <h1>审计日志</h1>
      <DataTable
        headers={['时间', '业务', '操作员', '对象', '用户ID', '手机号', '操作', '备注']}
        items={list}
        empty="暂无记录"
        row={(e) => {
          const area = areaOf(e);
          return (
            <tr key={e.id} data-testid="audit-row">
              <td className="nowrap">{e.at}</td>
              <td className="nowrap">{area.title}</td>
              <td className="break">{e.operator || '命令行'}</td>
              <td className="break">{e.subject}</td>
              <td>{e.userId ?? ''}</td>
              <td>{e.mobile}</td>
              <td className="nowrap">{area.actions[e.action] ?? e.action}</td>
              <td className="break">{e.remark}</td>
            </tr>
          );
        }}
      />
      <Pagination page={page} pageSize={OPS_PAGE_SIZE} count={count} href={(p) => `/ops/audit?page=${p}`} />
    </>
  );
}
