/**
 * The filters of /orders as URL search params, so they work as a plain GET form and as links (spec 02 §2 "Orders":
 * tabs 1 充值记录, 2 消费记录, 3 公证出证; filters by date range and status): `type` the tab, `startDate`/`endDate`
 * (YYYY-MM-DD, Beijing time), `isType` a status code, `page` from 1. The end date reaches the end of its day: 00:00
 * plus 86400 − 1 seconds (spec 02 §9, contract END_OF_DAY_SECONDS).
 */
import {
  END_OF_DAY_SECONDS,
  NOTARY_PAY_TEXT,
  OrderTab,
  PAY_STATUS_TEXT,
  type OrderTabCode,
} from '../../contract/billing.ts';

/** The list's filters. `status` 0 means every status. */
export interface OrderFilters {
  tab: OrderTabCode;
  startDate: string;
  endDate: string;
  status: number;
  page: number;
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** The status filter's choices of a tab: code → label (tab 3 uses the notary orders' texts, spec 02 §3). */
export function statusChoices(tab: OrderTabCode): Readonly<Record<number, string>> {
  return tab === OrderTab.notary ? NOTARY_PAY_TEXT : PAY_STATUS_TEXT;
}

/** Unix seconds of 00:00 Beijing time on a YYYY-MM-DD date, or undefined when the text is not a real date. */
export function beijingDayStart(date: string): number | undefined {
  if (!DATE_RE.test(date)) return undefined;
  const ms = Date.parse(`${date}T00:00:00+08:00`);
  // Date.parse rolls 2026-02-30 over to March: only a date that reads back the same is real.
  if (Number.isNaN(ms) || new Date(ms + 8 * 3600_000).toISOString().slice(0, 10) !== date) return undefined;
  return ms / 1000;
}

/** Reads the filters from a URL; a bad value falls back to its default instead of reaching the platform. */
export function readOrderFilters(url: URL): OrderFilters {
  const p = url.searchParams;
  const tabNumber = Number(p.get('type') ?? OrderTab.recharge);
  const tab = (Object.values(OrderTab) as number[]).includes(tabNumber)
    ? (tabNumber as OrderTabCode)
    : OrderTab.recharge;
  const status = Number(p.get('isType') ?? 0);
  const page = Number(p.get('page') ?? 1);
  const date = (name: string) => {
    const v = p.get(name) ?? '';
    return beijingDayStart(v) === undefined ? '' : v;
  };
  return {
    tab,
    startDate: date('startDate'),
    endDate: date('endDate'),
    status: status in statusChoices(tab) ? status : 0,
    page: Number.isSafeInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
  };
}

/** The `getOrderList` query of these filters (spec 02 §7 `{startTime, endTime, page, type, isType}`). */
export function toOrderListQuery(f: OrderFilters) {
  const endDay = beijingDayStart(f.endDate);
  return {
    type: f.tab,
    page: f.page,
    startTime: beijingDayStart(f.startDate),
    endTime: endDay === undefined ? undefined : endDay + END_OF_DAY_SECONDS,
    isType: f.status || undefined,
  };
}

/** `/orders?…` with the same filters, on another `page` or with a `done` notice. */
export function ordersHref(f: OrderFilters, change: { page?: number; done?: string } = {}): string {
  const p = new URLSearchParams();
  if (f.tab !== OrderTab.recharge) p.set('type', String(f.tab));
  if (f.startDate) p.set('startDate', f.startDate);
  if (f.endDate) p.set('endDate', f.endDate);
  if (f.status) p.set('isType', String(f.status));
  const page = change.page ?? f.page;
  if (page > 1) p.set('page', String(page));
  if (change.done) p.set('done', change.done);
  const s = p.toString();
  return s ? `/orders?${s}` : '/orders';
}
