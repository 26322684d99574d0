/**
 * /ops/billing: the orders view of the operator console (role `finance`; 无权访问 without it; decision 015 and
 * docs/decisions/019-billing-screens.md): every recharge and consumption order, newest first, searched by order
 * number or mobile (a GET form, exact match, blank lists all), 20 a page by links; orders flagged by a notification
 * that did not match are marked. Each row opens /ops/billing/{orderNo}. The platform audits every search.
 */
import { Form, Link } from 'react-router';
import type { Route } from './+types/orders';
import { formatFen, PAY_TYPE_TEXT } from '../../../contract/billing.ts';
import { BillingOpsPaths, OpsOrdersQuery, type OpsOrderListData } from '../../../contract/billing-ops.ts';
import { OPS_PAGE_SIZE } from '../../../contract/ops.ts';
import { DataTable } from '../../shell/data-table.tsx';
import { FormErrors } from '../../shell/field.tsx';
import { Pagination } from '../../shell/pagination.tsx';
import { opsData } from '../ops.server.ts';

export const meta: Route.MetaFunction = () => [{ title: '订单管理 - 运营后台 - 存证云' }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const parsed = OpsOrdersQuery.safeParse({
    q: url.searchParams.get('q') ?? '',
    page: url.searchParams.get('page') ?? undefined,
  });
  if (!parsed.success) {
    const error = parsed.error.issues[0]?.message ?? '';
    return { q: url.searchParams.get('q') ?? '', page: 1, list: [], count: 0, error };
  }
  const { q = '', page } = parsed.data;
  const found = await opsData<OpsOrderListData>(request, context, BillingOpsPaths.orders, {
    method: 'GET',
    query: { q, page },
  });
  return { q, page, list: found.list, count: found.count, error: null };
}

export default function OpsOrders({ loaderData }: Route.ComponentProps) {
  const { q, page, list, count, error } = loaderData;
  return (
    <>
      <h1>订单管理</h1>
      <Form method="get" className="filters" role="search">
        <label>
          订单号或手机号 <input type="search" name="q" defaultValue={q} maxLength={64} />
        </label>
        <button type="submit" className="button">
          查询
        </button>
        <Link to="/ops/billing">重置</Link>
      </Form>
      <FormErrors errors={error ? [error] : undefined} />
      <DataTable
        headers={[
          '订单号',
          '手机号',
          '积分',
          '金额（元）',
          '支付方式',
          '状态',
          '下单时间',
          '支付时间',
          '操作',
        ]}
        items={list}
        empty="暂无订单"
        row={(o) => (
          <tr key={o.order_no} data-testid="ops-order-row">
            <td className="mono">
              {o.order_no} {o.flagged ? <span className="tag">异常</span> : null}
            </td>
            <td>{o.mobile}</td>
            <td>{o.integral}</td>
            <td>{formatFen(o.amountFen)}</td>
            <td className="nowrap">{PAY_TYPE_TEXT[o.pay_type] ?? ''}</td>
            <td className="nowrap">{o.pay_status}</td>
            <td>{o.createdAt}</td>
            <td>{o.paidAt || '-'}</td>
            <td>
              <Link to={`/ops/billing/${encodeURIComponent(o.order_no)}`}>查看</Link>
            </td>
          </tr>
        )}
      />
      <Pagination
        page={page}
        pageSize={OPS_PAGE_SIZE}
        count={count}
        href={(p) => `/ops/billing?${new URLSearchParams({ ...(q ? { q } : {}), page: String(p) })}`}
      />
    </>
  );
}
