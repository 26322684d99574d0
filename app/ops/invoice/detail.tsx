/**
 * /ops/invoice/:id: one invoice application in the operator console (role `finance`; spec 02 §4 "Invoice application
 * status", §9; docs/decisions/022-invoices.md): the application, the user, the head and delivery address snapshots,
 * the orders and the issued files; while it waits (待开票 or 提交财务): 提交财务 after a `<details>` confirmation
 * (1 → 2), 开票 (an electronic invoice: 1–5 PDF or OFD files, one per file input as the platform takes them, which
 * stream through the gateway to the platform unparsed, the CSRF token in the form's URL; a paper special invoice: the courier number), or 拒绝
 * with a required reason the user sees. Issuing and rejecting land on the console home with their message; the
 * platform checks the files by their bytes, notifies the user and audits every action.
 */
import type { ReactNode } from 'react';
import { data, Form, Link, redirect } from 'react-router';
import type { Route } from './+types/detail';
import { isSuccess } from '../../../contract/envelope.ts';
import {
  APPLY_STATUS_TEXT,
  CHECK_REMARK_MAX_CHARS,
  INVOICE_FILE_MAX_BYTES,
  MAX_INVOICE_FILES,
} from '../../../contract/invoice-codes.ts';
import {
  INVOICE_FILE_FIELDS,
  InvoiceCourierBody,
  InvoiceMsg,
  InvoiceOpsPaths,
  InvoiceRejectBody,
  type InvoiceOpsDetail,
} from '../../../contract/invoice.ts';
import { Msg } from '../../../contract/messages.ts';
import { validateCsrf, validateCsrfInUrl } from '../../lib/csrf.server.ts';
import { readForm } from '../../lib/form-body.server.ts';
import { ConfirmAction } from '../../shell/confirm-action.tsx';
import { useCsrfToken, CsrfInput } from '../../shell/csrf-input.tsx';
import { DataTable } from '../../shell/data-table.tsx';
import { Field, FormErrors, FormNotice } from '../../shell/field.tsx';
import { addressFacts, Facts, invoiceFacts, OrdersTable } from '../../invoice/invoice-ui.tsx';
import { opsCall, opsData } from '../ops.server.ts';
import { useAppUrl } from '../../lib/base-path.ts';

export const meta: Route.MetaFunction = () => [{ title: '开票申请 - 运营后台 - 存证云' }];

/** Multipart framing allowance over the files' limit when checking Content-Length early (bytes). */
const MULTIPART_OVERHEAD = 64 * 1024;
const ACCEPT = '.pdf,.ofd,application/pdf,application/ofd';
/** One file input per multipart field the platform takes (one file each), as many as an application may get. */
const FILE_FIELDS = INVOICE_FILE_FIELDS.slice(0, MAX_INVOICE_FILES);

function idOf(params: { id?: string }): number {
  const id = Number(params.id);
  if (!/^[1-9]\d{0,14}$/.test(params.id ?? '') || !Number.isSafeInteger(id))
    throw data({ message: InvoiceMsg.applicationNotFound }, { status: 404 });
  return id;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const id = idOf(params);
  const d = await opsData<InvoiceOpsDetail>(request, context, InvoiceOpsPaths.detail, {
    method: 'GET',
    query: { id },
  });
  const done = new URL(request.url).searchParams.get('done');
  return { d, notice: done === 'submitted' ? InvoiceMsg.submittedToFinance : null };
}

/** What a failed action shows: a page-level message and the field errors, with the reason typed. */
interface Failure {
  error: string | null;
  fields: { remark?: string; courierNumber?: string; file?: string };
  remark: string;
}
const failure = (f: Partial<Failure>, status = 400) =>
  data<Failure>({ error: null, fields: {}, remark: '', ...f }, { status });

export async function action({ request, context, params }: Route.ActionArgs) {
  const id = idOf(params);
  const contentType = request.headers.get('Content-Type') ?? '';
  if (contentType.startsWith('multipart/form-data')) {
    // An electronic invoice's files: forwarded as a stream, never parsed or buffered here.
    await validateCsrfInUrl(request, context);
    if (
      Number(request.headers.get('Content-Length') ?? 0) >
      MAX_INVOICE_FILES * INVOICE_FILE_MAX_BYTES + MULTIPART_OVERHEAD
    )
      return failure({ fields: { file: Msg.fileTooLarge(INVOICE_FILE_MAX_BYTES) } }, 413);
    if (!request.body) return failure({ fields: { file: InvoiceMsg.filesRequired } });
    const res = await opsCall(request, context, InvoiceOpsPaths.issue, {
      method: 'POST',
      stream: { body: request.body, contentType },
    });
    if (!isSuccess(res.code)) return failure({ fields: { file: res.msg } });
    return redirect('/ops?done=invoiceIssued');
  }
  const formData = await readForm(request, context);
  await validateCsrf(formData, request, context);
  formData.set('id', String(id));
  const intent = formData.get('intent');
  if (intent === 'submit') {
    const res = await opsCall(request, context, InvoiceOpsPaths.submit, { body: { id } });
    if (!isSuccess(res.code)) return failure({ error: res.msg });
    return redirect(`/ops/invoice/${id}?done=submitted`);
  }
  if (intent === 'courier') {
    const parsed = InvoiceCourierBody.safeParse(Object.fromEntries(formData));
    if (!parsed.success)
      return failure({
        fields: { courierNumber: parsed.error.issues[0]?.message ?? InvoiceMsg.courierInvalid },
      });
    const res = await opsCall(request, context, InvoiceOpsPaths.issue, { body: parsed.data });
    if (!isSuccess(res.code)) return failure({ fields: { courierNumber: res.msg } });
    return redirect('/ops?done=invoiceIssued');
  }
  const remark = String(formData.get('remark') ?? '');
  const parsed = InvoiceRejectBody.safeParse({ id, remark });
  if (!parsed.success)
    return failure({
      fields: { remark: parsed.error.issues[0]?.message ?? InvoiceMsg.checkRemarkRequired },
      remark,
    });
  const res = await opsCall(request, context, InvoiceOpsPaths.reject, { body: parsed.data });
  if (!isSuccess(res.code)) return failure({ error: res.msg, remark });
  return redirect('/ops?done=invoiceRejected');
}

export default function OpsInvoice({ loaderData: { d, notice }, actionData }: Route.ComponentProps) {
  const appUrl = useAppUrl();
  const a = d.detail;
  const waiting = a.status === 1 || a.status === 2;
  const fields = actionData?.fields ?? {};
  const facts: [string, ReactNode][] = [
    ['用户ID', d.userId],
    ['手机号', d.mobile],
    ['申请时间', a.create_time],
    ['处理时间', a.decided_time],
    ['用户备注', a.remark || '无'],
    ['拒绝原因', a.status === 4 ? a.check_remark : ''],
    ['快递单号', a.courier_number],
  ];
  return (
    <>
      <p className="breadcrumb">
        <Link to={a.status <= 2 ? '/ops/invoice' : `/ops/invoice?status=${a.status}`}>发票管理</Link> /
        开票申请
      </p>
      <h1>
        <span className="mono">{a.order_no}</span>{' '}
        <span className="tag" data-testid="ops-apply-status">
          {APPLY_STATUS_TEXT[a.status]}
        </span>
      </h1>
      <FormNotice text={notice} />
      <FormErrors errors={actionData?.error ? [actionData.error] : undefined} />
      <Facts rows={facts} />
      <h2 className="section-title">发票信息（申请时的抬头）</h2>
      <Facts rows={invoiceFacts(a)} />
      <h2 className="section-title">收货地址（申请时的地址）</h2>
      <Facts rows={addressFacts(a)} />
      <h2 className="section-title">关联订单</h2>
      <OrdersTable rows={d.orderList} testId="ops-invoice-order-row" />
      {a.files.length > 0 ? (
        <>
          <h2 className="section-title">已上传的发票文件</h2>
          <DataTable
            headers={['文件名', '格式', '大小（字节）']}
            items={a.files}
            empty="无"
            row={(f) => (
              <tr key={f.id} data-testid="ops-invoice-file-row">
                <td>
                  <a href={appUrl(`/ops/invoice/${a.id}/file/${f.id}`)} download>
                    {f.name}
                  </a>
                </td>
                <td>{f.format.toUpperCase()}</td>
                <td>{f.size}</td>
              </tr>
            )}
          />
        </>
      ) : null}
      {waiting ? (
        <div className="ops-decision">
          {a.status === 1 ? (
            <ConfirmAction
              className="card"
              summaryClassName="button"
              summary="提交财务"
              question="确认将该申请提交财务开票？"
              confirm="确认提交"
              intent="submit"
              tone="primary"
            />
          ) : null}
          {a.type === 'ENTERPRISE' ? (
            <UploadForm id={a.id} error={fields.file} />
          ) : (
            <Form method="post" className="card" noValidate>
              <h2 className="section-title">开票（纸质专用发票）</h2>
              <CsrfInput />
              <Field
                label="快递单号"
                id="courier-number"
                errors={fields.courierNumber ? [fields.courierNumber] : undefined}
              >
                <input
                  id="courier-number"
                  name="courierNumber"
                  type="text"
                  maxLength={30}
                  autoComplete="off"
                />
              </Field>
              <button type="submit" name="intent" value="courier" className="button primary">
                开票
              </button>
            </Form>
          )}
          <Form method="post" className="card" noValidate>
            <h2 className="section-title">拒绝</h2>
            <CsrfInput />
            <Field label="拒绝原因" id="reject-remark" errors={fields.remark ? [fields.remark] : undefined}>
              <textarea
                id="reject-remark"
                name="remark"
                rows={3}
                maxLength={CHECK_REMARK_MAX_CHARS}
                defaultValue={actionData?.remark ?? ''}
                placeholder="将作为审核不通过的原因展示给用户"
              />
            </Field>
            <button type="submit" name="intent" value="reject" className="button danger">
              拒绝
            </button>
          </Form>
        </div>
      ) : null}
    </>
  );
}

/** The electronic invoice's upload: multipart, the CSRF token in the action URL so the body can stream. */
function UploadForm({ id, error }: { id: number; error: string | undefined }) {
  const csrf = useCsrfToken();
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      action={`/ops/invoice/${id}?csrf=${encodeURIComponent(csrf)}`}
      className="card"
      noValidate
    >
      <h2 className="section-title">开票（电子发票）</h2>
      <input type="hidden" name="id" value={id} />
      <fieldset
        className={error ? 'field field-invalid' : 'field'}
        aria-describedby={error ? 'invoice-files-error' : undefined}
      >
        <legend>发票文件（PDF 或 OFD，每个不超过 10 MB，最多 {MAX_INVOICE_FILES} 个）</legend>
        {FILE_FIELDS.map((name, i) => (
          <p key={name}>
            <label htmlFor={`invoice-${name}`}>发票文件{i + 1}</label>{' '}
            <input id={`invoice-${name}`} name={name} type="file" accept={ACCEPT} />
          </p>
        ))}
        {error ? (
          <div className="field-error" id="invoice-files-error" role="alert">
            {error}
          </div>
        ) : null}
      </fieldset>
      <button type="submit" className="button primary">
        开票
      </button>
    </Form>
  );
}
