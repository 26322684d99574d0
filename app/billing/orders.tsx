/**
 * /orders (spec 02 §2 "Orders", §3 "Recharge and consumption order", §4 "Orders", §7 `getOrderList`, §9): tabs
 * 充值记录 (1), 消费记录 (2) and 公证出证 (3), a GET filter form (date range, the end date to the end of its day, and
 * status), 10 rows a page by links. A pending recharge can be paid again (去支付: back to the Alipay cashier or the
 * WeChat page) or cancelled after a `<details>` confirmation (`cancelPay`, then Post/Redirect/Get to the same list).
 * A recharge's invoiceStatus shows as text (未开票/开票中/已开票/开票失败); a failed one (3) can be ticked again and
 * links 查看原因 to its rejected application's page, which shows the reason (spec 02 §4 "Orders"). A consumption whose
 * points were given back shows 已退款 (docs/decisions/019-billing-screens.md). An unknown or missing `intent` answers
 * 400 请求参数错误 without a call. Wide tables scroll inside themselves on a phone, as the other lists do.
 */
import { data, Form, Link, redirect } from 'react-router';
import type { Route } from './+types/orders';
import {
  BillingMsg,
  BillingPaths,
  formatFen,
  INVOICE_STATUS_TEXT,
  ORDER_TAB_LABELS,
  ORDERS_PAGE_SIZE,
  OrderNoBody,
  OrderTab,
  PAY_TYPE_TEXT,
  PayStatus,
  type NotaryOrderRow,
  type OrderListData,
  type OrderTabCode,
  type PointsOrderRow,
} from '../../contract/billing.ts';
import { isSuccess } from '../../contract/envelope.ts';
import { Msg } from '../../contract/messages.ts';
import { invoiceBlockReason, MAX_ORDERS_PER_APPLICATION } from '../../contract/invoice-codes.ts';
import { authedCall } from '../lib/auth.server.ts';
import { validateCsrf } from '../lib/csrf.server.ts';
import { ConfirmAction } from '../shell/confirm-action.tsx';
import { DataTable } from '../shell/data-table.tsx';
import { DateStatusFilter } from '../shell/date-status-filter.tsx';
import { FormErrors, FormNotice } from '../shell/field.tsx';
import { Pagination } from '../shell/pagination.tsx';
import { TabNav } from '../shell/tab-nav.tsx';
import { payPageOf } from './billing.server.ts';
import { ordersHref, readOrderFilters, statusChoices, toOrderListQuery } from './order-filters.ts';
import { readForm } from '../lib/form-body.server.ts';

export const meta: Route.MetaFunction = () => [{ title: '我的订单 - 存证云' }];

const DONE: Record<string, string> = { cancelled: BillingMsg.cancelled };
const TABS = Object.values(OrderTab) as OrderTabCode[];
/** The table each tab shows. */
const TABLES = { 1: 'recharge', 2: 'consumption', 3: 'notary' } as const satisfies Record<
  OrderTabCode,
  string
>;

/**
 * A recharge or consumption row as the page shows it: amounts in yuan, labels, where 去支付 leads, and for a recharge
 * why it cannot be ticked for an invoice (null when it can; the invoice area's rule, spec 02 §4 "Orders", §9).
 */
function pointsRow(r: PointsOrderRow, nowMs: number) {
  const pending = r.status === PayStatus.pending;
  return {
    id: r.id,
    invoiceBlock: r.type === OrderTab.recharge ? invoiceBlockReason(r, nowMs) : null,
    orderNo: r.order_no,
    createTime: r.create_time,
    desc: r.desc,
    points: r.balance,
    yuan: formatFen(r.money),
    payType: PAY_TYPE_TEXT[r.pay_type] ?? '',
    payStatus: r.pay_status,
    invoice: INVOICE_STATUS_TEXT[r.invoiceStatus] ?? '',
    payHref: pending && r.canPay ? payPageOf(r.order_no, r.pay_type) : null,
    canCancel: pending && r.type === OrderTab.recharge,
    // 开票失败: the rejected application's page shows the reason (spec 02 §4 "Orders"); re-applying is the tick box.
    // (the platform names the application only for a failed invoice)
    reasonHref: r.failedApplicationId !== null ? `/invoice/details?id=${r.failedApplicationId}` : null,
  };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const filters = readOrderFilters(url);
  const res = await authedCall<OrderListData>(request, context, BillingPaths.getOrderList, {
    method: 'GET',
    query: toOrderListQuery(filters),
  });
  const list = isSuccess(res.code) ? res.data.list : [];
  const notary = filters.tab === OrderTab.notary;
  const tabHref = (t: OrderTabCode) => (t === OrderTab.recharge ? '/orders' : `/orders?type=${t}`);
  // Labels and links are worked out here: the page's own JavaScript then needs no value of the contract module
  // (which would bring its zod schemas along, bench/page-weight.ts).
  return {
    filters,
    kind: TABLES[filters.tab],
    tabs: TABS.map((t) => ({ href: tabHref(t), label: ORDER_TAB_LABELS[t], current: t === filters.tab })),
    tabField: filters.tab === OrderTab.recharge ? null : String(filters.tab),
    resetHref: tabHref(filters.tab),
    statusOptions: Object.entries(statusChoices(filters.tab)).map(([value, label]) => ({ value, label })),
    firstPageHref: ordersHref(filters, { page: 1 }),
    pageSize: ORDERS_PAGE_SIZE,
    rows: notary ? [] : (list as PointsOrderRow[]).map((r) => pointsRow(r, Date.now())),
    notaryRows: notary ? (list as NotaryOrderRow[]) : [],
    count: isSuccess(res.code) ? res.data.count : 0,
    error: isSuccess(res.code) ? null : res.msg,
    notice: DONE[url.searchParams.get('done') ?? ''] ?? null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request, context);
  await validateCsrf(formData, request, context);
  // Back to the same list. Under single fetch the request URL is the data URL: only its query is the page's.
  const filters = readOrderFilters(new URL(request.url));
  // The one intent of this page: anything else (missing, unknown) is refused before any call.
  if (formData.get('intent') !== 'cancel') return data({ error: Msg.badRequest }, { status: 400 });
  const parsed = OrderNoBody.safeParse({ order_no: formData.get('order_no') ?? '' });
  if (!parsed.success) return data({ error: BillingMsg.orderNoInvalid }, { status: 400 });
  const res = await authedCall(request, context, BillingPaths.cancelPay, { body: parsed.data });
  if (!isSuccess(res.code)) return data({ error: res.msg }, { status: 400 });
  return redirect(ordersHref(filters, { done: 'cancelled' }));
}

export default function Orders({ loaderData, actionData }: Route.ComponentProps) {
  const { filters, kind, tabs, tabField, resetHref, statusOptions, firstPageHref, pageSize } = loaderData;
  const { rows, notaryRows, count, error, notice } = loaderData;
  return (
    <section className="page">
      <div className="page-head">
        <h1>我的订单</h1>
        <div className="head-actions">
          <Link to="/buyCredits" className="button primary">
            购买积分
          </Link>
        </div>
      </div>
      <TabNav label="订单类型" tabs={tabs} />
      <DateStatusFilter
        action="/orders"
        hidden={tabField ? { type: tabField } : undefined}
        filters={filters}
        statusName="isType"
        statusOptions={statusOptions}
        resetHref={resetHref}
      />
      <FormNotice text={notice} />
      <FormErrors errors={[error, actionData?.error].filter((e): e is string => !!e)} />
      {kind === 'notary' ? (
        <NotaryTable rows={notaryRows} />
      ) : (
        <PointsTable rows={rows} recharge={kind === 'recharge'} />
      )}
      {kind === 'recharge' ? (
        // The tick boxes of the rows belong to this GET form through their `form` attribute: the rows hold other
        // forms (取消订单), which cannot nest.
        <Form method="get" action="/orders/makeOutInvoice" id={INVOICE_FORM} className="toolbar">
          <button type="submit" className="button primary">
            申请开票
          </button>{' '}
          <span className="muted">
            勾选本年度已支付的充值订单（每次最多{MAX_ORDERS_PER_APPLICATION}条）后申请开票。
          </span>
        </Form>
      ) : null}
      <Pagination
        page={filters.page}
        pageSize={pageSize}
        count={count}
        href={(n) => `${firstPageHref}${firstPageHref.includes('?') ? '&' : '?'}page=${n}`}
      />
    </section>
  );
}

type Row = ReturnType<typeof pointsRow>;

/** The id of the GET form to /orders/makeOutInvoice that the recharge rows' tick boxes belong to. */
const INVOICE_FORM = 'make-out-invoice';

/** Tab 1 (recharges: amount, invoice, 去支付 and 取消订单 on pending ones) or tab 2 (every debit of points). */
function PointsTable({ rows, recharge }: { rows: Row[]; recharge: boolean }) {
  const headers = recharge
    ? ['开票', '订单号', '下单时间', '订单描述', '积分', '金额（元）', '支付方式', '状态', '发票', '操作']
    : ['订单号', '时间', '订单描述', '消费积分', '支付方式', '状态'];
  return (
    <DataTable
      headers={headers}
      items={rows}
      empty={recharge ? '暂无充值记录' : '暂无消费记录'}
      row={(r) => (
        <tr key={r.orderNo} data-testid="order-row">
          {recharge ? (
            <td>
              {r.invoiceBlock === null ? (
                <input
                  type="checkbox"
                  name="ids"
                  value={r.id}
                  form={INVOICE_FORM}
                  aria-label={`选择订单${r.orderNo}开票`}
                />
              ) : (
                <span className="muted" data-testid="invoice-block">
                  {r.invoiceBlock}
                </span>
              )}
            </td>
          ) : null}
          <td className="mono">{r.orderNo}</td>
          <td>{r.createTime}</td>
          <td>{r.desc}</td>
          <td>{r.points}</td>
          {recharge ? <td>{r.yuan}</td> : null}
          <td className="nowrap">{r.payType}</td>
          <td>{r.payStatus}</td>
          {recharge ? (
            <>
              <td className="nowrap">{r.invoice}</td>
              <td className="row-actions">
                {r.payHref ? <Link to={r.payHref}>去支付</Link> : null}
                {r.reasonHref ? (
                  <Link to={r.reasonHref} aria-label={`查看原因：订单${r.orderNo}开票失败`}>
                    查看原因
                  </Link>
                ) : null}
                {r.canCancel ? (
                  <ConfirmAction
                    summary="取消订单"
                    question="确认取消该订单？取消后不能再支付。"
                    confirm="确认取消"
                    intent="cancel"
                    fields={{ order_no: r.orderNo }}
                    tone="danger"
                  />
                ) : null}
              </td>
            </>
          ) : null}
        </tr>
      )}
    />
  );
}

/** Tab 3: notary orders (spec 02 §3 "Notary order (in the orders tab)"); the notarisation area supplies them. */
function NotaryTable({ rows }: { rows: NotaryOrderRow[] }) {
  return (
    <DataTable
      headers={['订单号', '下单时间', '积分', '支付状态']}
      items={rows}
      empty="暂无公证出证记录"
      row={(r) => (
        <tr key={r.id} data-testid="order-row">
          <td className="mono">{r.orderNo}</td>
          <td>{r.addTime}</td>
          <td>{r.money}</td>
          <td className="nowrap">{r.pay}</td>
        </tr>
      )}
    />
  );
}
