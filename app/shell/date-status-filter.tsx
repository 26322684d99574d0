/**
 * The GET filter form of the account lists (spec 02 §2 "Orders": date range and status; "Invoices" likewise): the
 * filters live in the URL, so the form works without JavaScript and a filtered page can be bookmarked. Dates are
 * `YYYY-MM-DD` (`startDate`, `endDate`); the status select sends `statusName` with '0' for 全部.
 */
import { Form, Link } from 'react-router';

export interface DateStatusFilterProps {
  /** The list's path. */
  action: string;
  /** Fields kept across a search (the tab), name → value. */
  hidden?: Readonly<Record<string, string>>;
  filters: { startDate: string; endDate: string; status: number | string };
  /** The status field's name in the query (`isType` on /orders, `status` on /invoice). */
  statusName: string;
  statusOptions: readonly { value: string | number; label: string }[];
  /** Where 重置 leads: the list without filters. */
  resetHref: string;
}

export function DateStatusFilter({
  action,
  hidden,
  filters,
  statusName,
  statusOptions,
  resetHref,
}: DateStatusFilterProps) {
  return (
    <Form method="get" action={action} className="filters" role="search">
      {Object.entries(hidden ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <label>
        开始日期 <input type="date" name="startDate" defaultValue={filters.startDate} />
      </label>
      <label>
        结束日期 <input type="date" name="endDate" defaultValue={filters.endDate} />
      </label>
      <label>
        状态
        <select name={statusName} defaultValue={String(filters.status)}>
          <option value="0">全部</option>
          {statusOptions.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="button">
        查询
      </button>
      <Link to={resetHref}>重置</Link>
    </Form>
  );
}
