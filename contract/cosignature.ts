/**
 * Witness cosignatures on checkpoints (decision 035; c2sp.org/tlog-cosignature, the Ed25519 `cosignature/v1`
 * type): a cosignature is a note signature line `— <witness name> base64(key ID ‖ timestamped_signature)` where the
 * key ID is SHA-256(name ‖ 0x0A ‖ 0x04 ‖ Ed25519 public key)[:4] and timestamped_signature is the big-endian u64
 * POSIX time of cosigning followed by the 64-byte Ed25519 signature of
 *   "cosignature/v1\n" ‖ "time <timestamp>\n" ‖ the checkpoint's note text (its lines up to the blank line).
 * A witness's verifier key is `<name>+<hex key ID>+base64(0x04 ‖ public key)` (signed-note's vkey form).
 *
 * Pure functions that run in Node and in browsers (the offline package verifier runs them in the page); verification
 * never throws on bad input. Cosigning itself is contract/note-signing.ts (node:crypto).
 */
import { decodeBase64, readUint32BE, readUint64BE, utf8ToBytes } from './bytes.ts';
import { verifyEd25519 } from './primitives.ts';
import { isKeyName, splitNote, typedKeyId, typedVerifierKey } from './signed-note.ts';

/** The signature type byte of Ed25519 cosignatures (tlog-cosignature, key ID). */
export const COSIGNATURE_V1 = 0x04;

/** A witness's Ed25519 cosigning key as verifiers hold it. */
export interface CosignerKey {
  name: string;
  /** The 4-byte key ID, big-endian. */
  keyId: number;
  publicKey: Uint8Array;
}

/** A cosignature that verified: who, and when they cosigned (POSIX seconds). */
export interface VerifiedCosignature {
  name: string;
  timestamp: number;
}

/** SHA-256(name ‖ 0x0A ‖ 0x04 ‖ key)[:4] as a number. */
export function cosignerKeyId(name: string, publicKey: Uint8Array): number {
  return typedKeyId(name, COSIGNATURE_V1, publicKey);
}

/** The verifier key text of a witness: `<name>+<hex key ID>+base64(0x04 ‖ key)`. */
export function cosignerVerifierKey(name: string, publicKey: Uint8Array): string {
  return typedVerifierKey(name, COSIGNATURE_V1, publicKey);
}

/** Parses a witness verifier key. @returns null unless it is a well-formed cosignature/v1 key whose ID matches */
export function parseCosignerKey(vkey: string): CosignerKey | null {
  const m = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/]+=*)$/.exec(vkey.trim());
  if (!m) return null;
  const [, name, hexId, b64] = m as unknown as [string, string, string, string];
  const bytes = decodeBase64(b64);
  if (!bytes || !isKeyName(name) || bytes.length !== 33 || bytes[0] !== COSIGNATURE_V1) return null;
  const publicKey = bytes.subarray(1);
  const keyId = Number.parseInt(hexId, 16);
  return cosignerKeyId(name, publicKey) === keyId ? { name, keyId, publicKey } : null;
}

/** The message a cosignature signs: the header line, the time line, then the checkpoint's note text. */
export function cosignatureMessage(checkpointText: string, timestamp: number): Uint8Array {
  return utf8ToBytes(`cosignature/v1\ntime ${timestamp}\n${checkpointText}`);
}

/**
 * The cosignatures on signed note `note` by `witnesses` that verify over its text; lines of other keys are ignored.
 * @returns those that verified, in note order, and those of a known key that did not (a forged or damaged line)
 */
export function openCosignatures(
  note: string,
  witnesses: readonly CosignerKey[],
): { verified: VerifiedCosignature[]; failed: string[] } {
  const verified: VerifiedCosignature[] = [];
  const failed: string[] = [];
  const parts = splitNote(note);
  if (!parts) return { verified, failed };
  const { text } = parts;
  for (const line of parts.lines) {
    const m = /^— (\S+) ([A-Za-z0-9+/]+=*)$/.exec(line);
    if (!m) continue;
    const [, name, b64] = m as unknown as [string, string, string];
    const bytes = decodeBase64(b64);
    if (!bytes || bytes.length !== 4 + 8 + 64) continue;
    const witness = witnesses.find((w) => w.name === name && w.keyId === readUint32BE(bytes, 0));
    if (!witness) continue;
    const timestamp = Number(readUint64BE(bytes, 4));
    if (verifyEd25519(bytes.subarray(12), cosignatureMessage(text, timestamp), witness.publicKey)) {
      verified.push({ name, timestamp });
    } else {
      failed.push(name);
    }
  }
  return { verified, failed };
}
