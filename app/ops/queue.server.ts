/**
 * One page of an operator queue from the platform (decision 015, decision 060): the `page` the URL asks for
 * ({@link queuePageOf}) and the queue's filter sent to the area's queue call, its rows and their count back. Shared
 * by the loaders of every area's queue page (invoices, notary orders).
 */
import type { AppLoadContext } from 'react-router';
import { opsData } from './ops.server.ts';

/** The page asked for by `url`'s `page` parameter: 1 when missing or not a number, at most 100,000. */
export function queuePageOf(url: URL): number {
  return Math.max(1, Math.min(100_000, Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1));
}

/**
 * GETs `path` with `filter` and the page of `request`'s URL.
 * @returns the page (from 1), the page's rows and how many rows the queue has in all
 * @throws as {@link opsData}: a 404 or 502 response when the call fails
 */
export async function opsQueuePage<Row>(
  request: Request,
  context: AppLoadContext,
  path: string,
  filter: Record<string, string | number>,
): Promise<{ page: number; list: Row[]; count: number }> {
  const page = queuePageOf(new URL(request.url));
  const queue = await opsData<{ list: Row[]; count: number }>(request, context, path, {
    method: 'GET',
    query: { ...filter, page },
  });
  return { page, list: queue.list, count: queue.count };
}
