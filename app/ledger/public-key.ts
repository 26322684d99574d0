/** /.well-known/cunzheng-ledger-key.pem: the ledger's Ed25519 public key as a file (decision 005). */
import { data } from 'react-router';
import type { Route } from './+types/public-key';
import { isSuccess } from '../../contract/envelope.ts';
import { LedgerPaths, type LedgerPublicKey } from '../../contract/ledger.ts';
import { apiCall } from '../lib/api.server.ts';

export async function loader({ context }: Route.LoaderArgs) {
  const res = await apiCall<LedgerPublicKey>(context, LedgerPaths.publicKey);
  if (!isSuccess(res.code)) throw data({ message: res.msg }, { status: 502 });
  return new Response(res.data.pem, {
    headers: {
      'Content-Type': 'application/x-pem-file; charset=utf-8',
      'Cache-Control': 'public, max-age=300',
    },
  });
}
