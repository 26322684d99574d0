/**
 * /attestation-list/download: batch download (spec 01 §2.4). Pick rows (20 a page) of file, app-captured and
 * user-data evidence (getList `v=download`, decision 028), filtered by date range, file type, label and file-name
 * keyword; submit; the platform signs the packages and we redirect (PRG) to this page with `?batch=<signed URL>`, which
 * counts down 5 seconds and then starts the download: a `<meta http-equiv="refresh">` without JavaScript, a visible
 * countdown with it. One ZIP holds every package, so no hidden frames are needed (the spec's 300000 ms frame
 * clean-up has nothing to clean). Errors: 请选择需要下载的证据 (nothing selected), 无下载文件 (nothing downloadable).
 */
import { useEffect, useState } from 'react';
import { data, Form, Link, redirect } from 'react-router';
import type { Route } from './+types/batch-download';
import { isSuccess } from '../../contract/envelope.ts';
import {
  BATCH_LIST_V,
  BATCH_MAX_ITEMS,
  type BatchDownloadData,
  EVIDENCE_PAGE_SIZE,
  type EvidenceListData,
  EvidenceMsg,
  EvidencePaths,
  type LabelItem,
} from '../../contract/evidence.ts';
import { authedCall } from '../lib/auth.server.ts';
import { validateCsrf } from '../lib/csrf.server.ts';
import { CsrfInput } from '../shell/csrf-input.tsx';
import { FormErrors } from '../shell/field.tsx';
import { readFilters, toListQuery } from './filters.ts';
import {
  evidenceCells,
  EvidenceFilters,
  FileTypeSelect,
  LabelSelect,
  ListPagination,
} from './list-parts.tsx';
import { DataTable } from '../shell/data-table.tsx';
import { readForm } from '../lib/form-body.server.ts';
import { underBasePath } from '../lib/base-path.ts';

/** Countdown before the download starts (spec 01 §9), seconds. */
export const COUNTDOWN_SECONDS = 5;
const BATCH_PREFIX = '/attestation-list/download/batch.zip?';

export const meta: Route.MetaFunction = ({ data: d }) => [
  { title: '批量下载 - 存证云' },
  ...(d?.batch ? [{ httpEquiv: 'refresh', content: `${COUNTDOWN_SECONDS};url=${d.batch}` } as const] : []),
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const filters = readFilters(url);
  // getLabelList without `v` gives the labels of exactly the kinds this list shows (file, app, user data).
  const [list, labels] = await Promise.all([
    authedCall<EvidenceListData>(request, context, EvidencePaths.list, {
      query: { ...toListQuery(filters, EVIDENCE_PAGE_SIZE), v: BATCH_LIST_V },
    }),
    authedCall<LabelItem[]>(request, context, EvidencePaths.labels),
  ]);
  const batch = url.searchParams.get('batch');
  return {
    filters,
    list: isSuccess(list.code) ? list.data.list : [],
    count: isSuccess(list.code) ? list.data.count : 0,
    labels: isSuccess(labels.code) ? labels.data.map((l) => l.label) : [],
    // Only our own signed batch path is followed (no open redirect); the page and its refresh need it under BASE_PATH.
    batch: batch && batch.startsWith(BATCH_PREFIX) ? underBasePath(context.basePath ?? '', batch) : null,
    itemCount: batchItemCount(url.searchParams.get('n')),
  };
}

/**
 * The `n` of the redirect after a batch (how many evidences the ZIP holds): a whole number 1–BATCH_MAX_ITEMS in
 * decimal digits, else null (a hand-edited URL: treated as absent, as the page treats a foreign `batch`).
 */
function batchItemCount(n: string | null): number | null {
  if (n === null || !/^\d{1,3}$/.test(n)) return null;
  const count = Number(n);
  return count >= 1 && count <= BATCH_MAX_ITEMS ? count : null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request, context);
  await validateCsrf(formData, request, context);
  const ids = formData
    .getAll('ids')
    .map(String)
    .filter((v) => /^\d+$/.test(v));
  if (ids.length === 0) return data({ error: EvidenceMsg.selectEvidenceToDownload }, { status: 400 });
  const res = await authedCall<BatchDownloadData>(request, context, EvidencePaths.downloadBatch, {
    body: { dataIdStr: ids.join(',') },
  });
  if (!isSuccess(res.code)) return data({ error: res.msg }, { status: 400 });
  if (res.data.list.length === 0) return data({ error: EvidenceMsg.noDownloadFiles }, { status: 400 });
  const params = new URLSearchParams({ batch: res.data.batchUrl, n: String(res.data.list.length) });
  return redirect(`/attestation-list/download?${params}`);
}

function Countdown({ href, items }: { href: string; items: number | null }) {
  const [left, setLeft] = useState(COUNTDOWN_SECONDS);
  useEffect(() => {
    const timer = setInterval(() => setLeft((n) => Math.max(0, n - 1)), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <div className="countdown" role="status" data-testid="batch-countdown">
      <p>
        {items === null ? '证据已打包' : `已打包 ${items} 个证据`}，
        {left > 0 ? (
          <>
            下载将在 <strong>{left}</strong> 秒后自动开始
          </>
        ) : (
          '下载已开始'
        )}
        ，下载会在后台继续进行。
      </p>
      <p>
        如未开始，请
        <a href={href} download>
          点击这里下载
        </a>
        。
      </p>
    </div>
  );
}

export default function BatchDownload({ loaderData, actionData }: Route.ComponentProps) {
  const { filters, list, count, labels, batch, itemCount } = loaderData;
  return (
    <section className="page">
      <p className="breadcrumb">
        <Link to="/attestation-list/file">数据保全</Link> / 批量下载
      </p>
      <h1>批量下载</h1>
      {batch ? <Countdown href={batch} items={itemCount} /> : null}
      <EvidenceFilters
        filters={filters}
        after={<Link to="/attestation-list/download">重置</Link>}
        selects={
          <>
            <FileTypeSelect value={filters.type} />
            <LabelSelect value={filters.label} labels={labels} />
          </>
        }
      />
      <Form method="post">
        <CsrfInput />
        <DataTable
          headers={['选择', '保全编号', '证据名称', '文件类型', '标签', '保全时间']}
          items={list}
          empty="暂无数据"
          row={(row) => (
            <tr key={row.id}>
              <td>
                <input type="checkbox" name="ids" value={row.id} aria-label={`选择 ${row.title}`} />
              </td>
              {evidenceCells(row)}
            </tr>
          )}
        />
        <FormErrors errors={actionData?.error ? [actionData.error] : undefined} />
        <button type="submit" className="button primary">
          下载所选证据
        </button>
      </Form>
      <ListPagination filters={filters} count={count} />
    </section>
  );
}
