/**
 * /notary — 我的公证 (spec 02 §2 "Notary list", §3 "Notary order list query", §4 "Notary order rows", "End
 * operation"; decision 034): the add-notarisation button, filters for the date range, payment status, issuance
 * status and order number (a GET form: the filters live in the URL), the table 10 a page with the pay and issuance
 * texts ('-----' for an unfinished order), and each row's actions: continue at the order's step or end it (a
 * confirmation step that works without JavaScript, with the spec's question; a paid order not yet accepted gets its
 * points back), or view the details.
 */
import { data, Form, Link, redirect } from 'react-router';
import type { Route } from './+types/list';
import { isSuccess } from '../../contract/envelope.ts';
import { Msg } from '../../contract/messages.ts';
import { NotaryPaths, type NotaryOrderListData } from '../../contract/notary.ts';
import {
  NOTARIAL_TEXT,
  NOTARY_PAGE_SIZE,
  NOTARY_PAY_TEXT,
  NotaryMsg,
  notaryRowActions,
  notaryType,
  UNFINISHED,
} from '../../contract/notary-codes.ts';
import { authedCall } from '../lib/auth.server.ts';
import { validateCsrf } from '../lib/csrf.server.ts';
import { readForm } from '../lib/form-body.server.ts';
import { beijingDayStart } from '../evidence/filters.ts';
import { END_OF_DAY_SECONDS } from '../../contract/evidence-codes.ts';
import { ConfirmAction } from '../shell/confirm-action.tsx';
import { DataTable } from '../shell/data-table.tsx';
import { FormErrors, FormNotice } from '../shell/field.tsx';
import { Pagination } from '../shell/pagination.tsx';
import { isOrderId } from './notary.server.ts';
import { stepPath } from './step-path.ts';

export const meta: Route.MetaFunction = () => [{ title: '我的公证 - 存证云' }];

/** The list's filters as the URL holds them: dates YYYY-MM-DD, pay 0–3, notarial '' (all), 0 (unfinished) or 1–4. */
interface NotaryFilters {
  startDate: string;
  endDate: string;
  payType: string;
  notarialType: string;
  orderNo: string;
  page: number;
}

function readFilters(url: URL): NotaryFilters {
  const p = url.searchParams;
  const date = (name: string) => (beijingDayStart(p.get(name) ?? '') === undefined ? '' : p.get(name)!);
  const pick = (name: string, ok: readonly string[]) => (ok.includes(p.get(name) ?? '') ? p.get(name)! : '');
  const page = Number(p.get('page') ?? 1);
  return {
    startDate: date('startDate'),
    endDate: date('endDate'),
    payType: pick('payType', ['1', '2', '3']),
    notarialType: pick('notarialType', ['0', '1', '2', '3', '4']),
    orderNo: (p.get('orderNo') ?? '')
      .trim()
      .replace(/[^A-Za-z0-9]/g, '')
      .slice(0, 64),
    page: Number.isSafeInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
  };
}

function listHref(f: NotaryFilters, page: number): string {
  const p = new URLSearchParams();
  for (const k of ['startDate', 'endDate', 'payType', 'notarialType', 'orderNo'] as const)
    if (f[k]) p.set(k, f[k]);
  if (page > 1) p.set('page', String(page));
  const qs = p.toString();
  return qs ? `/notary?${qs}` : '/notary';
}

const DONE: Record<string, string> = { stopped: NotaryMsg.stopped, refunded: NotaryMsg.refunded };

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const f = readFilters(url);
  const endDay = beijingDayStart(f.endDate);
  const res = await authedCall<NotaryOrderListData>(request, context, NotaryPaths.orderList, {
    query: {
      page: f.page,
      startTime: beijingDayStart(f.startDate),
      endTime: endDay === undefined ? undefined : endDay + END_OF_DAY_SECONDS,
      payType: f.payType || undefined,
      notarialType: f.notarialType || undefined,
      orderNo: f.orderNo || undefined,
    },
  });
  return {
    filters: f,
    list: isSuccess(res.code) ? res.data.list : [],
    count: isSuccess(res.code) ? res.data.count : 0,
    error: isSuccess(res.code) ? null : res.msg,
    notice: DONE[url.searchParams.get('done') ?? ''] ?? null,
  };
}

/** `intent=stop {orderId}`: the end operation; back to the list with its outcome (Post/Redirect/Get). */
export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request, context);
  await validateCsrf(formData, request, context);
  const orderId = String(formData.get('orderId') ?? '');
  if (formData.get('intent') !== 'stop') return data({ error: Msg.badRequest }, { status: 400 });
  if (!isOrderId(orderId)) return data({ error: NotaryMsg.orderNotFound }, { status: 400 });
  const res = await authedCall(request, context, NotaryPaths.stop, { method: 'POST', body: { orderId } });
  if (!isSuccess(res.code)) return data({ error: res.msg }, { status: 400 });
  return redirect(`/notary?done=${res.msg === NotaryMsg.refunded ? 'refunded' : 'stopped'}`);
}

export default function NotaryList({ loaderData, actionData }: Route.ComponentProps) {
  const { filters: f, list, count, error, notice } = loaderData;
  return (
    <section className="page">
      <div className="page-head">
        <h1>我的公证</h1>
        <Link className="button primary" to="/notary/selectList">
          新增公证
        </Link>
      </div>
      <FormNotice text={notice} />
      <FormErrors errors={[error, actionData?.error].filter((e): e is string => !!e)} />
      <Form method="get" className="filters" role="search" key={listHref(f, 1)}>
        <label>
          开始日期 <input type="date" name="startDate" defaultValue={f.startDate} />
        </label>
        <label>
          结束日期 <input type="date" name="endDate" defaultValue={f.endDate} />
        </label>
        <label>
          支付状态
          <select name="payType" defaultValue={f.payType}>
            <option value="">全部</option>
            {Object.entries(NOTARY_PAY_TEXT).map(([v, t]) => (
              <option key={v} value={v}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <label>
          出证状态
          <select name="notarialType" defaultValue={f.notarialType}>
            <option value="">全部</option>
            <option value="0">未完成</option>
            {Object.entries(NOTARIAL_TEXT).map(([v, t]) => (
              <option key={v} value={v}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <label>
          订单编号 <input type="search" name="orderNo" defaultValue={f.orderNo} maxLength={64} />
        </label>
        <button type="submit" className="button">
          查询
        </button>
        <Link to="/notary">重置</Link>
      </Form>
      <DataTable
        headers={[
          '订单编号',
          '公证类型',
          '证据数量',
          '费用(积分)',
          '创建时间',
          '支付状态',
          '出证状态',
          '操作',
        ]}
        items={list}
        empty="暂无公证订单"
        row={(r) => {
          const actions = notaryRowActions(r);
          return (
            <tr key={r.id} data-testid="notary-row">
              <td className="mono">{r.orderNo}</td>
              <td className="nowrap">{notaryType(r.type)?.name ?? '-'}</td>
              <td>{r.number}</td>
              <td>{r.money}</td>
              <td>{r.addTime}</td>
              <td className="nowrap" data-testid="notary-pay">
                {NOTARY_PAY_TEXT[r.pay]}
              </td>
              <td className="nowrap" data-testid="notary-notarial">
                {r.notarial === null ? UNFINISHED : NOTARIAL_TEXT[r.notarial]}
              </td>
              <td className="actions">
                {actions === 'continue-or-end' ? (
                  <>
                    <Link to={stepPath(r.step, r.id, r.type)}>{r.step === 5 ? '查看详情' : '继续办理'}</Link>{' '}
                    <ConfirmAction
                      summary="结束操作"
                      question={NotaryMsg.confirmStop}
                      confirm="确认关闭"
                      intent="stop"
                      fields={{ orderId: r.id }}
                      tone="danger"
                    />
                  </>
                ) : actions === 'details' ? (
                  <Link to={stepPath(5, r.id, r.type)}>查看详情</Link>
                ) : (
                  '-'
                )}
              </td>
            </tr>
          );
        }}
      />
      <Pagination page={f.page} pageSize={NOTARY_PAGE_SIZE} count={count} href={(n) => listHref(f, n)} />
    </section>
  );
}
