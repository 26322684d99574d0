/**
 * Pieces of the evidence list screens (spec 01 §2.4) that the three lists and the batch download share: the GET
 * filter form (date range and file-name keyword, with the list's own selects in between), the file-type and label
 * selects, an evidence's cells in a table row, and the pagination that keeps the filters.
 */
import type { ReactNode } from 'react';
import { Form } from 'react-router';
import {
  EVIDENCE_PAGE_SIZE,
  type EvidenceListItem,
  FILE_TYPES,
  fileTypeLabel,
} from '../../contract/evidence-codes.ts';
import { Pagination } from '../shell/pagination.tsx';
import { pageHref, type ListFilters } from './filters.ts';

/**
 * The filter form (a GET form: the filters live in the URL). `selects` stand between the dates and the keyword;
 * `after` follows the 查询 button (e.g. a reset link).
 */
export function EvidenceFilters({
  filters,
  selects,
  after,
}: {
  filters: ListFilters;
  selects?: ReactNode;
  after?: ReactNode;
}) {
  // Keyed by the filters: a client-side navigation to other filters (a reset link, a back step) mounts a fresh form,
  // so the fields show the URL's filters rather than what was last typed (defaultValue applies only on mount).
  return (
    <Form method="get" className="filters" role="search" key={pageHref(filters, 1)}>
      <label>
        开始日期 <input type="date" name="startDate" defaultValue={filters.startDate} />
      </label>
      <label>
        结束日期 <input type="date" name="endDate" defaultValue={filters.endDate} />
      </label>
      {selects}
      <label>
        关键词 <input type="search" name="keyword" defaultValue={filters.keyword} placeholder="证据名称" />
      </label>
      <button type="submit" className="button">
        查询
      </button>
      {after}
    </Form>
  );
}

/** The file-type filter (spec 01 §2.4: 0 all, 1 document, 2 image, 3 audio, 4 video, 5 other). */
export function FileTypeSelect({ value }: { value: number }) {
  return (
    <label>
      文件类型
      <select name="type" defaultValue={String(value)}>
        {FILE_TYPES.map((t) => (
          <option key={t.code} value={t.code}>
            {t.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The label filter: 全部 (no label filter) and the user's labels of the list's kinds (getLabelList). */
export function LabelSelect({ value, labels }: { value: string; labels: string[] }) {
  return (
    <label>
      标签
      <select name="label" defaultValue={value}>
        <option value="">全部</option>
        {labels.map((l) => (
          <option key={l} value={l}>
            {l}
          </option>
        ))}
      </select>
    </label>
  );
}

/** An evidence's cells: number, title, file type, label (- when none), save time. */
/**
 * The five cells every evidence list row starts with. A plain function returning `<td>`s (not a component), so that
 * DataTable sees the cells and labels them for the phone layout.
 */
export function evidenceCells(row: EvidenceListItem) {
  return (
    <>
      <td className="mono">{row.baoquan}</td>
      <td>{row.title}</td>
      <td>{fileTypeLabel(row.fileType)}</td>
      <td>{row.label || '-'}</td>
      <td>{row.saveTime}</td>
    </>
  );
}

/** The pages of a list of `count` evidences, 20 a page (spec 01 §2.4), each link keeping the filters. */
export function ListPagination({ filters, count }: { filters: ListFilters; count: number }) {
  return (
    <Pagination
      page={filters.page}
      pageSize={EVIDENCE_PAGE_SIZE}
      count={count}
      href={(n) => pageHref(filters, n)}
    />
  );
}
