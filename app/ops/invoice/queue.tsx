/**
 * /ops/invoice: the invoice applications queue of the operator console (role `finance`; spec 02 §4 "Invoice
 * application status"; docs/decisions/022-invoices.md): tabs 待处理 (待开票 and 提交财务, oldest first), 已开票 and
 * 已拒绝 (newest first), and pages, all plain links; each row opens /ops/invoice/:id.
 */
import { Link } from 'react-router';
import type { Route } from './+types/queue';
import { formatFen } from '../../../contract/billing-codes.ts';
import { APPLY_STATUS_TEXT, INVOICE_TYPE_TEXT } from '../../../contract/invoice-codes.ts';
import { InvoiceOpsPaths, type InvoiceQueueRow } from '../../../contract/invoice.ts';
import { opsQueuePage } from '../queue.server.ts';
import { OpsQueueView } from '../queue-view.tsx';

export const meta: Route.MetaFunction = () => [{ title: '发票管理 - 运营后台 - 存证云' }];

/** The queue's views: the `status` query value → its tab label. */
const TABS = [
  ['waiting', '待处理'],
  ['3', '已开票'],
  ['4', '已拒绝'],
] as const;

const hrefOf = (status: string, page = 1) =>
  `/ops/invoice${status === 'waiting' ? '' : `?status=${status}`}${page > 1 ? `${status === 'waiting' ? '?' : '&'}page=${page}` : ''}`;

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const status = TABS.find(([s]) => s === url.searchParams.get('status'))?.[0] ?? 'waiting';
  const queue = await opsQueuePage<InvoiceQueueRow>(request, context, InvoiceOpsPaths.queue, { status });
  return { status, ...queue };
}

/** The queue table's columns. */
const QUEUE_COLUMNS = [
  '申请编号',
  '用户ID',
  '手机号',
  '发票类型',
  '发票抬头',
  '金额（元）',
  '订单数',
  '状态',
  '申请时间',
  '操作',
];

export default function InvoiceQueue({ loaderData: { status, page, list, count } }: Route.ComponentProps) {
  return (
    <OpsQueueView
      title="发票管理"
      tabsLabel="开票申请状态"
      tabs={TABS.map(([s, label]) => ({ href: hrefOf(s), label, current: s === status }))}
      headers={QUEUE_COLUMNS}
      items={list}
      row={(row) => (
        <tr key={row.id} data-testid="ops-invoice-row">
          <td className="mono">{row.order_no}</td>
          <td>{row.userId}</td>
          <td>{row.mobile}</td>
          <td>{INVOICE_TYPE_TEXT[row.type]}</td>
          <td>{row.head}</td>
          <td>{formatFen(row.money)}</td>
          <td>{row.orderCount}</td>
          <td className="nowrap">{APPLY_STATUS_TEXT[row.status]}</td>
          <td>{row.create_time}</td>
          <td>
            <Link to={`/ops/invoice/${row.id}`}>{row.status <= 2 ? '处理' : '查看'}</Link>
          </td>
        </tr>
      )}
      page={page}
      count={count}
      href={(p) => hrefOf(status, p)}
    />
  );
}
