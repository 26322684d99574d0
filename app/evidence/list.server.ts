/**
 * Loader and action shared by the three evidence lists (spec 01 §2.2, §2.4): /attestation-list/file (getList),
 * /hash (getHashSaveList) and /property (getList v=property). The action handles the per-row label change and
 * deletion (the data goes, the ledger entry stays: decision 006), each confirmed in a <details> step that works
 * without JavaScript, then redirects back.
 */
import { data, redirect, type AppLoadContext } from 'react-router';
import { isSuccess } from '../../contract/envelope.ts';
import {
  EVIDENCE_PAGE_SIZE,
  type EvidenceListData,
  EvidencePaths,
  type LabelItem,
} from '../../contract/evidence.ts';
import { Msg } from '../../contract/messages.ts';
import { authedCall } from '../lib/auth.server.ts';
import { validateCsrf } from '../lib/csrf.server.ts';
import { readFilters, toListQuery } from './filters.ts';
import { readForm } from '../lib/form-body.server.ts';

/** The lists: the three of 数据保全, and the captures, app evidence and music works of 在线取证 (decision 039). */
export type ListKind = 'file' | 'hash' | 'property' | 'app' | 'music' | 'web' | 'process';

/** A list's calls: `v` narrows getList; `labelsV` narrows getLabelList. */
interface ListSource {
  list: string;
  labels: string;
  v?: string;
  labelsV?: string;
}

/**
 * The lists of 数据保全 (spec 01 §2.2, §2.4). Each label select offers its own list's labels only: getLabelList without
 * `v` answers the labels of every kind the batch download shows, so file and user data name theirs (`v=file` is the
 * file list's kinds, file and app evidence); hash evidence has its own call.
 */
const DATA_SOURCES: Record<'file' | 'hash' | 'property', ListSource> = {
  file: { list: EvidencePaths.list, labels: EvidencePaths.labels, labelsV: 'file' },
  hash: { list: EvidencePaths.hashList, labels: EvidencePaths.hashLabels },
  property: { list: EvidencePaths.list, labels: EvidencePaths.labels, v: 'property', labelsV: 'property' },
};

/** The calls of `kind`'s list: 数据保全's own, or getList and getLabelList narrowed to one 在线取证 kind. */
function sourceOf(kind: ListKind): ListSource {
  if (kind === 'file' || kind === 'hash' || kind === 'property') return DATA_SOURCES[kind];
  return { list: EvidencePaths.list, labels: EvidencePaths.labels, v: kind, labelsV: kind };
}

const DONE: Record<string, string> = {
  deleted: '已删除该证据数据，保全记录仍保留在账本中',
  labelled: Msg.modified,
};

/** Loads one page of the kind's list with the URL's filters. */
export async function listLoader(request: Request, context: AppLoadContext, kind: ListKind) {
  const url = new URL(request.url);
  const filters = readFilters(url);
  const source = sourceOf(kind);
  const [list, labels] = await Promise.all([
    authedCall<EvidenceListData>(request, context, source.list, {
      query: { ...toListQuery(filters, EVIDENCE_PAGE_SIZE), v: source.v },
    }),
    authedCall<LabelItem[]>(
      request,
      context,
      source.labels,
      source.labelsV ? { query: { v: source.labelsV } } : {},
    ),
  ]);
  return {
    kind,
    filters,
    list: isSuccess(list.code) ? list.data.list : [],
    count: isSuccess(list.code) ? list.data.count : 0,
    error: isSuccess(list.code) ? null : list.msg,
    labels: isSuccess(labels.code) ? labels.data.map((l) => l.label) : [],
    notice: DONE[url.searchParams.get('done') ?? ''] ?? null,
  };
}

/**
 * Row actions of every list (spec 01 §2.4): `intent=delete {dataId}` deletes the evidence's data (decision 006);
 * `intent=label {dataId, label}` saves its label (an empty label clears it; the field must be there). A success
 * redirects back with `?done=` (PRG). Answers 400 `{error}`: {@link Msg.badRequest} for a missing or unknown intent
 * or a label save without its field (nothing is called), else the platform's message; 403 from the CSRF check.
 */
export async function listAction(request: Request, context: AppLoadContext) {
  const formData = await readForm(request, context);
  await validateCsrf(formData, request, context);
  const dataId = String(formData.get('dataId') ?? '');
  const intent = formData.get('intent');
  const label = formData.get('label');
  // Only the page's own buttons act: a missing or unknown intent must not fall through to a delete or a label save,
  // and a label save without its field must not clear the label (the form always sends it, empty to clear).
  let res;
  if (intent === 'delete') {
    res = await authedCall(request, context, EvidencePaths.delData, { method: 'POST', body: { dataId } });
  } else if (intent === 'label' && typeof label === 'string') {
    res = await authedCall(request, context, EvidencePaths.labelSave, { body: { dataId, label } });
  } else {
    return data({ error: Msg.badRequest }, { status: 400 });
  }
  if (!isSuccess(res.code)) return data({ error: res.msg }, { status: 400 });
  const back = new URL(request.url);
  back.searchParams.set('done', intent === 'delete' ? 'deleted' : 'labelled');
  return redirect(back.pathname + back.search);
}
