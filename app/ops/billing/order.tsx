/**
 * /ops/billing/{orderNo}: one order in the operator console (role `finance`; docs/decisions/019-billing-screens.md):
 * the order and the user's balance, every payment notification received for it (raw body and signature headers,
 * with the verdict it got), its points journal entries, and a manual reconcile after a `<details>` confirmation:
 * the platform asks the provider now and applies the answer exactly once, then the page shows 已完成对账 (PRG).
 * The platform audits viewing and reconciling.
 */
import type { ReactNode } from 'react';
import { data, Link, redirect } from 'react-router';
import type { Route } from './+types/order';
import { BillingMsg, formatFen, ORDER_NO_RE, PAY_TYPE_TEXT } from '../../../contract/billing.ts';
import { BillingOpsPaths, type OpsOrderDetail } from '../../../contract/billing-ops.ts';
import { isSuccess } from '../../../contract/envelope.ts';
import { validateCsrf } from '../../lib/csrf.server.ts';
import { ConfirmAction } from '../../shell/confirm-action.tsx';
import { DataTable } from '../../shell/data-table.tsx';
import { FormErrors, FormNotice } from '../../shell/field.tsx';
import { opsCall, opsData } from '../ops.server.ts';
import { JOURNAL_KIND_LABEL, PROVIDER_LABEL, VERDICT_LABEL } from './labels.ts';
import { readForm } from '../../lib/form-body.server.ts';
import { FactRow } from '../../shell/facts.tsx';

export const meta: Route.MetaFunction = () => [{ title: '订单详情 - 运营后台 - 存证云' }];

function orderNoOf(params: { orderNo?: string }): string {
  const no = params.orderNo ?? '';
  if (!ORDER_NO_RE.test(no)) throw data({ message: BillingMsg.orderNotFound }, { status: 404 });
  return no;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const orderNo = orderNoOf(params);
  const d = await opsData<OpsOrderDetail>(request, context, BillingOpsPaths.order, {
    method: 'GET',
    query: { order_no: orderNo },
  });
  const done = new URL(request.url).searchParams.get('done');
  return { detail: d, notice: done === 'reconciled' ? BillingMsg.reconciled : null };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const orderNo = orderNoOf(params);
  const formData = await readForm(request, context);
  await validateCsrf(formData, request, context);
  const res = await opsCall(request, context, BillingOpsPaths.reconcile, { body: { order_no: orderNo } });
  if (!isSuccess(res.code)) return data({ error: res.msg }, { status: 400 });
  return redirect(`/ops/billing/${encodeURIComponent(orderNo)}?done=reconciled`);
}

export default function OpsOrder({ loaderData, actionData }: Route.ComponentProps) {
  const { detail, notice } = loaderData;
  const o = detail.order;
  const facts: [string, ReactNode][] = [
    ['用户ID', o.userId],
    ['手机号', o.mobile],
    ['积分', o.integral],
    ['金额', `¥${formatFen(o.amountFen)}`],
    ['支付方式', PAY_TYPE_TEXT[o.pay_type] ?? ''],
    ['状态', o.pay_status],
    ['渠道交易号', o.tradeNo || '-'],
    ['下单时间', o.createdAt],
    ['支付时间', o.paidAt || '-'],
    ['用户积分余额', detail.balance],
    ...(o.flagged ? ([['异常', o.flagReason || BillingMsg.flagged]] as [string, ReactNode][]) : []),
  ];
  return (
    <>
      <p className="breadcrumb">
        <Link to="/ops/billing">订单管理</Link> / 订单详情
      </p>
      <h1>
        <span className="mono">{o.order_no}</span> <span className="tag">{o.pay_status}</span>
      </h1>
      <FormNotice text={notice} />
      <FormErrors errors={actionData?.error ? [actionData.error] : undefined} />
      <dl className="facts">
        {facts.map(([label, value]) => (
          <FactRow key={label} label={label} value={value} />
        ))}
      </dl>
      <ConfirmAction
        summary="手动对账"
        summaryClassName="button"
        question="向支付渠道查询该订单的最新状态，已付款的订单将入账（不会重复入账）。确认对账？"
        confirm="确认对账"
        intent="reconcile"
        tone="primary"
      />
      <h2 className="section-title">支付通知（{detail.notifications.length}）</h2>
      <DataTable
        headers={['接收时间', '渠道', '处理结果', '说明', '原文']}
        items={detail.notifications}
        empty="暂未收到支付通知"
        row={(n) => (
          <tr key={n.id} data-testid="ops-notification-row">
            <td>{n.receivedAt}</td>
            <td>{PROVIDER_LABEL[n.provider] ?? n.provider}</td>
            <td>{VERDICT_LABEL[n.verdict] ?? n.verdict}</td>
            <td>{n.detail}</td>
            <td>
              <details>
                <summary>查看</summary>
                <pre className="code-block">{n.headers ? `${n.headers}\n\n${n.raw}` : n.raw}</pre>
              </details>
            </td>
          </tr>
        )}
      />
      <h2 className="section-title">积分流水</h2>
      <DataTable
        headers={['时间', '类型', '积分', '订单号']}
        items={detail.journal}
        empty="暂无积分变动"
        row={(j) => (
          <tr key={j.id} data-testid="ops-journal-row">
            <td>{j.at}</td>
            <td>{JOURNAL_KIND_LABEL[j.kind] ?? j.kind}</td>
            <td>{j.points > 0 ? `+${j.points}` : j.points}</td>
            <td className="mono">{j.order_no}</td>
          </tr>
        )}
      />
    </>
  );
}
