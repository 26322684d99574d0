/**
 * The signing input of a signed tree head (docs/decisions/005-ledger.md), apart from contract/ledger.ts so that the
 * in-browser package verifier (decision 036) takes it without the API schemas.
 */

/** The exact bytes an STH signature covers: `cunzheng-sth-v1\n<treeSize>\n<rootHash>\n<timestamp>` (UTF-8). */
export function sthSigningInput(sth: { treeSize: number; rootHash: string; timestamp: number }): string {
  return `cunzheng-sth-v1\n${sth.treeSize}\n${sth.rootHash}\n${sth.timestamp}`;
}
