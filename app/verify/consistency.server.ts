/**
 * The ledger consistency check of /queryAuthentication/mutualEvidence: the gateway asks the platform for its newest
 * signed tree head and a consistency proof from the tree the user saw earlier, and verifies both itself with the
 * pure RFC 9162 checks of contract/ (a deployment's gateway need not trust another operator's upstream blindly).
 */
import type { AppLoadContext } from 'react-router';
import { isSuccess } from '../../contract/envelope.ts';
import { checkSth, verifyConsistency } from '../../contract/ledger-verify.ts';
import {
  type ConsistencyProofData,
  LedgerPaths,
  type LedgerPublicKey,
  type SignedTreeHead,
} from '../../contract/ledger.ts';
import { apiCall } from '../lib/api.server.ts';

export type ConsistencyResult =
  { ok: true; sth: SignedTreeHead; proofLength: number } | { ok: false; error: string; sth?: SignedTreeHead };

/** Checks that today's ledger extends the tree of `size` leaves with root `root`. */
export async function checkConsistency(
  context: AppLoadContext,
  size: number,
  root: string,
): Promise<ConsistencyResult> {
  const [sth, key] = await Promise.all([
    apiCall<SignedTreeHead>(context, LedgerPaths.sth),
    apiCall<LedgerPublicKey>(context, LedgerPaths.publicKey),
  ]);
  if (!isSuccess(sth.code) || !isSuccess(key.code)) return { ok: false, error: sth.msg || key.msg };
  const signature = checkSth(sth.data, key.data.pem);
  if (!signature.ok)
    return { ok: false, error: `当前签名树头的签名无效（${signature.reason}）`, sth: sth.data };
  if (size > sth.data.treeSize)
    return { ok: false, error: `账本当前只有 ${sth.data.treeSize} 条记录，小于您填写的规模`, sth: sth.data };
  const proof = await apiCall<ConsistencyProofData>(context, LedgerPaths.consistency, {
    query: { first: size, second: sth.data.treeSize },
  });
  if (!isSuccess(proof.code)) return { ok: false, error: proof.msg, sth: sth.data };
  if (!verifyConsistency(size, sth.data.treeSize, root, sth.data.rootHash, proof.data.proof)) {
    return {
      ok: false,
      error: '不一致：您保存的树根与当前账本不符，账本可能被改写，请保留证据并联系我们。',
      sth: sth.data,
    };
  }
  return { ok: true, sth: sth.data, proofLength: proof.data.proof.length };
}
