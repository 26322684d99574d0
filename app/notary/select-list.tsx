/**
 * /notary/selectList — start a notarisation (decision 034): the user's preserved file evidences with the evidence
 * lists' filters (dates, file type, keyword; a GET form), a checkbox per row to pick several at once, the
 * notarisation type (from contract NOTARY_TYPES, with its price per evidence in points) and 提交订单: the platform
 * creates the order (`POST /api/Evidences/createOrder {type, ids}`) and the page goes to step 1 (Post/Redirect/Get).
 * Notarisation is for verified users: an unverified user is sent to verification.
 */
import { data, Form, Link, redirect } from 'react-router';
import type { Route } from './+types/select-list';
import { isSuccess } from '../../contract/envelope.ts';
import { EVIDENCE_PAGE_SIZE, EvidencePaths, type EvidenceListData } from '../../contract/evidence.ts';
import { CreateNotaryOrderBody, NotaryPaths, type NotaryOrderCreated } from '../../contract/notary.ts';
import { MAX_ORDER_EVIDENCES, NOTARY_TYPES, NotaryStep } from '../../contract/notary-codes.ts';
import { authedCall } from '../lib/auth.server.ts';
import { validateCsrf } from '../lib/csrf.server.ts';
import { readForm } from '../lib/form-body.server.ts';
import { kycGateHref } from '../kyc/gate.server.ts';
import { readFilters, toListQuery } from '../evidence/filters.ts';
import { EvidenceFilters, FileTypeSelect, ListPagination, evidenceCells } from '../evidence/list-parts.tsx';
import { CsrfInput } from '../shell/csrf-input.tsx';
import { DataTable } from '../shell/data-table.tsx';
import { FormErrors } from '../shell/field.tsx';
import { stepPath } from './step-path.ts';

export const meta: Route.MetaFunction = () => [{ title: '新增公证 - 我的公证 - 存证云' }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const gate = await kycGateHref(request, context);
  if (gate) throw redirect(gate);
  const filters = readFilters(new URL(request.url));
  const res = await authedCall<EvidenceListData>(request, context, EvidencePaths.list, {
    query: toListQuery(filters, EVIDENCE_PAGE_SIZE),
  });
  return {
    filters,
    // Only stored evidence can be notarised: rows whose data the owner deleted are left out.
    list: isSuccess(res.code) ? res.data.list.filter((r) => !r.deletedAt) : [],
    count: isSuccess(res.code) ? res.data.count : 0,
    error: isSuccess(res.code) ? null : res.msg,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request, context);
  await validateCsrf(formData, request, context);
  const parsed = CreateNotaryOrderBody.safeParse({
    type: formData.get('type') ?? '',
    ids: formData.getAll('ids'),
  });
  if (!parsed.success) return data({ error: parsed.error.issues[0]!.message }, { status: 400 });
  const res = await authedCall<NotaryOrderCreated>(request, context, NotaryPaths.createOrder, {
    method: 'POST',
    body: { type: parsed.data.type, ids: parsed.data.ids.join(',') },
  });
  if (!isSuccess(res.code)) return data({ error: res.msg }, { status: 400 });
  return redirect(stepPath(NotaryStep.applicationForm, res.data.id, res.data.type));
}

export default function SelectList({ loaderData, actionData }: Route.ComponentProps) {
  const { filters, list, count, error } = loaderData;
  return (
    <section className="page">
      <p className="breadcrumb">
        <Link to="/notary">我的公证</Link> / 新增公证
      </p>
      <h1>新增公证</h1>
      <p>选择需要公证的已保全证据（可多选，每个订单最多{MAX_ORDER_EVIDENCES}条），并选择公证类型。</p>
      <EvidenceFilters
        filters={filters}
        selects={<FileTypeSelect value={filters.type} />}
        after={<Link to="/notary/selectList">重置</Link>}
      />
      <FormErrors errors={[error, actionData?.error].filter((e): e is string => !!e)} />
      <Form method="post" noValidate data-testid="select-form">
        <CsrfInput />
        <DataTable
          headers={['选择', '保全编号', '证据名称', '文件类型', '标签', '保全时间']}
          items={list}
          empty="暂无可公证的证据"
          row={(r) => (
            <tr key={r.id} data-testid="select-row">
              <td>
                <input
                  type="checkbox"
                  name="ids"
                  value={r.id}
                  id={`pick-${r.id}`}
                  aria-label={`选择 ${r.title}`}
                />
              </td>
              {evidenceCells(r)}
            </tr>
          )}
        />
        <ListPagination filters={filters} count={count} />
        <fieldset className="field">
          <legend>公证类型</legend>
          {NOTARY_TYPES.map((t, i) => (
            <label key={t.type} className="checkbox">
              <input type="radio" name="type" value={t.type} defaultChecked={i === 0} /> {t.name}（每条证据
              {t.pointsPerRecord}积分）
            </label>
          ))}
        </fieldset>
        <button type="submit" className="button primary">
          提交订单
        </button>
      </Form>
    </section>
  );
}
