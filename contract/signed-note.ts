/**
 * C2SP signed notes and transparency-log checkpoints (decision 035; c2sp.org/signed-note, c2sp.org/tlog-checkpoint,
 * the format of Go's golang.org/x/mod/sumdb/note): a note is a text ending in a newline, a blank line, then signature
 * lines `— <key name> base64(key ID ‖ signature)`; an Ed25519 key's ID is SHA-256(name ‖ 0x0A ‖ 0x01 ‖ public key)[:4]
 * and its verifier key is the text `<name>+<hex key ID>+base64(0x01 ‖ public key)`. A checkpoint's text is the origin,
 * the tree size in decimal, the base64 root hash (RFC 6962 / RFC 9162 tree) and optional extension lines.
 *
 * Pure functions that run in Node and in browsers (contract/primitives.ts; the offline package verifier runs them in
 * the page); no I/O. Verification never throws on bad input: it answers a reason. Signing, which needs the
 * private key, is contract/note-signing.ts (node:crypto).
 */
import {
  bytesToHex,
  concatBytes,
  decodeBase64,
  encodeBase64,
  hexToBytes,
  readUint32BE,
  utf8ToBytes,
} from './bytes.ts';
import { sha256, verifyEd25519 } from './primitives.ts';

/** The signature type byte of Ed25519 note signatures (signed-note §Signature types). */
const ED25519 = 0x01;
/** Most signature lines a note may carry before it is refused (the spec asks verifiers to accept at least 16). */
export const MAX_NOTE_SIGNATURES = 100;

/** An Ed25519 public key as the note format uses it. */
export interface NoteVerifier {
  name: string;
  /** The 4-byte key ID as a number (big-endian). */
  keyId: number;
  /** The raw 32-byte public key. */
  publicKey: Uint8Array;
}

/** True for a key name the spec allows: non-empty, no Unicode space, no '+'. */
export function isKeyName(name: string): boolean {
  return name.length > 0 && !/[\s+]/u.test(name);
}

/**
 * The key ID of a key of signature type `type` (0x01 Ed25519 notes, 0x04 Ed25519 cosignatures, …) named `name`:
 * SHA-256(name ‖ 0x0A ‖ type ‖ key)[:4] as a number (signed-note §Verifier keys).
 */
export function typedKeyId(name: string, type: number, publicKey: Uint8Array): number {
  return readUint32BE(sha256(name, Uint8Array.of(0x0a, type), publicKey), 0);
}

/** The verifier key text `<name>+<hex key ID>+base64(type ‖ key)` of a key of signature type `type`. */
export function typedVerifierKey(name: string, type: number, publicKey: Uint8Array): string {
  const id = typedKeyId(name, type, publicKey).toString(16).padStart(8, '0');
  return `${name}+${id}+${encodeBase64(concatBytes(Uint8Array.of(type), publicKey))}`;
}

/** The key ID of Ed25519 key `publicKey` (32 raw bytes) named `name`: SHA-256(name ‖ 0x0A ‖ 0x01 ‖ key)[:4]. */
export function ed25519KeyId(name: string, publicKey: Uint8Array): number {
  return typedKeyId(name, ED25519, publicKey);
}

/** The verifier key text `<name>+<hex key ID>+base64(0x01 ‖ key)` of an Ed25519 public key. */
export function verifierKey(name: string, publicKey: Uint8Array): string {
  return typedVerifierKey(name, ED25519, publicKey);
}

/**
 * Parses a verifier key text. @returns the verifier, or null when it is malformed, not Ed25519, or its key ID does
 * not match its name and key
 */
export function parseVerifierKey(vkey: string): NoteVerifier | null {
  // The key name holds no '+', the hex ID none either; the base64 key may (so split at the first two only).
  const m = /^([^+]+)\+([^+]+)\+(.+)$/.exec(vkey.trim());
  if (!m) return null;
  const [, name, hexId, b64] = m as unknown as [string, string, string, string];
  if (!isKeyName(name) || !/^[0-9a-f]{8}$/.test(hexId)) return null;
  const bytes = decodeBase64(b64);
  if (!bytes || bytes.length !== 33 || bytes[0] !== ED25519) return null;
  const publicKey = bytes.subarray(1);
  const keyId = Number.parseInt(hexId, 16);
  if (ed25519KeyId(name, publicKey) !== keyId) return null;
  return { name, keyId, publicKey };
}

/** What {@link openNote} found. */
export type NoteCheck = { ok: true; text: string; verifiedBy: string[] } | { ok: false; reason: string };

/**
 * A signed note's parts: the text (every line up to the last blank line, final newline included) and its signature
 * lines (without newlines). @returns null when the note has no blank line or does not end with a newline
 */
export function splitNote(note: string): { text: string; lines: string[] } | null {
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) return null;
  return { text: note.slice(0, split + 1), lines: note.slice(split + 2, -1).split('\n') };
}

/**
 * Opens a signed note against `verifiers`: splits the text from the signature lines (at the last blank line),
 * ignores signatures of unknown keys, verifies every signature of a known key (one failing rejects the note), and
 * requires at least one.
 * @returns the note text and the names of the keys whose signatures verified, or why the note was refused
 */
export function openNote(note: string, verifiers: readonly NoteVerifier[]): NoteCheck {
  if (!note.endsWith('\n')) return { ok: false, reason: 'the note does not end with a newline' };
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0009\u000b-\u001f]/.test(note))
    return { ok: false, reason: 'the note has control characters' };
  const parts = splitNote(note);
  if (!parts) return { ok: false, reason: 'the note has no signatures' };
  const { text, lines } = parts;
  if (lines.length > MAX_NOTE_SIGNATURES) return { ok: false, reason: 'the note has too many signatures' };
  const verifiedBy: string[] = [];
  for (const line of lines) {
    const m = /^— (\S+) ([A-Za-z0-9+/]+=*)$/.exec(line);
    if (!m) return { ok: false, reason: 'a signature line is malformed' };
    const [, name, b64] = m as unknown as [string, string, string];
    const bytes = decodeBase64(b64);
    if (!bytes || bytes.length < 5) return { ok: false, reason: 'a signature line is malformed' };
    const id = readUint32BE(bytes, 0);
    const known = verifiers.find((v) => v.name === name && v.keyId === id);
    if (!known) continue;
    if (!verifyEd25519(bytes.subarray(4), utf8ToBytes(text), known.publicKey)) {
      return { ok: false, reason: `the signature of ${name} does not verify` };
    }
    verifiedBy.push(name);
  }
  if (verifiedBy.length === 0) return { ok: false, reason: 'no signature of a known key' };
  return { ok: true, text, verifiedBy };
}

/** A checkpoint's body (c2sp.org/tlog-checkpoint). */
export interface Checkpoint {
  origin: string;
  treeSize: number;
  /** The root hash, 64 lower-case hex (the ledger's own encoding; the note carries it in base64). */
  rootHash: string;
  /** Extension lines, if any. */
  extensions: string[];
}

/** The note text of `c`: origin, size, base64 root, extension lines, each ending in a newline. */
export function checkpointText(c: Checkpoint): string {
  const root = encodeBase64(hexToBytes(c.rootHash));
  return [c.origin, String(c.treeSize), root, ...c.extensions].map((l) => `${l}\n`).join('');
}

/** Parses a checkpoint's note text. @returns the checkpoint, or null when it is not one */
export function parseCheckpoint(text: string): Checkpoint | null {
  if (!text.endsWith('\n')) return null;
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 3 || lines.some((l) => l === '')) return null;
  const [origin, size, root, ...extensions] = lines as [string, string, string, ...string[]];
  if (!/^(0|[1-9]\d{0,15})$/.test(size) || !Number.isSafeInteger(Number(size))) return null;
  const rootBytes = decodeBase64(root);
  if (!rootBytes || rootBytes.length !== 32) return null;
  return { origin, treeSize: Number(size), rootHash: bytesToHex(rootBytes), extensions };
}

/**
 * Verifies a signed checkpoint of `origin` against the log's verifier key(s).
 * @returns the checkpoint and who verified it, or why not (a bad signature, another origin, not a checkpoint)
 */
export function openCheckpoint(
  note: string,
  origin: string,
  verifiers: readonly NoteVerifier[],
): { ok: true; checkpoint: Checkpoint; verifiedBy: string[] } | { ok: false; reason: string } {
  const opened = openNote(note, verifiers);
  if (!opened.ok) return opened;
  const checkpoint = parseCheckpoint(opened.text);
  if (!checkpoint) return { ok: false, reason: 'the note is not a checkpoint' };
  if (checkpoint.origin !== origin) return { ok: false, reason: `the checkpoint is of ${checkpoint.origin}` };
  return { ok: true, checkpoint, verifiedBy: opened.verifiedBy };
}
