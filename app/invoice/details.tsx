/**
 * /invoice/details?id (spec 02 §2 "Invoices", §3 "Invoice detail", "Invoice order row", §4 "Invoice application
 * status", §7 `invoiceDetail`, `checkFail`): one application of the user: its status, the invoice info (type, head,
 * tax number, the special invoice's bank fields, content 技术服务费, money), the delivery address as it was when
 * asked, the remark, the check remark (a rejected application shows its reason from `checkFail`), the courier
 * number, the issued files and the related orders. Each file is a plain GET link back to this route
 * (`&file=<fileId>`): the loader asks the platform for the file's signed, expiring URL (`invoiceFile`) and redirects
 * there, so the URL is never shown in the page. Another user's application answers 404.
 */
import type { ReactNode } from 'react';
import { data, Link, redirect } from 'react-router';
import type { Route } from './+types/details';
import { ApiCode, isSuccess } from '../../contract/envelope.ts';
import { APPLY_STATUS_TEXT, ApplyStatus } from '../../contract/invoice-codes.ts';
import { InvoiceMsg, InvoicePaths, type InvoiceDetailData } from '../../contract/invoice.ts';
import { authedCall } from '../lib/auth.server.ts';
import { DataTable } from '../shell/data-table.tsx';
import { FormErrors } from '../shell/field.tsx';
import { formatSize } from '../shell/format-size.ts';
import { addressFacts, Facts, invoiceFacts, OrdersTable } from './invoice-ui.tsx';
import { useAppUrl } from '../lib/base-path.ts';

export const meta: Route.MetaFunction = () => [{ title: '发票详情 - 存证云' }];

const ID_RE = /^[1-9]\d{0,14}$/;

/** A 404 page with `message`. */
function notFound(message: string) {
  return data({ message }, { status: 404 });
}

/** The file's signed URL from the platform, as a redirect. @throws a 404 response when it is not the caller's */
async function fileRedirect(
  request: Request,
  context: Route.LoaderArgs['context'],
  id: string,
  fileId: string,
) {
  if (!ID_RE.test(fileId)) throw notFound(InvoiceMsg.fileNotFound);
  const res = await authedCall<{ downUrl: string }>(request, context, InvoicePaths.invoiceFile, {
    body: { id, fileId },
  });
  if (!isSuccess(res.code) || !res.data.downUrl.startsWith('/'))
    throw notFound(res.msg || InvoiceMsg.fileNotFound);
  return redirect(res.data.downUrl, { headers: { 'Cache-Control': 'no-store' } });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const id = url.searchParams.get('id') ?? '';
  if (!ID_RE.test(id)) throw notFound(InvoiceMsg.applicationNotFound);
  const fileId = url.searchParams.get('file');
  if (fileId !== null) throw await fileRedirect(request, context, id, fileId);
  const res = await authedCall<InvoiceDetailData>(request, context, InvoicePaths.invoiceDetail, {
    body: { id },
  });
  if (Number(res.code) === ApiCode.NOT_FOUND) throw notFound(res.msg || InvoiceMsg.applicationNotFound);
  if (!isSuccess(res.code)) throw data({ message: res.msg }, { status: 502 });
  const { detail, orderList } = res.data;
  let reason: string | null = null;
  let error: string | null = null;
  if (detail.status === ApplyStatus.rejected) {
    const fail = await authedCall<{ checkRemark: string }>(request, context, InvoicePaths.checkFail, {
      body: { id },
    });
    if (isSuccess(fail.code)) reason = fail.data.checkRemark;
    else error = fail.msg;
  }
  return { detail, orderList, reason: reason ?? (detail.check_remark || null), error };
}

export default function InvoiceDetails({ loaderData }: Route.ComponentProps) {
  const appUrl = useAppUrl();
  const { detail: d, orderList, reason, error } = loaderData;
  const rejected = d.status === ApplyStatus.rejected;
  const summary: [string, ReactNode][] = [
    ['申请编号', <span className="mono">{d.order_no}</span>],
    ['申请时间', d.create_time],
    ['状态', <span data-testid="apply-status">{APPLY_STATUS_TEXT[d.status]}</span>],
    [rejected ? '拒绝时间' : '开票时间', d.decided_time],
    ['快递单号', d.courier_number ? <span className="mono">{d.courier_number}</span> : ''],
  ];
  return (
    <section className="page">
      <p className="breadcrumb">
        <Link to="/invoice?activeName=1">我的发票</Link> / 发票详情
      </p>
      <h1>发票详情</h1>
      <FormErrors errors={error ? [error] : undefined} />
      {rejected && reason ? (
        <div className="form-error" role="alert" data-testid="reject-reason">
          <p>审核不通过原因：{reason}</p>
          <p>
            订单可重新申请开票：<Link to="/orders">前往我的订单</Link>
          </p>
        </div>
      ) : null}
      <Facts rows={summary} />
      <h2 className="section-title">发票信息</h2>
      <Facts rows={invoiceFacts(d)} />
      <h2 className="section-title">收货地址</h2>
      <Facts rows={addressFacts(d)} />
      <h2 className="section-title">备注</h2>
      <Facts
        rows={[
          ['用户备注', d.remark || '无'],
          ['审核备注', d.check_remark],
        ]}
      />
      {d.files.length > 0 ? (
        <>
          <h2 className="section-title">发票文件</h2>
          <DataTable
            headers={['文件名', '格式', '大小', '操作']}
            items={d.files}
            empty="暂无发票文件"
            row={(f) => (
              <tr key={f.id} data-testid="invoice-file-row">
                <td>{f.name}</td>
                <td>{f.format.toUpperCase()}</td>
                <td>{formatSize(f.size)}</td>
                <td>
                  <a href={appUrl(`/invoice/details?id=${d.id}&file=${f.id}`)} download={f.name}>
                    下载
                  </a>
                </td>
              </tr>
            )}
          />
        </>
      ) : null}
      <h2 className="section-title">关联订单</h2>
      <OrdersTable rows={orderList} />
    </section>
  );
}
