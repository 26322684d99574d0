/**
 * The evidence list filters of spec 01 §2.4 as URL search params (so they work as a plain GET form and as links):
 * startDate/endDate (YYYY-MM-DD, Beijing time), type 0–5, label, keyword, page.
 * The end date is extended to the end of that day: start of day + 86400 − 1 seconds (spec 01 §9).
 */
import { END_OF_DAY_SECONDS } from '../../contract/evidence-codes.ts';

export interface ListFilters {
  startDate: string;
  endDate: string;
  type: number;
  label: string;
  keyword: string;
  page: number;
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** Unix seconds of 00:00 Beijing time on a YYYY-MM-DD date, or undefined when the text is not a date. */
export function beijingDayStart(date: string): number | undefined {
  if (!DATE_RE.test(date)) return undefined;
  const ms = Date.parse(`${date}T00:00:00+08:00`);
  return Number.isNaN(ms) ? undefined : ms / 1000;
}

/** Reads the filters from a URL, clamping bad values to defaults. */
export function readFilters(url: URL): ListFilters {
  const p = url.searchParams;
  const type = Number(p.get('type') ?? 0);
  const page = Number(p.get('page') ?? 1);
  return {
    startDate: DATE_RE.test(p.get('startDate') ?? '') ? p.get('startDate')! : '',
    endDate: DATE_RE.test(p.get('endDate') ?? '') ? p.get('endDate')! : '',
    type: Number.isInteger(type) && type >= 0 && type <= 5 ? type : 0,
    label: (p.get('label') ?? '').trim().slice(0, 30),
    keyword: (p.get('keyword') ?? '').trim().slice(0, 100),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** The getList query of spec 01 §7 for these filters. */
export function toListQuery(f: ListFilters, limit: number) {
  const start = beijingDayStart(f.startDate);
  const endDay = beijingDayStart(f.endDate);
  return {
    page: f.page,
    limit,
    type: f.type,
    label: f.label || undefined,
    keyword: f.keyword || undefined,
    startTime: start,
    endTime: endDay === undefined ? undefined : endDay + END_OF_DAY_SECONDS,
  };
}

/** Search string for the same filters on another page. */
export function pageHref(f: ListFilters, page: number): string {
  const p = new URLSearchParams();
  if (f.startDate) p.set('startDate', f.startDate);
  if (f.endDate) p.set('endDate', f.endDate);
  if (f.type) p.set('type', String(f.type));
  if (f.label) p.set('label', f.label);
  if (f.keyword) p.set('keyword', f.keyword);
  if (page > 1) p.set('page', String(page));
  const s = p.toString();
  return s ? `?${s}` : '?';
}
