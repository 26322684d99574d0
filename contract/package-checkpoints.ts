/**
 * Steps 6 and 7 of the offline package verifier (package-verify.ts; decision 035): the checkpoint witnesses cosigned
 * and the checkpoint a Time-Stamp Authority stamped, each a signed checkpoint note that must hold the package's leaf.
 */
import type { ProofBundle } from './ledger.ts';
import { decodeBase64 } from './bytes.ts';
import { openCosignatures, parseCosignerKey, type CosignerKey } from './cosignature.ts';
import { openCheckpoint, parseVerifierKey, splitNote } from './signed-note.ts';
import { certificatesOfPem, checkTimestampToken } from './timestamp-token.ts';
import { verifyInclusion } from './ledger-verify.ts';

/** A step's outcome without its number. */
export interface StepOutcome {
  status: 'pass' | 'fail' | 'skip';
  detail: string;
}

/**
 * Whether `note` is a checkpoint signed by the package's ledger key, of `treeSize` leaves, whose root `proof` leads
 * leaf `leaf` (at the package's leaf index) to. @returns null when it is, else what is wrong
 */
function checkpointProblem(
  b: ProofBundle,
  leaf: string,
  note: unknown,
  treeSize: unknown,
  proof: unknown,
): string | null {
  const log = b.publicKey.noteKey ? parseVerifierKey(b.publicKey.noteKey) : null;
  if (!log) return 'publicKey.noteKey is not a note verifier key';
  const opened = typeof note === 'string' ? openCheckpoint(note, log.name, [log]) : null;
  if (!opened?.ok) return `the checkpoint: ${opened?.reason ?? 'missing'}`;
  const c = opened.checkpoint;
  if (
    c.treeSize !== treeSize ||
    !Array.isArray(proof) ||
    !verifyInclusion(leaf, b.leafIndex, c.treeSize, proof as string[], c.rootHash)
  ) {
    return `the leaf's proof does not lead to the root of the checkpoint of size ${c.treeSize}`;
  }
  return null;
}

/** Step 7 of package-core.ts's `verifyOne`: the package's stamped checkpoint, if any, and its RFC 3161 token. */
export async function timestampStep(
  b: ProofBundle,
  leaf: string,
  tsaCertsPem: string | undefined,
): Promise<StepOutcome> {
  const t = b.timestamp;
  if (!t) return { status: 'skip', detail: 'no time-stamped checkpoint held this leaf when it was packaged' };
  const problem = checkpointProblem(b, leaf, t.note, t.treeSize, t.inclusionProof);
  if (problem) return { status: 'fail', detail: problem };
  const trusted = tsaCertsPem ? certificatesOfPem(tsaCertsPem) : [];
  const token = (typeof t.token === 'string' ? decodeBase64(t.token) : null) ?? new Uint8Array();
  const check = await checkTimestampToken(token, new TextEncoder().encode(t.note), trusted);
  if (!check.ok) return { status: 'fail', detail: `the RFC 3161 token: ${check.reason}` };
  const anchor =
    trusted.length > 0
      ? 'chained to the given TSA certificate'
      : 'TSA certificate not checked: give --tsa-cert';
  return {
    status: 'pass',
    detail: `the checkpoint of size ${t.treeSize} holding the leaf was stamped by ${check.tsa} at ${check.genTime.toISOString()} (RFC 3161; ${anchor})`,
  };
}

/** Step 6 of package-core.ts's `verifyOne`: the cosigned checkpoint of the package, if any, and who cosigned it. */
export function witnessStep(b: ProofBundle, leaf: string, witnessKeys: readonly string[]): StepOutcome {
  const w = b.witnessed;
  if (!w)
    return {
      status: 'skip',
      detail: 'no witness had cosigned a tree holding this leaf when it was packaged',
    };
  const problem = checkpointProblem(b, leaf, w.note, w.treeSize, w.inclusionProof);
  if (problem) return { status: 'fail', detail: problem };
  const log = parseVerifierKey(b.publicKey.noteKey!)!;
  const treeSize = w.treeSize;
  const keys = witnessKeys.map((k) => parseCosignerKey(k));
  const badKey = witnessKeys.find((_, i) => keys[i] === null);
  if (badKey !== undefined) return { status: 'fail', detail: `not a witness verifier key: ${badKey}` };
  const { verified, failed } = openCosignatures(w.note, keys as CosignerKey[]);
  if (failed.length > 0)
    return { status: 'fail', detail: `the cosignature of ${failed.join(', ')} does not verify` };
  const proven = `the leaf is in the ledger-signed checkpoint of size ${treeSize}`;
  if (witnessKeys.length === 0) {
    const names = (splitNote(w.note)?.lines ?? [])
      .map((l) => /^— (\S+) /.exec(l)?.[1])
      .filter((n): n is string => !!n && n !== log.name);
    return {
      status: 'pass',
      detail: `${proven}; cosigned by ${names.join(', ') || 'nobody'} (not checked: give --witness <key>)`,
    };
  }
  if (verified.length === 0)
    return { status: 'fail', detail: `${proven}, but none of the given witnesses cosigned it` };
  const when = verified.map((v) => `${v.name} (${new Date(v.timestamp * 1000).toISOString()})`);
  return { status: 'pass', detail: `${proven}; vouched for by ${when.join(', ')}` };
}
