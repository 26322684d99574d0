/** The ledger proof summary a certificate prints (decisions 005, 007): leaf index, tree size, root, signed-tree-head time. */
import type { AppLoadContext } from 'react-router';
import { isSuccess } from '../../contract/envelope.ts';
import { LedgerPaths, type ProofBundle } from '../../contract/ledger.ts';
import { apiCall } from '../lib/api.server.ts';

export interface ProofSummary {
  leafIndex: number;
  leafHash: string;
  treeSize: number;
  rootHash: string;
  /** STH time as "YYYY-MM-DD HH:mm:ss" Beijing time. */
  signedAt: string;
  keyId: string;
  proofLength: number;
}

/** Beijing time "YYYY-MM-DD HH:mm:ss" of a millisecond timestamp. */
export function beijingTime(ms: number): string {
  return new Date(ms + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
}

/** The summary, or null when the platform has no proof for it (yet). */
export async function loadProofSummary(
  context: AppLoadContext,
  baoquan: string,
): Promise<ProofSummary | null> {
  const res = await apiCall<ProofBundle>(context, LedgerPaths.proof, { query: { baoquan } }).catch(
    () => null,
  );
  if (!res || !isSuccess(res.code)) return null;
  const b = res.data;
  return {
    leafIndex: b.leafIndex,
    leafHash: b.leafHash,
    treeSize: b.sth.treeSize,
    rootHash: b.sth.rootHash,
    signedAt: beijingTime(b.sth.timestamp),
    keyId: b.sth.keyId,
    proofLength: b.inclusionProof.length,
  };
}
