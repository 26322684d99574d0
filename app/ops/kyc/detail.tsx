/**
 * /ops/kyc/:userId: one submission for review (docs/decisions/011-kyc-review.md; role `reviewer`): every field (ID
 * and bank numbers masked by the platform) and the images (signed, expiring URLs); while it waits (userStatus 2):
 * 通过 after a <details> confirmation, or 驳回 with a required remark that the user sees as checkRemark. Both land
 * on the console home with the decision's message.
 */
import { parseWithZod } from '@conform-to/zod/v4';
import type { ReactNode } from 'react';
import { data, Form, Link, redirect } from 'react-router';
import type { Route } from './+types/detail';
import { isSuccess } from '../../../contract/envelope.ts';
import {
  KycDecisionBody,
  KycRejectBody,
  type KycReviewDetail,
  KycReviewPaths,
} from '../../../contract/kyc-review.ts';
import { KycMsg } from '../../../contract/kyc.ts';
import { Msg } from '../../../contract/messages.ts';
import { validateCsrf } from '../../lib/csrf.server.ts';
import { CsrfInput } from '../../shell/csrf-input.tsx';
import { FormErrors } from '../../shell/field.tsx';
import { InfoRows, Thumb } from '../../kyc/kyc-ui.tsx';
import { opsCall, opsData } from '../ops.server.ts';
import { accountTypeLabel, OPS_STATUS_LABEL } from './labels.ts';
import { ConfirmAction } from '../../shell/confirm-action.tsx';
import { readForm } from '../../lib/form-body.server.ts';
export const meta: Route.MetaFunction = () => [{ title: '审核详情 - 运营后台 - 存证云' }];

function userIdOf(params: { userId?: string }): number {
  const id = Number(params.userId);
  if (!Number.isSafeInteger(id) || id <= 0)
    throw data({ message: KycMsg.reviewUserNotFound }, { status: 404 });
  return id;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const userId = userIdOf(params);
  const d = await opsData<KycReviewDetail>(request, context, KycReviewPaths.detail, {
    method: 'GET',
    query: { userId },
  });
  return { detail: d };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const userId = userIdOf(params);
  const formData = await readForm(request, context);
  await validateCsrf(formData, request, context);
  formData.set('userId', String(userId));
  const intent = formData.get('intent') === 'reject' ? 'reject' : 'approve';
  if (intent === 'reject') {
    const submission = parseWithZod(formData, { schema: KycRejectBody });
    if (submission.status !== 'success') {
      const remark = String(formData.get('remark') ?? '');
      return data(
        { error: null, remarkError: submission.error?.remark?.[0] ?? Msg.invalidId, remark },
        { status: 400 },
      );
    }
    const res = await opsCall(request, context, KycReviewPaths.reject, {
      body: { userId, remark: submission.value.remark },
    });
    if (!isSuccess(res.code))
      return data({ error: res.msg, remarkError: null, remark: submission.value.remark }, { status: 400 });
    return redirect('/ops?done=rejected');
  }
  const submission = parseWithZod(formData, { schema: KycDecisionBody });
  if (submission.status !== 'success')
    return data({ error: Msg.invalidId, remarkError: null, remark: '' }, { status: 400 });
  const res = await opsCall(request, context, KycReviewPaths.approve, { body: { userId } });
  if (!isSuccess(res.code)) return data({ error: res.msg, remarkError: null, remark: '' }, { status: 400 });
  return redirect('/ops?done=approved');
}

function detailRows(d: KycReviewDetail): [string, ReactNode][] {
  const k = d.details;
  if (d.status === 2) {
    return [
      ['企业名称', k.company],
      ['统一社会信用代码', k.taxNumber],
      ['企业地址', k.address],
      ['法定代表人姓名', k.legalName],
      ['开户名称', k.accountName],
      ['开户银行', k.accountBank],
      ['银行账号', <span className="mono">{k.accountNo}</span>],
      ['联系人姓名', k.contactName],
      ['联系人手机号', k.contactPhone],
      ['预留手机号', k.mobileReserve],
      ['联系人身份证号', <span className="mono">{k.contactIdcard}</span>],
      ['经办人姓名', k.authorName],
      ['经办人性别', k.authorSex],
      ['出生日期', k.authorBrith],
      ['经办人手机号', k.authorPhone],
      ['经办人身份证号', <span className="mono">{k.authorIdcard}</span>],
    ];
  }
  return [
    ['姓名', d.name],
    ['身份证号码', <span className="mono">{k.idCard}</span>],
    ['性别', k.sex === '0' ? '男' : k.sex === '1' ? '女' : ''],
    ['身份证地址', k.address],
  ];
}

export default function OpsDetail({ loaderData: { detail: d }, actionData }: Route.ComponentProps) {
  return (
    <>
      <p className="breadcrumb">
        <Link to={`/ops/kyc?status=${d.userStatus === '1' ? '2' : d.userStatus}`}>实名审核</Link> / 审核详情
      </p>
      <h1>
        {d.name || d.mobile} <span className="tag">{OPS_STATUS_LABEL[d.userStatus] ?? d.userStatus}</span>
      </h1>
      <InfoRows
        rows={[
          ['用户ID', String(d.userId)],
          ['手机号', d.mobile],
          ['类型', accountTypeLabel(d.status, d.authType)],
          ['提交时间', d.submittedAt],
          ...(d.checkRemark ? ([['驳回原因', d.checkRemark]] as [string, ReactNode][]) : []),
        ]}
      />
      <h2 className="section-title">认证资料</h2>
      <InfoRows rows={detailRows(d)} />
      <h2 className="section-title">证件图片</h2>
      {d.images.length === 0 ? <p className="muted">无图片</p> : null}
      <div className="ops-images">
        {d.images.map((img) => (
          <figure key={img.field}>
            <Thumb url={img.url} label={img.label} />
            <figcaption>{img.label}</figcaption>
          </figure>
        ))}
      </div>
      <FormErrors errors={actionData?.error ? [actionData.error] : undefined} />
      {d.userStatus === '2' ? (
        <div className="ops-decision">
          <ConfirmAction
            className="card"
            summaryClassName="button primary"
            summary="通过"
            question="确认通过该用户的实名认证？通过后用户即可使用数据保全和公证服务。"
            confirm="确认通过"
            intent="approve"
            tone="primary"
          />
          <Form method="post" className="card" noValidate>
            <CsrfInput />
            <div className={actionData?.remarkError ? 'field field-invalid' : 'field'}>
              <label htmlFor="reject-remark">驳回原因</label>
              <textarea
                id="reject-remark"
                name="remark"
                rows={3}
                maxLength={200}
                defaultValue={actionData?.remark ?? ''}
                placeholder="将作为失败原因展示给用户"
                aria-invalid={actionData?.remarkError ? true : undefined}
              />
              {actionData?.remarkError ? (
                <div className="field-error" role="alert">
                  {actionData.remarkError}
                </div>
              ) : null}
            </div>
            <button type="submit" name="intent" value="reject" className="button danger">
              驳回
            </button>
          </Form>
        </div>
      ) : null}
    </>
  );
}
