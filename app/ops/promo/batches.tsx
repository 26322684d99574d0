/**
 * /ops/promo: promotion-code batches in the operator console (role `finance`; 无权访问 without it;
 * docs/decisions/062-promotion-codes.md): every batch, newest first, 20 a page by links, with its points, codes, uses
 * per code, redemptions, expiry day and state; and the form that mints a batch (name, remark, points per redemption,
 * number of codes, uses per code, expiry day). One plain POST form: the action checks it with the contract's schema,
 * the platform mints, and the browser lands on the new batch's page with its codes (Post/Redirect/Get). The
 * platform audits the mint.
 */
import { data, Form, Link, redirect } from 'react-router';
import type { Route } from './+types/batches';
import { isSuccess } from '../../../contract/envelope.ts';
import { OPS_PAGE_SIZE } from '../../../contract/ops.ts';
import {
  MAX_PROMO_CODES,
  MAX_PROMO_NAME,
  MAX_PROMO_POINTS,
  MAX_PROMO_REMARK,
  MAX_PROMO_USES,
  MintBatchBody,
  PROMO_BATCH_STATE_TEXT,
  PromoBatchesQuery,
  PromoOpsPages,
  PromoOpsPaths,
  type PromoBatchDetail,
  type PromoBatchListData,
} from '../../../contract/promo.ts';
import { validateCsrf } from '../../lib/csrf.server.ts';
import { readForm } from '../../lib/form-body.server.ts';
import { CsrfInput } from '../../shell/csrf-input.tsx';
import { DataTable } from '../../shell/data-table.tsx';
import { Field, FormErrors } from '../../shell/field.tsx';
import { Pagination } from '../../shell/pagination.tsx';
import { opsCall, opsData } from '../ops.server.ts';

export const meta: Route.MetaFunction = () => [{ title: '兑换码管理 - 运营后台 - 存证云' }];

/** The mint form's fields, as posted. */
const FIELDS = ['name', 'remark', 'points', 'count', 'uses', 'expiresOn'] as const;
type Values = Record<(typeof FIELDS)[number], string>;

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const parsed = PromoBatchesQuery.safeParse({ page: url.searchParams.get('page') ?? undefined });
  const page = parsed.success ? parsed.data.page : 1;
  const found = await opsData<PromoBatchListData>(request, context, PromoOpsPaths.batches, {
    method: 'GET',
    query: { page },
  });
  return { page, list: found.list, count: found.count };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request, context);
  await validateCsrf(formData, request, context);
  const values = Object.fromEntries(FIELDS.map((f) => [f, String(formData.get(f) ?? '')])) as Values;
  const parsed = MintBatchBody.safeParse(values);
  if (!parsed.success) {
    const errors: Partial<Values> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as keyof Values;
      errors[field] ??= issue.message;
    }
    return data({ values, errors, formError: null }, { status: 400 });
  }
  const res = await opsCall<PromoBatchDetail>(request, context, PromoOpsPaths.mint, { body: values });
  if (!isSuccess(res.code)) return data({ values, errors: {}, formError: res.msg }, { status: 400 });
  return redirect(`${PromoOpsPages.batch(res.data.batch.id)}?done=minted`);
}

export default function OpsPromoBatches({ loaderData, actionData }: Route.ComponentProps) {
  const { page, list, count } = loaderData;
  const values: Partial<Values> = actionData?.values ?? { uses: '1', count: '10' };
  const errors: Partial<Values> = actionData?.errors ?? {};
  const field = (
    name: keyof Values,
    label: string,
    input: Record<string, string | number>,
    hint?: string,
  ) => (
    <Field label={label} id={`promo-${name}`} errors={errors[name] ? [errors[name]] : undefined} hint={hint}>
      <input
        id={`promo-${name}`}
        name={name}
        type="text"
        autoComplete="off"
        defaultValue={values[name] ?? ''}
        aria-invalid={errors[name] ? true : undefined}
        {...input}
      />
    </Field>
  );
  return (
    <>
      <h1>兑换码管理</h1>
      <h2 className="section-title">生成兑换码</h2>
      <FormErrors errors={actionData?.formError ? [actionData.formError] : undefined} />
      <Form method="post" className="card" noValidate aria-label="生成兑换码">
        <CsrfInput />
        {field('name', '批次名称', { maxLength: MAX_PROMO_NAME })}
        {field('remark', '备注', { maxLength: MAX_PROMO_REMARK }, '选填')}
        {field(
          'points',
          '每次兑换积分',
          { inputMode: 'numeric', maxLength: 5 },
          `1-${MAX_PROMO_POINTS} 的整数（只填数字0-9）`,
        )}
        {field('count', '兑换码数量', { inputMode: 'numeric', maxLength: 4 }, `1-${MAX_PROMO_CODES} 个`)}
        {field(
          'uses',
          '每码可用次数',
          { inputMode: 'numeric', maxLength: 5 },
          `1 为一次性兑换码；N 为限次兑换码，可由 N 个不同用户各兑换一次（最多 ${MAX_PROMO_USES}）`,
        )}
        {field(
          'expiresOn',
          '有效期至',
          { type: 'date', placeholder: 'YYYY-MM-DD' },
          '含当天，北京时间 23:59:59 截止',
        )}
        <p>
          <button type="submit" className="button primary">
            生成
          </button>
        </p>
      </Form>
      <h2 className="section-title">批次列表</h2>
      <DataTable
        headers={[
          '批次',
          '名称',
          '每次积分',
          '码数',
          '每码次数',
          '已兑换',
          '有效期至',
          '状态',
          '创建',
          '操作',
        ]}
        items={list}
        empty="暂无兑换码批次"
        row={(b) => (
          <tr key={b.id} data-testid="promo-batch-row">
            <td>{b.id}</td>
            <td>{b.name}</td>
            <td>{b.points}</td>
            <td>{b.codeCount}</td>
            <td>{b.usesPerCode}</td>
            <td>{b.redeemed}</td>
            <td className="nowrap">{b.expiresOn}</td>
            <td className="nowrap">{PROMO_BATCH_STATE_TEXT[b.state]}</td>
            <td>
              {b.createdBy} {b.createdAt}
            </td>
            <td>
              <Link to={PromoOpsPages.batch(b.id)}>查看</Link>
            </td>
          </tr>
        )}
      />
      <Pagination page={page} pageSize={OPS_PAGE_SIZE} count={count} href={(p) => `/ops/promo?page=${p}`} />
    </>
  );
}
