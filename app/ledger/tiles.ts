/**
 * /ledger/tile/* (decision 035): the ledger's C2SP tlog-tiles resources under the log's prefix (the checkpoint
 * origin `<host>/ledger` names `https://<host>/ledger` as the prefix, so `/ledger/checkpoint` and `/ledger/tile/…`
 * are where a tiles client looks). Passed through from the platform's `/api/ledger/tile/…` with its status, type and
 * caching (immutable tiles; a missing one 404 `no-cache`), so a CDN in front of the gateway can keep every tile.
 */
import type { Route } from './+types/tiles';
import { LedgerPaths } from '../../contract/ledger.ts';
import { upstreamGet } from '../lib/api.server.ts';

/** The headers of the platform's answer that go on. */
const PASSED = ['content-type', 'content-length', 'cache-control'];

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const path = params['*'] ?? '';
  // the platform refuses anything that is not a tile path; only a tile path's characters are worth the trip
  if (!/^[0-9a-z./]{1,200}$/.test(path)) {
    return new Response('not found\n', {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' },
    });
  }
  const res = await upstreamGet(context, `${LedgerPaths.tile}/${path}`, { signal: request.signal });
  const headers = new Headers();
  for (const name of PASSED) {
    const value = res.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  return new Response(res.body, { status: res.status, headers });
}
