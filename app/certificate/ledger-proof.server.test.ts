/** The certificate sheet's proof summary from the head that came with the view (ledger-proof.server.ts). */
import { describe, expect, it } from 'vitest';
import type { SignedTreeHead } from '../../contract/ledger.ts';
import { proofSummary } from './ledger-proof.server.ts';

const sth: SignedTreeHead = {
  treeSize: 8,
  rootHash: 'ab'.repeat(32),
  // 2026-11-28 12:00:00 UTC = 20:00:00 in Beijing
  timestamp: Date.UTC(2026, 10, 28, 12, 0, 0),
  keyId: 'cd'.repeat(32),
  signature: 'sig',
};

describe('proofSummary', () => {
  it('prints the leaf under the head: size, root, key and the head time in Beijing', () => {
    expect(proofSummary({ leafIndex: 7 }, sth)).toEqual({
      leafIndex: 7,
      treeSize: 8,
      rootHash: sth.rootHash,
      signedAt: '2026-11-28 20:00:00',
      keyId: sth.keyId,
    });
  });

  it('none without a head, or with one that does not cover the leaf', () => {
    expect(proofSummary({ leafIndex: 0 }, null)).toBeNull();
    expect(proofSummary({ leafIndex: 8 }, sth)).toBeNull();
  });
});
