/**
 * Server-only helpers of the invoice pages (spec 02 §2 "Invoices", §7 "Orders, payment and invoices"; decision 022):
 * the application list's filters as URL search params (so they work as a plain GET form and as links), the
 * `invoiceList` body they make, the ids of a `/orders/makeOutInvoice` query, and the heads and addresses a user
 * chooses from.
 */
import type { AppLoadContext } from 'react-router';
import type { Address } from '../../contract/address.ts';
import { AddressPaths } from '../../contract/address.ts';
import { END_OF_DAY_SECONDS } from '../../contract/billing-codes.ts';
import { isSuccess } from '../../contract/envelope.ts';
import { APPLY_FILTER_TEXT, parseOrderIds, type ApplyStatusCode } from '../../contract/invoice-codes.ts';
import { type InvoiceHead, InvoicePaths } from '../../contract/invoice.ts';
import { authedCall } from '../lib/auth.server.ts';
import { beijingDayStart } from '../billing/order-filters.ts';

/** The application list's filters: dates YYYY-MM-DD (Beijing time) or '', status 1–4 or 0 for all, page from 1. */
export interface ApplyFilters {
  startDate: string;
  endDate: string;
  status: ApplyStatusCode | 0;
  page: number;
}

/** Reads the list's filters from `/invoice?activeName=1&startDate=&endDate=&status=&page=`; bad values → defaults. */
export function readApplyFilters(url: URL): ApplyFilters {
  const p = url.searchParams;
  const date = (name: string) => {
    const v = p.get(name) ?? '';
    return beijingDayStart(v) === undefined ? '' : v;
  };
  const status = Number(p.get('status') ?? 0);
  const page = Number(p.get('page') ?? 1);
  return {
    startDate: date('startDate'),
    endDate: date('endDate'),
    status: status in APPLY_FILTER_TEXT ? (status as ApplyStatusCode) : 0,
    page: Number.isSafeInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
  };
}

/**
 * The `invoiceList` body (spec 02 §7 `{page, startTime, endTime, status}`): unix seconds, the end date reaching the
 * end of its day (spec 02 §9).
 */
export function toInvoiceListBody(f: ApplyFilters): Record<string, number | undefined> {
  const endDay = beijingDayStart(f.endDate);
  return {
    page: f.page,
    startTime: beijingDayStart(f.startDate),
    endTime: endDay === undefined ? undefined : endDay + END_OF_DAY_SECONDS,
    status: f.status || undefined,
  };
}

/** `/invoice?activeName=1&…` with the same filters on page `page` (for the pagination links). */
export function applyListHref(f: ApplyFilters, page: number): string {
  const p = new URLSearchParams({ activeName: '1' });
  if (f.startDate) p.set('startDate', f.startDate);
  if (f.endDate) p.set('endDate', f.endDate);
  if (f.status) p.set('status', String(f.status));
  if (page > 1) p.set('page', String(page));
  return `/invoice?${p}`;
}

/**
 * The order ids of `/orders/makeOutInvoice?ids=…`: repeated `ids` fields (the /orders form) or one `[1,2]` / `1,2`
 * value (spec 02 §2). Null when any is not a positive integer.
 */
export function idsOfQuery(url: URL): number[] | null {
  return parseOrderIds(url.searchParams.getAll('ids'));
}

/** The caller's invoice heads and delivery addresses (an unreachable list reads as empty, with its message). */
export async function headsAndAddresses(
  request: Request,
  ctx: AppLoadContext,
): Promise<{ heads: InvoiceHead[]; addresses: Address[]; error: string | null }> {
  const [heads, addresses] = await Promise.all([
    authedCall<InvoiceHead[]>(request, ctx, InvoicePaths.riseList, { method: 'GET' }),
    authedCall<Address[]>(request, ctx, AddressPaths.addressList, { method: 'GET' }),
  ]);
  const failed = [heads, addresses].find((r) => !isSuccess(r.code));
  return {
    heads: isSuccess(heads.code) ? heads.data : [],
    addresses: isSuccess(addresses.code) ? addresses.data : [],
    error: failed ? failed.msg : null,
  };
}

export { fieldErrors } from '../lib/field-errors.ts';
