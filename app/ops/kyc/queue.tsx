/**
 * /ops/kyc: the KYC review queue of the operator console (docs/decisions/011-kyc-review.md; role `reviewer`): tabs by
 * userStatus (2 待审核, 3 已通过, 4 已驳回) and pages, both plain links; each row opens /ops/kyc/:userId.
 */
import { Link } from 'react-router';
import type { Route } from './+types/queue';
import { type KycQueueData, KycReviewPaths } from '../../../contract/kyc-review.ts';
import { OPS_PAGE_SIZE } from '../../../contract/ops.ts';
import { DataTable } from '../../shell/data-table.tsx';
import { TabNav } from '../../shell/tab-nav.tsx';
import { Pagination } from '../../shell/pagination.tsx';
import { opsData } from '../ops.server.ts';
import { accountTypeLabel, OPS_STATUS_LABEL } from './labels.ts';

export const meta: Route.MetaFunction = () => [{ title: '实名审核 - 运营后台 - 存证云' }];

const TABS = ['2', '3', '4'] as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const status = TABS.find((t) => t === url.searchParams.get('status')) ?? '2';
  const page = Math.max(1, Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1);
  const queue = await opsData<KycQueueData>(request, context, KycReviewPaths.queue, {
    method: 'GET',
    query: { status, page },
  });
  return { status, page, list: queue.list, count: queue.count };
}

export default function KycQueue({ loaderData: { status, page, list, count } }: Route.ComponentProps) {
  return (
    <>
      <h1>实名认证审核</h1>
      <TabNav
        label="审核状态"
        tabs={TABS.map((t) => ({
          href: `/ops/kyc?status=${t}`,
          label: OPS_STATUS_LABEL[t] ?? '',
          current: t === status,
        }))}
      />
      <DataTable
        headers={['用户ID', '手机号', '类型', '姓名/企业名称', '状态', '提交时间', '操作']}
        items={list}
        empty="暂无记录"
        row={(row) => (
          <tr key={row.userId} data-testid="ops-row">
            <td>{row.userId}</td>
            <td>{row.mobile}</td>
            <td className="nowrap">{accountTypeLabel(row.status, row.authType)}</td>
            <td>{row.name}</td>
            <td className="nowrap">{OPS_STATUS_LABEL[row.userStatus] ?? row.userStatus}</td>
            <td>{row.submittedAt}</td>
            <td>
              <Link to={`/ops/kyc/${row.userId}`}>{row.userStatus === '2' ? '审核' : '查看'}</Link>
            </td>
          </tr>
        )}
      />
      <Pagination
        page={page}
        pageSize={OPS_PAGE_SIZE}
        count={count}
        href={(p) => `/ops/kyc?status=${status}&page=${p}`}
      />
    </>
  );
}
