/** /ops/audit: every operator decision (approve, reject with its remark), newest first, paginated by links. */
import { useLoaderData } from 'react-router';
import type { Route } from './+types/audit';
import { isSuccess, OPS_PAGE_SIZE, OpsPaths, type AuditListData } from '../../contract/index.ts';
import { FormErrors } from '../shell/field.tsx';
import { Pagination } from '../shell/pagination.tsx';
import { opsCall, requireOperator } from './ops.server.ts';
import { OpsShell } from './ops-ui.tsx';
import { DataTable } from '../shell/data-table.tsx';

export const handle = { bare: true };
export const meta: Route.MetaFunction = () => [{ title: '审计日志 - 运营后台 - 存证云' }];

const ACTION_LABEL: Record<string, string> = { approve: '通过', reject: '驳回' };

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const { name } = await requireOperator(request, context);
  const page = Math.max(1, Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1);
  const res = await opsCall<AuditListData>(request, context, OpsPaths.audit, {
    method: 'GET',
    query: { page },
  });
  return {
    name,
    page,
    list: isSuccess(res.code) ? res.data.list : [],
    count: isSuccess(res.code) ? res.data.count : 0,
    error: isSuccess(res.code) ? null : res.msg,
  };
}

export default function OpsAudit() {
  const { name, page, list, count, error } = useLoaderData<typeof loader>();
  return (
    <OpsShell name={name}>
      <h1>审计日志</h1>
      <FormErrors errors={error ? [error] : undefined} />
      <DataTable
        headers={['时间', '操作员', '用户ID', '手机号', '操作', '备注']}
        items={list}
        empty="暂无记录"
        row={(e) => (
          <tr key={e.id} data-testid="audit-row">
            <td>{e.at}</td>
            <td>{e.operator}</td>
            <td>{e.userId}</td>
            <td>{e.mobile}</td>
            <td>{ACTION_LABEL[e.action] ?? e.action}</td>
            <td>{e.remark}</td>
          </tr>
        )}
      />
      <Pagination page={page} pageSize={OPS_PAGE_SIZE} count={count} href={(p) => `/ops/audit?page=${p}`} />
    </OpsShell>
  );
}
