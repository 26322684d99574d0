/**
 * One operator queue page's frame (decision 015, decision 060): the title, the state tabs as plain links, the table
 * of one page of rows (20 a page, `OPS_PAGE_SIZE`; cards under 600 px) and the page links, so every area's queue
 * (invoices, notary orders) reads and pages alike without JavaScript. The area's page gives its tabs, columns and
 * row; its loader gets the page's rows with `opsQueuePage` (app/ops/queue.server.ts).
 */
import type { ReactNode } from 'react';
import { OPS_PAGE_SIZE } from '../../contract/ops.ts';
import { DataTable } from '../shell/data-table.tsx';
import { Pagination } from '../shell/pagination.tsx';
import { TabNav, type Tab } from '../shell/tab-nav.tsx';

/** A queue page: `title` (h1), the tabs under `tabsLabel`, the table of `items` and the links to other pages. */
export function OpsQueueView<Row>({
  title,
  tabsLabel,
  tabs,
  headers,
  items,
  row,
  page,
  count,
  href,
}: {
  title: string;
  tabsLabel: string;
  tabs: readonly Tab[];
  headers: readonly ReactNode[];
  items: readonly Row[];
  row: (item: Row) => ReactNode;
  /** The page shown (from 1) and the number of rows of the tab in all. */
  page: number;
  count: number;
  /** The URL of page `p` of the same tab. */
  href: (p: number) => string;
}) {
  return (
    <>
      <h1>{title}</h1>
      <TabNav label={tabsLabel} tabs={tabs} />
      <DataTable headers={headers} items={items} empty="暂无记录" row={row} />
      <Pagination page={page} pageSize={OPS_PAGE_SIZE} count={count} href={href} />
    </>
  );
}
