/**
 * /ops/notary: the notary office's queue of paid notarisation orders in the operator console (role `notary`;
 * docs/decisions/034-notary.md): tabs 待受理 (paid, not yet accepted, oldest paid first; an order sent back
 * to the user for more material waits here too), 出证中 (accepted) and 已办结 (issued or terminated, newest first),
 * 20 a page, all plain links; each row opens /ops/notary/:id.
 */
import { Link } from 'react-router';
import type { Route } from './+types/queue';
import { STEP_TEXT } from '../../../contract/notary-codes.ts';
import {
  NOTARY_QUEUE_STATE_TEXT,
  NotaryOpsPaths,
  NotaryQueueState,
  type NotaryQueueRow,
} from '../../../contract/notary-office-codes.ts';
import { opsQueuePage } from '../queue.server.ts';
import { OpsQueueView } from '../queue-view.tsx';
import { officeStateLabel } from './labels.ts';

export const meta: Route.MetaFunction = () => [{ title: '公证受理 - 运营后台 - 存证云' }];

/** The queue's states in tab order. */
const STATES = [NotaryQueueState.waiting, NotaryQueueState.accepted, NotaryQueueState.decided] as const;
type QueueState = (typeof STATES)[number];

/** The queue's URL for `state` and `page` (the first tab and the first page without their parameter). */
function hrefOf(state: QueueState, page = 1): string {
  const params = new URLSearchParams();
  if (state !== NotaryQueueState.waiting) params.set('state', String(state));
  if (page > 1) params.set('page', String(page));
  const query = params.toString();
  return query ? `/ops/notary?${query}` : '/ops/notary';
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const state = STATES.find((s) => String(s) === url.searchParams.get('state')) ?? NotaryQueueState.waiting;
  const queue = await opsQueuePage<NotaryQueueRow>(request, context, NotaryOpsPaths.queue, { state });
  return { state, ...queue };
}

/** The queue table's columns. */
const QUEUE_COLUMNS = [
  '订单号',
  '手机号',
  '公证类型',
  '记录数',
  '积分',
  '支付时间',
  '当前步骤',
  '状态',
  '公证书编号',
  '操作',
];

export default function NotaryQueue({ loaderData: { state, page, list, count } }: Route.ComponentProps) {
  return (
    <OpsQueueView
      title="公证受理"
      tabsLabel="公证订单状态"
      tabs={STATES.map((s) => ({
        href: hrefOf(s),
        label: NOTARY_QUEUE_STATE_TEXT[s],
        current: s === state,
      }))}
      headers={QUEUE_COLUMNS}
      items={list}
      row={(row) => (
        <tr key={row.id} data-testid="ops-notary-row">
          <td className="mono">{row.orderNo}</td>
          <td>{row.mobile}</td>
          <td className="nowrap">{row.typeName}</td>
          <td>{row.number}</td>
          <td>{row.money}</td>
          <td>{row.paidAt}</td>
          <td className="nowrap">{STEP_TEXT[row.step]}</td>
          <td className="nowrap">{officeStateLabel(row)}</td>
          <td>{row.certificateNo ?? ''}</td>
          <td>
            <Link to={`/ops/notary/${row.id}`}>{state === NotaryQueueState.decided ? '查看' : '处理'}</Link>
          </td>
        </tr>
      )}
      page={page}
      count={count}
      href={(p) => hrefOf(state, p)}
    />
  );
}
