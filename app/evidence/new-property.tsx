/**
 * /newProperty: user-data evidence (spec 01 §2.2, §3): rows with named fields, typed into the form (first line the
 * field names, one row per line, comma-separated, quotes as in CSV) or uploaded as a CSV/XLSX file. Typed rows are
 * parsed on the server with csv-parse (property-rows.server.ts: a `.server` module, so no parser reaches the browser)
 * and sent as `fields`/`rows`; an uploaded file is forwarded to the platform as a stream
 * (CSRF token in the action URL, as on /newAccessCard), where a well-kept parser reads it.
 */
import { data, Form, Link, redirect } from 'react-router';
import type { Route } from './+types/new-property';
import { isSuccess } from '../../contract/envelope.ts';
import { EvidenceMsg, EvidencePaths, type SaveEvidenceData } from '../../contract/evidence.ts';
import { authedCall } from '../lib/auth.server.ts';
import { validateCsrf, validateCsrfInUrl } from '../lib/csrf.server.ts';
import { CsrfInput, useCsrfToken } from '../shell/csrf-input.tsx';
import { Field, FormErrors } from '../shell/field.tsx';
import { isKycRefusal, kycGateHref } from '../kyc/gate.server.ts';
import { KycGateNotice } from '../kyc/gate-notice.tsx';
import { readForm } from '../lib/form-body.server.ts';
import { parseTypedRows } from './property-rows.server.ts';

export const meta: Route.MetaFunction = () => [{ title: '用户数据保全 - 存证云' }];

export async function loader({ request, context }: Route.LoaderArgs) {
  return { gate: await kycGateHref(request, context) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const contentType = request.headers.get('Content-Type') ?? '';
  let res;
  if (contentType.startsWith('multipart/form-data')) {
    await validateCsrfInUrl(request, context);
    if (!request.body) return data({ error: EvidenceMsg.fileRequired, typed: '' }, { status: 400 });
    res = await authedCall<SaveEvidenceData>(request, context, EvidencePaths.saveProperty, {
      method: 'POST',
      stream: { body: request.body, contentType },
    });
  } else {
    const formData = await readForm(request, context);
    await validateCsrf(formData, request, context);
    const typed = String(formData.get('rowsText') ?? '');
    const parsed = parseTypedRows(typed);
    if ('error' in parsed) return data({ error: parsed.error, typed }, { status: 400 });
    res = await authedCall<SaveEvidenceData>(request, context, EvidencePaths.saveProperty, {
      body: {
        title: String(formData.get('title') ?? ''),
        label: String(formData.get('label') ?? ''),
        fields: JSON.stringify(parsed.fields),
        rows: JSON.stringify(parsed.rows),
      },
    });
    if (isKycRefusal(res)) return data({ error: res.msg, typed, gated: true }, { status: 412 });
    if (!isSuccess(res.code)) return data({ error: res.msg, typed }, { status: 400 });
  }
  if (isKycRefusal(res)) return data({ error: res.msg, typed: '', gated: true }, { status: 412 });
  if (!isSuccess(res.code)) return data({ error: res.msg, typed: '' }, { status: 400 });
  return redirect(`/attestation/${encodeURIComponent(res.data.baoquan)}`);
}

export default function NewPropertyEvidence({ loaderData, actionData }: Route.ComponentProps) {
  const { gate } = loaderData;
  const gated = !!actionData && 'gated' in actionData;
  const csrf = useCsrfToken();
  return (
    <section className="page narrow">
      <p className="breadcrumb">
        <Link to="/attestation-list/property">数据保全</Link> / 用户数据保全
      </p>
      <h1>用户数据保全</h1>
      <p className="lead">
        保全结构化数据（如订单、交易流水、聊天记录导出）。平台将数据规范为 CSV 后计算哈希并记录到账本。
      </p>
      {gate || gated ? (
        <KycGateNotice href={gate ?? '/no-type'} message={gated ? actionData?.error : undefined} />
      ) : null}
      <FormErrors errors={actionData?.error && !gated ? [actionData.error] : undefined} />
      <Form method="post" className="card" noValidate>
        <h2 className="section-title">在线填写</h2>
        <CsrfInput />
        <Field label="证据名称" id="p-title">
          <input id="p-title" name="title" type="text" maxLength={100} />
        </Field>
        <Field label="标签" id="p-label">
          <input id="p-label" name="label" type="text" maxLength={30} placeholder="可选" />
        </Field>
        <Field label="数据" id="rowsText" hint="第一行为字段名称，其余每行一条数据，用英文逗号分隔。">
          <textarea
            id="rowsText"
            name="rowsText"
            rows={8}
            defaultValue={actionData?.typed ?? ''}
            placeholder={'订单号,金额,下单时间\nA1001,199.00,2026-11-01 10:00\nA1002,58.50,2026-11-02 09:30'}
          />
        </Field>
        <button type="submit" className="button primary">
          提交保全
        </button>
      </Form>
      <Form
        method="post"
        encType="multipart/form-data"
        action={`/newProperty?csrf=${encodeURIComponent(csrf)}`}
        className="card"
        noValidate
      >
        <h2 className="section-title">上传文件</h2>
        <Field label="证据名称" id="f-title">
          <input id="f-title" name="title" type="text" maxLength={100} placeholder="默认使用文件名" />
        </Field>
        <Field label="标签" id="f-label">
          <input id="f-label" name="label" type="text" maxLength={30} placeholder="可选" />
        </Field>
        <Field
          label="CSV 或 Excel（.xlsx）文件"
          id="f-file"
          hint="第一行为字段名称；Excel 文件读取第一个工作表。"
        >
          <input
            id="f-file"
            name="file"
            type="file"
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          />
        </Field>
        <button type="submit" className="button primary">
          上传并保全
        </button>
      </Form>
    </section>
  );
}
