/**
 * The list table of the account, evidence and console pages: a header row, then one row per item, or a single
 * "empty" row spanning every column when there are none. Server-rendered, no JavaScript needed. Each cell gets its
 * column's header as `data-label`: under 600 px wide the table becomes one card per row, each cell prefixed with its
 * label (responsive.css; decision 030), so nothing is squeezed to a character a line or pushed out of view.
 */
import { Children, cloneElement, Fragment, isValidElement, type ReactElement, type ReactNode } from 'react';

type CellProps = { children?: ReactNode; colSpan?: number; 'data-label'?: string };

/**
 * `row` (a `<tr>`) with `data-label` on each direct `<td>`/`<th>` (fragments are looked into), from `headers` by
 * column position (colSpan counted). Cells rendered inside other components are left as they are.
 */
export function labelCells(row: ReactNode, headers: readonly ReactNode[]): ReactNode {
  if (!isValidElement(row) || row.type !== 'tr') return row;
  let column = 0;
  const visit = (children: ReactNode): ReactNode =>
    Children.map(children, (child) => {
      if (!isValidElement(child)) return child;
      const el = child as ReactElement<CellProps>;
      if (el.type === Fragment) return visit(el.props.children);
      if (el.type !== 'td' && el.type !== 'th') return el;
      const header = headers[column];
      column += el.props.colSpan ?? 1;
      return typeof header === 'string' && header && el.props['data-label'] === undefined
        ? cloneElement(el, { 'data-label': header })
        : el;
    });
  const tr = row as ReactElement<{ children?: ReactNode }>;
  return cloneElement(tr, undefined, visit(tr.props.children));
}

/**
 * @param headers the column headers, in order (their count is the empty row's colSpan)
 * @param items the rows' data; `row` renders each as a `<tr>` with its own key
 * @param empty the text of the empty row (e.g. 暂无记录)
 */
export function DataTable<T>({
  headers,
  items,
  empty,
  row,
  className = 'table',
}: {
  headers: readonly ReactNode[];
  items: readonly T[];
  empty: string;
  row: (item: T) => ReactNode;
  className?: string;
}) {
  return (
    <table className={className}>
      <thead>
        <tr>
          {headers.map((h, i) => (
            <th key={i}>{h}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {items.length === 0 ? (
          <tr>
            <td colSpan={headers.length} className="empty">
              {empty}
            </td>
          </tr>
        ) : (
          items.map((item) => labelCells(row(item), headers))
        )}
      </tbody>
    </table>
  );
}
