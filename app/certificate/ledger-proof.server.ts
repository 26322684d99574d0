/** The ledger proof summary a certificate prints (decisions 005, 007): leaf index, tree size, root, signed-tree-head time. */
import type { EvidenceView } from '../../contract/evidence-codes.ts';
import type { SignedTreeHead } from '../../contract/ledger.ts';

export interface ProofSummary {
  leafIndex: number;
  treeSize: number;
  rootHash: string;
  /** STH time as "YYYY-MM-DD HH:mm:ss" Beijing time. */
  signedAt: string;
  keyId: string;
}

/** Beijing time "YYYY-MM-DD HH:mm:ss" of a millisecond timestamp. */
export function beijingTime(ms: number): string {
  return new Date(ms + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * The summary of the evidence's place in the ledger under `sth`, the head the platform gave with the view
 * (view.server.ts `loadCertificate`); null without a head, or when the head does not cover the leaf (the sheet then
 * prints no proof section).
 */
export function proofSummary(
  view: Pick<EvidenceView, 'leafIndex'>,
  sth: SignedTreeHead | null,
): ProofSummary | null {
  if (!sth || !(view.leafIndex < sth.treeSize)) return null;
  return {
    leafIndex: view.leafIndex,
    treeSize: sth.treeSize,
    rootHash: sth.rootHash,
    signedAt: beijingTime(sth.timestamp),
    keyId: sth.keyId,
  };
}
