/**
 * /checkpoint and /.well-known/cunzheng-ledger.vkey (decision 035): the ledger's newest checkpoint as the C2SP
 * signed note itself (c2sp.org/tlog-checkpoint; `no-cache`: it changes with every append), and the note verifier key
 * that opens it (c2sp.org/signed-note `<origin>+<key ID>+<key>`), so any note/tlog client can check the log without
 * our API. Plain text.
 */
import { data } from 'react-router';
import type { Route } from './+types/checkpoint';
import { isSuccess } from '../../contract/envelope.ts';
import { LedgerPaths, type LedgerPublicKey } from '../../contract/ledger.ts';
import { apiCall, upstreamGet } from '../lib/api.server.ts';

const text = (body: string, cacheControl: string) =>
  new Response(body, {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': cacheControl },
  });

export async function loader({ request, context }: Route.LoaderArgs) {
  if (new URL(request.url).pathname.endsWith('.vkey')) {
    const res = await apiCall<LedgerPublicKey>(context, LedgerPaths.publicKey);
    if (!isSuccess(res.code) || !res.data.noteKey) throw data({ message: res.msg }, { status: 502 });
    return text(`${res.data.noteKey}\n`, 'public, max-age=300');
  }
  const res = await upstreamGet(context, LedgerPaths.checkpoint, { signal: request.signal });
  if (!res.ok) throw data({ message: 'checkpoint unavailable' }, { status: 502 });
  return text(await res.text(), 'no-cache');
}
