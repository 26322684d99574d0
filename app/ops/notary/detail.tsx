/**
 * /ops/notary/:id: one paid notarisation order in the notary office's console (role `notary`;
 * docs/decisions/034-notary.md): the order, the applicant and the application, the stored documents (the four the
 * user signed and, once issued, the notarial certificate) and the evidences the order covers, each downloadable
 * (an evidence only once the user authorised the office at step 3; every read audited by the platform). While the
 * order is undecided the office decides, each a plain POST form answered by Post/Redirect/Get (`?done=`): 受理 (a
 * paid order whose steps are all done; the certificate number is given), 退回补充材料 (back to step 1–3 with a
 * remark the user sees), 终止并退款 (with a required reason) and, once accepted, 出证: the gateway prints the
 * notarial certificate view (/ops/notary/:id/certificate) as this operator to a signed PDF and uploads it.
 */
import type { ReactNode } from 'react';
import { data, Link, redirect } from 'react-router';
import type { Route } from './+types/detail';
import { isSuccess } from '../../../contract/envelope.ts';
import { formatBytes, Msg } from '../../../contract/messages.ts';
import { Notarial, NOTARIAL_TEXT, STEP_TEXT } from '../../../contract/notary-codes.ts';
import { NotaryOpsMsg, NotaryOpsPaths, type NotaryOpsDetail } from '../../../contract/notary-office-codes.ts';
import { NotaryReturnBody, NotaryShipBody, NotaryTerminateBody } from '../../../contract/notary-office.ts';
import { validateCsrf } from '../../lib/csrf.server.ts';
import { fieldErrors } from '../../lib/field-errors.ts';
import { readForm } from '../../lib/form-body.server.ts';
import { DataTable } from '../../shell/data-table.tsx';
import { Facts } from '../../shell/facts.tsx';
import { FormErrors, FormNotice } from '../../shell/field.tsx';
import { opsCall, opsData } from '../ops.server.ts';
import { issueCertificate } from './issue.server.ts';
import { PaperSection } from './paper.tsx';
import { DecisionForms, type DecisionFieldErrors, type DecisionValues } from './decision.tsx';
import { documentName, officeStateLabel } from './labels.ts';
import { useAppUrl } from '../../lib/base-path.ts';

export const meta: Route.MetaFunction = () => [{ title: '公证订单 - 运营后台 - 存证云' }];

/** The decisions' messages by the `done` key their redirect carries. */
const DONE: Readonly<Record<string, string>> = {
  accepted: NotaryOpsMsg.accepted,
  returned: NotaryOpsMsg.returned,
  terminated: NotaryOpsMsg.terminated,
  issued: NotaryOpsMsg.issued,
  shipped: NotaryOpsMsg.shipped,
};

function idOf(params: { id?: string }): number {
  const id = Number(params.id);
  if (!/^[1-9]\d{0,14}$/.test(params.id ?? '') || !Number.isSafeInteger(id))
    throw data({ message: NotaryOpsMsg.notFound }, { status: 404 });
  return id;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const id = idOf(params);
  const d = await opsData<NotaryOpsDetail>(request, context, NotaryOpsPaths.detail, {
    method: 'GET',
    query: { id },
  });
  const done = new URL(request.url).searchParams.get('done') ?? '';
  return { d, notice: DONE[done] ?? null };
}

/** What a failed action shows: a page-level message, the field errors and what was typed. */
interface Failure {
  error: string | null;
  fields: DecisionFieldErrors & { courierNumber?: string };
  values: DecisionValues & { courierNumber: string };
}
const failure = (
  f: Partial<Omit<Failure, 'values'>> & { values?: Partial<Failure['values']> },
  status = 400,
) =>
  data<Failure>(
    {
      error: null,
      fields: {},
      ...f,
      values: { step: '', returnRemark: '', terminateRemark: '', courierNumber: '', ...f.values },
    },
    { status },
  );

export async function action({ request, context, params }: Route.ActionArgs) {
  const id = idOf(params);
  const formData = await readForm(request, context);
  await validateCsrf(formData, request, context);
  const intent = formData.get('intent');
  const done = (key: keyof typeof DONE & string) => redirect(`/ops/notary/${id}?done=${key}`);

  if (intent === 'accept') {
    const res = await opsCall(request, context, NotaryOpsPaths.accept, { body: { id } });
    if (!isSuccess(res.code)) return failure({ error: res.msg });
    return done('accepted');
  }

  if (intent === 'return') {
    const values = {
      step: String(formData.get('step') ?? ''),
      returnRemark: String(formData.get('remark') ?? ''),
    };
    const parsed = NotaryReturnBody.safeParse({ id, step: values.step, remark: values.returnRemark });
    if (!parsed.success) {
      const errors = fieldErrors(parsed.error.issues);
      const fields: Failure['fields'] = { step: errors.step, returnRemark: errors.remark };
      return failure({ fields, values, error: fields.step || fields.returnRemark ? null : Msg.badRequest });
    }
    const res = await opsCall(request, context, NotaryOpsPaths.returnStep, {
      body: { id, step: parsed.data.step, remark: parsed.data.remark ?? '' },
    });
    if (!isSuccess(res.code)) return failure({ error: res.msg, values });
    return done('returned');
  }

  if (intent === 'terminate') {
    const terminateRemark = String(formData.get('remark') ?? '');
    const values = { terminateRemark };
    const parsed = NotaryTerminateBody.safeParse({ id, remark: terminateRemark });
    if (!parsed.success) {
      const message = fieldErrors(parsed.error.issues).remark;
      return failure(
        message ? { fields: { terminateRemark: message }, values } : { error: Msg.badRequest, values },
      );
    }
    const res = await opsCall(request, context, NotaryOpsPaths.terminate, {
      body: { id, remark: parsed.data.remark ?? '' },
    });
    if (!isSuccess(res.code)) return failure({ error: res.msg, values });
    return done('terminated');
  }

  if (intent === 'ship') {
    const values = { courierNumber: String(formData.get('courierNumber') ?? '') };
    const parsed = NotaryShipBody.safeParse({ id, courierNumber: values.courierNumber });
    if (!parsed.success)
      return failure({ fields: { courierNumber: parsed.error.issues[0]!.message }, values });
    const res = await opsCall(request, context, NotaryOpsPaths.ship, { body: parsed.data });
    if (!isSuccess(res.code)) return failure({ error: res.msg, values });
    return done('shipped');
  }

  if (intent === 'issue') {
    const failed = await issueCertificate(request, context, id);
    if (failed) return failure({ error: failed.error }, failed.status);
    return done('issued');
  }

  return failure({ error: Msg.badRequest });
}

/** The queue tab an order is listed under. */
function queueHref(notarial: number | null): string {
  if (notarial === null) return '/ops/notary';
  return notarial === Notarial.inProgress ? '/ops/notary?state=2' : '/ops/notary?state=3';
}

export default function OpsNotaryOrder({ loaderData: { d, notice }, actionData }: Route.ComponentProps) {
  const appUrl = useAppUrl();
  const o = d.order;
  const undecided = o.notarial === null || o.notarial === Notarial.inProgress;
  const facts: [string, ReactNode][] = [
    ['订单号', <span className="mono">{o.orderNo}</span>],
    ['用户ID', o.userId],
    ['手机号', o.mobile],
    ['公证类型', o.typeName],
    ['记录数', o.number],
    ['积分', o.money],
    ['下单时间', o.addTime],
    ['支付时间', o.paidAt],
    ['当前步骤', STEP_TEXT[o.step]],
    ['出证状态', o.notarial === null ? '未受理' : NOTARIAL_TEXT[o.notarial]],
    ['授权读取时间', o.authorizedAt],
    ['受理时间', o.acceptedAt],
    ['出证时间', o.issuedAt],
    ['公证书编号', o.certificateNo ? <span className="mono">{o.certificateNo}</span> : ''],
    ['办理说明', o.officeRemark],
  ];
  return (
    <>
      <p className="breadcrumb">
        <Link to={queueHref(o.notarial)}>公证受理</Link> / 公证订单
      </p>
      <h1>
        <span className="mono">{o.orderNo}</span>{' '}
        <span className="tag" data-testid="ops-notary-state">
          {officeStateLabel(o)}
        </span>
      </h1>
      <FormNotice text={notice} />
      <FormErrors errors={actionData?.error ? [actionData.error] : undefined} />
      <Facts rows={facts} testId="ops-notary-facts" />

      <h2 className="section-title">申请人与申请信息</h2>
      {d.applicant ? (
        <Facts
          rows={[
            ['申请人', d.applicant.name],
            ['申请人类型', d.applicant.kind === 'enterprise' ? '企业' : '个人'],
            [
              d.applicant.kind === 'enterprise' ? '统一社会信用代码' : '身份证号码',
              d.applicant.idNumber ? <span className="mono">{d.applicant.idNumber}</span> : '未登记',
            ],
          ]}
        />
      ) : null}
      {d.application ? (
        <Facts
          testId="ops-notary-application"
          rows={[
            ['公证用途', d.application.purpose],
            ['使用地', d.application.usePlace],
            ['公证书份数', d.application.copies],
            ['收件人', d.application.recipient],
            ['收件人手机号', d.application.phoneNumber],
            ['收件地址', `${d.application.region} ${d.application.address}`],
            ['备注', d.application.remark || '无'],
          ]}
        />
      ) : (
        <p className="muted">用户尚未填写申请表。</p>
      )}

      <h2 className="section-title">文书</h2>
      <DataTable
        headers={['文书（点击下载）', '大小', 'SHA-256']}
        items={d.documents}
        empty="暂无文书"
        row={(doc) => (
          <tr key={doc.id} data-testid="ops-notary-document-row">
            <td>
              <a href={appUrl(`/ops/notary/${o.id}/file/${doc.id}`)} download>
                {documentName(doc.type)}
              </a>
            </td>
            <td>{formatBytes(doc.size)}</td>
            <td className="mono hash">{doc.sha256}</td>
          </tr>
        )}
      />

      <h2 className="section-title">证据（{d.evidences.length}）</h2>
      {d.readable ? null : (
        <p className="form-error" role="note" data-testid="ops-notary-unreadable">
          {NotaryOpsMsg.notAuthorized}
        </p>
      )}
      <DataTable
        headers={[
          '保全编号',
          '证据名称',
          d.readable ? '文件（点击下载）' : '文件名',
          '保全时间',
          '大小',
          'SHA-256',
        ]}
        items={d.evidences}
        empty="暂无证据"
        row={(e) => (
          <tr key={e.id} data-testid="ops-notary-evidence-row">
            <td className="mono">{e.baoquan}</td>
            <td>{e.title}</td>
            <td>
              {d.readable && e.kind === 'file' ? (
                <a href={appUrl(`/ops/notary/${o.id}/evidence/${e.id}`)} download>
                  {e.name || e.baoquan}
                </a>
              ) : (
                e.name || '无文件'
              )}
            </td>
            <td>{e.saveTime}</td>
            <td>{e.kind === 'file' ? formatBytes(e.size) : '—'}</td>
            <td className="mono hash">{e.fileHash}</td>
          </tr>
        )}
      />

      <PaperSection
        order={o}
        copies={d.application?.copies ?? null}
        error={actionData?.fields.courierNumber}
        value={actionData?.values.courierNumber}
      />

      {undecided ? (
        <DecisionForms order={o} fields={actionData?.fields ?? {}} values={actionData?.values} />
      ) : null}
    </>
  );
}
