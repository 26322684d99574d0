/**
 * The ledger explorer's address for an evidence (/chain/tx/{leaf hash}, app/ledger/chain-tx.tsx). With the
 * evidence's preservation number, which whoever holds the certificate has, the page shows the record itself; a leaf
 * hash alone shows the proof only (docs/decisions/035, "Records by leaf hash"). No zod here: certificate pages use it.
 */

/** `/chain/tx/<leafHash>`, with `?baoquan=` when `baoquan` is given. */
export function explorerPath(leafHash: string, baoquan?: string | null): string {
  return baoquan ? `/chain/tx/${leafHash}?baoquan=${encodeURIComponent(baoquan)}` : `/chain/tx/${leafHash}`;
}
