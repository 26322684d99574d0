/**
 * The list table of the account, evidence and console pages: a header row, then one row per item, or a single
 * "empty" row spanning every column when there are none. Server-rendered, no JavaScript needed.
 */
import type { ReactNode } from 'react';

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
          items.map((item) => row(item))
        )}
      </tbody>
    </table>
  );
}
