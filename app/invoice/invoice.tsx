/**
 * /invoice?activeName=1|2 (spec 02 §2 "Invoices", §3, §4 "Invoice application status", §5 "Invoice heads", §7, §9):
 * two tabs as links. 1 开票申请: the user's applications (`invoiceList`, 10 a page by links) with a GET filter form
 * (date range, the end date to the end of its day, and status 待开票/开票中/已开票/已拒绝); each row opens
 * /invoice/details?id. 2 发票抬头管理: the heads with add, edit and delete (app/invoice/heads.tsx). Every change
 * answers with Post/Redirect/Get and its message (新增成功, 修改成功, 已删除该条发票抬头; 提交成功 after an
 * application from /orders/makeOutInvoice).
 */
import { parseWithZod } from '@conform-to/zod/v4';
import { data, Link, redirect, useLocation } from 'react-router';
import type { Route } from './+types/invoice';
import { formatFen } from '../../contract/billing-codes.ts';
import { isSuccess } from '../../contract/envelope.ts';
import { Msg } from '../../contract/messages.ts';
import {
  APPLY_FILTER_TEXT,
  APPLY_STATUS_TEXT,
  INVOICE_CONTENT,
  INVOICE_PAGE_SIZE,
  INVOICE_TAB_TEXT,
  InvoiceTab,
  MAX_INVOICE_HEADS,
} from '../../contract/invoice-codes.ts';
import {
  InvoiceHeadBody,
  InvoiceMsg,
  InvoicePaths,
  type InvoiceHead,
  type InvoiceListData,
} from '../../contract/invoice.ts';
import { authedCall } from '../lib/auth.server.ts';
import { validateCsrf } from '../lib/csrf.server.ts';
import { readForm } from '../lib/form-body.server.ts';
import { DataTable } from '../shell/data-table.tsx';
import { DateStatusFilter } from '../shell/date-status-filter.tsx';
import { FormErrors, FormNotice } from '../shell/field.tsx';
import { Pagination } from '../shell/pagination.tsx';
import { TabNav } from '../shell/tab-nav.tsx';
import { HeadForm, HeadsTable, headValues } from './heads.tsx';
import { applyListHref, readApplyFilters, toInvoiceListBody } from './invoice.server.ts';

export const meta: Route.MetaFunction = () => [{ title: '我的发票 - 存证云' }];

const DONE: Record<string, string> = {
  added: InvoiceMsg.headAdded,
  edited: InvoiceMsg.headEdited,
  deleted: InvoiceMsg.headDeleted,
  asked: InvoiceMsg.asked,
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const tab =
    url.searchParams.get('activeName') === InvoiceTab.heads ? InvoiceTab.heads : InvoiceTab.applications;
  const notice = DONE[url.searchParams.get('done') ?? ''] ?? null;
  const tabs = Object.values(InvoiceTab).map((t) => ({
    href: `/invoice?activeName=${t}`,
    label: INVOICE_TAB_TEXT[t],
    current: t === tab,
  }));
  if (tab === InvoiceTab.heads) {
    const res = await authedCall<InvoiceHead[]>(request, context, InvoicePaths.riseList, { method: 'GET' });
    const heads = isSuccess(res.code) ? res.data : [];
    const editing = heads.find((h) => String(h.id) === url.searchParams.get('edit')) ?? null;
    return {
      tab,
      tabs,
      notice,
      error: isSuccess(res.code) ? null : res.msg,
      heads,
      editing: editing ? headValues(editing) : null,
      list: null,
    };
  }
  const filters = readApplyFilters(url);
  const res = await authedCall<InvoiceListData>(request, context, InvoicePaths.invoiceList, {
    body: toInvoiceListBody(filters),
  });
  const rows = isSuccess(res.code) ? res.data.list : [];
  return {
    tab,
    tabs,
    notice,
    error: isSuccess(res.code) ? null : res.msg,
    heads: [] as InvoiceHead[],
    editing: null,
    list: {
      filters,
      statusOptions: Object.entries(APPLY_FILTER_TEXT).map(([value, label]) => ({ value, label })),
      rows: rows.map((r) => ({
        id: r.id,
        no: r.order_no,
        time: r.create_time,
        yuan: formatFen(r.money),
        orderCount: r.orderCount,
        status: APPLY_STATUS_TEXT[r.status] ?? '',
      })),
      count: isSuccess(res.code) ? res.data.count : 0,
      pageHrefs: { first: applyListHref(filters, 1) },
    },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request, context);
  await validateCsrf(formData, request, context);
  const intent = formData.get('intent');
  // Two intents (删除 a head, 保存 the form); anything else, missing included, is refused before any call.
  if (intent !== 'del' && intent !== 'save')
    return data({ result: undefined, error: Msg.badRequest }, { status: 400 });
  if (intent === 'del') {
    const res = await authedCall(request, context, InvoicePaths.delInvoice, {
      body: { id: String(formData.get('id') ?? '') },
    });
    if (!isSuccess(res.code)) return data({ result: undefined, error: res.msg }, { status: 400 });
    return redirect('/invoice?activeName=2&done=deleted');
  }
  const submission = parseWithZod(formData, { schema: InvoiceHeadBody });
  if (submission.status !== 'success')
    return data({ result: submission.reply(), error: null }, { status: 400 });
  const id = String(formData.get('id') ?? '');
  const v = submission.value;
  const body = {
    head: v.head,
    type: v.type,
    taxNum: v.taxNum,
    bankName: v.bankName ?? '',
    account: v.account ?? '',
    street: v.street ?? '',
    phoneNumber: v.phoneNumber ?? '',
    ...(id ? { id } : {}),
  };
  const res = await authedCall(request, context, id ? InvoicePaths.editInvoice : InvoicePaths.addInvoice, {
    body,
  });
  if (!isSuccess(res.code))
    return data({ result: submission.reply({ formErrors: [res.msg] }), error: null }, { status: 400 });
  return redirect(`/invoice?activeName=2&done=${id ? 'edited' : 'added'}`);
}

export default function Invoices({ loaderData, actionData }: Route.ComponentProps) {
  const { tab, tabs, notice, error, heads, editing, list } = loaderData;
  // A new form after every navigation (a saved head empties it with JavaScript too); kept on a refused save.
  const { key: locationKey } = useLocation();
  return (
    <section className="page">
      <div className="page-head">
        <h1>我的发票</h1>
        <div className="head-actions">
          <Link to="/orders" className="button primary">
            去开票
          </Link>
        </div>
      </div>
      <TabNav label="发票" tabs={tabs} />
      <FormNotice text={notice} />
      <FormErrors errors={[error, actionData?.error].filter((e): e is string => !!e)} />
      {tab === InvoiceTab.heads ? (
        <>
          <HeadsTable heads={heads} />
          <p className="muted">
            最多保存 {MAX_INVOICE_HEADS} 个发票抬头，已保存 {heads.length} 个。发票内容均为“{INVOICE_CONTENT}
            ”。
          </p>
          <HeadForm
            key={`${editing?.id || 'new'}-${locationKey}`}
            editing={editing}
            count={heads.length}
            lastResult={actionData?.result}
          />
        </>
      ) : list ? (
        <ApplicationList list={list} />
      ) : null}
    </section>
  );
}

type ListData = NonNullable<Route.ComponentProps['loaderData']['list']>;

/** Tab 1: the filter form, the applications and the pages. */
function ApplicationList({ list }: { list: ListData }) {
  const { filters, statusOptions, rows, count, pageHrefs } = list;
  return (
    <>
      <DateStatusFilter
        action="/invoice"
        hidden={{ activeName: '1' }}
        filters={filters}
        statusName="status"
        statusOptions={statusOptions}
        resetHref="/invoice?activeName=1"
      />
      <DataTable
        headers={['申请编号', '申请时间', '开票金额（元）', '订单数', '状态', '操作']}
        items={rows}
        empty="暂无开票申请"
        row={(r) => (
          <tr key={r.id} data-testid="apply-row">
            <td className="mono">{r.no}</td>
            <td>{r.time}</td>
            <td>{r.yuan}</td>
            <td>{r.orderCount}</td>
            <td className="nowrap">{r.status}</td>
            <td>
              <Link to={`/invoice/details?id=${r.id}`}>查看详情</Link>
            </td>
          </tr>
        )}
      />
      <Pagination
        page={filters.page}
        pageSize={INVOICE_PAGE_SIZE}
        count={count}
        href={(n) => `${pageHrefs.first}&page=${n}`}
      />
    </>
  );
}
