/**
 * /ops/promo/{id}: one promotion-code batch in the operator console (role `finance`; docs/decisions/
 * 062-promotion-codes.md): its facts, every code in its shown form (`XXXX-XXXX-XXXX-XXXX`) with its uses and limit,
 * and, while it is not disabled, 停用批次 after a `<details>` confirmation (Post/Redirect/Get to `?done=disabled`).
 * Codes are bearer value: only finance sees them, and the platform audits every view of this page and the disable.
 */
import type { ReactNode } from 'react';
import { data, Link, redirect } from 'react-router';
import type { Route } from './+types/batch';
import { isSuccess } from '../../../contract/envelope.ts';
import { Msg } from '../../../contract/messages.ts';
import {
  PROMO_BATCH_STATE_TEXT,
  PromoBatchIdBody,
  PromoMsg,
  PromoOpsPages,
  PromoOpsPaths,
  type PromoBatchDetail,
} from '../../../contract/promo.ts';
import { validateCsrf } from '../../lib/csrf.server.ts';
import { readForm } from '../../lib/form-body.server.ts';
import { ConfirmAction } from '../../shell/confirm-action.tsx';
import { DataTable } from '../../shell/data-table.tsx';
import { FormErrors, FormNotice } from '../../shell/field.tsx';
import { opsCall, opsData } from '../ops.server.ts';
import { FactRow } from '../../shell/facts.tsx';

export const meta: Route.MetaFunction = () => [{ title: '兑换码批次 - 运营后台 - 存证云' }];

/** Notices of `?done=`. */
const DONE: Readonly<Record<string, string>> = { minted: PromoMsg.minted, disabled: PromoMsg.disabled };

function idOf(params: { id?: string }): number {
  const parsed = PromoBatchIdBody.safeParse({ id: params.id ?? '' });
  if (!parsed.success) throw data({ message: PromoMsg.batchNotFound }, { status: 404 });
  return parsed.data.id;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const id = idOf(params);
  const detail = await opsData<PromoBatchDetail>(request, context, PromoOpsPaths.batch, {
    method: 'GET',
    query: { id },
  });
  const done = new URL(request.url).searchParams.get('done') ?? '';
  return { detail, notice: DONE[done] ?? null };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const id = idOf(params);
  const formData = await readForm(request, context);
  await validateCsrf(formData, request, context);
  if (formData.get('intent') !== 'disable') return data({ error: Msg.badRequest }, { status: 400 });
  const res = await opsCall(request, context, PromoOpsPaths.disable, { body: { id } });
  if (!isSuccess(res.code)) return data({ error: res.msg }, { status: 400 });
  return redirect(`${PromoOpsPages.batch(id)}?done=disabled`);
}

export default function OpsPromoBatch({ loaderData, actionData }: Route.ComponentProps) {
  const { detail, notice } = loaderData;
  const b = detail.batch;
  const facts: [string, ReactNode][] = [
    ['批次', b.id],
    ['名称', b.name],
    ['备注', b.remark || '-'],
    ['每次兑换积分', b.points],
    ['兑换码数量', b.codeCount],
    ['每码可用次数', b.usesPerCode === 1 ? '1（一次性）' : `${b.usesPerCode}（限次，每个用户一次）`],
    ['已兑换', b.redeemed],
    ['有效期至', `${b.expiresOn} 23:59:59`],
    ['创建', `${b.createdBy} ${b.createdAt}`],
    ...(b.disabledAt ? ([['停用时间', b.disabledAt]] as [string, ReactNode][]) : []),
  ];
  return (
    <>
      <p className="breadcrumb">
        <Link to={PromoOpsPages.batches}>兑换码管理</Link> / 批次详情
      </p>
      <h1>
        {b.name} <span className="tag">{PROMO_BATCH_STATE_TEXT[b.state]}</span>
      </h1>
      <FormNotice text={notice} />
      <FormErrors errors={actionData?.error ? [actionData.error] : undefined} />
      <dl className="facts">
        {facts.map(([label, value]) => (
          <FactRow key={label} label={label} value={value} />
        ))}
      </dl>
      {b.state === 'disabled' ? null : (
        <ConfirmAction
          summary="停用批次"
          summaryClassName="button"
          question="停用后该批次的兑换码都不能再兑换，已兑换的积分不受影响，且不能恢复。确认停用？"
          confirm="确认停用"
          intent="disable"
          tone="danger"
        />
      )}
      <h2 className="section-title">兑换码（{detail.codes.length}）</h2>
      <DataTable
        headers={['兑换码', '已用/上限']}
        items={detail.codes}
        empty="暂无兑换码"
        row={(c) => (
          <tr key={c.id} data-testid="promo-code-row">
            <td className="mono nowrap">{c.code}</td>
            <td>
              {c.uses}/{c.maxUses}
            </td>
          </tr>
        )}
      />
    </>
  );
}
