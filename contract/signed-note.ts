/**
 * C2SP signed notes and transparency-log checkpoints (issue 17 point 1; c2sp.org/signed-note, c2sp.org/tlog-checkpoint,
 * the format of Go's golang.org/x/mod/sumdb/note): a note is a text ending in a newline, a blank line, then signature
 * lines `— <key name> base64(key ID ‖ signature)`; an Ed25519 key's ID is SHA-256(name ‖ 0x0A ‖ 0x01 ‖ public key)[:4]
 * and its verifier key is the text `<name>+<hex key ID>+base64(0x01 ‖ public key)`. A checkpoint's text is the origin,
 * the tree size in decimal, the base64 root hash (RFC 6962 / RFC 9162 tree) and optional extension lines.
 *
 * Pure functions over node:crypto; no I/O. Verification never throws on bad input: it answers a reason.
 */
import {
  createHash,
  createPublicKey,
  sign as cryptoSign,
  verify as cryptoVerify,
  type KeyObject,
} from 'node:crypto';

/** The signature type byte of Ed25519 note signatures (signed-note §Signature types). */
const ED25519 = 0x01;
/** The DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410), before the 32 raw key bytes. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
/** Most signature lines a note may carry before it is refused (the spec asks verifiers to accept at least 16). */
export const MAX_NOTE_SIGNATURES = 100;

/** An Ed25519 public key as the note format uses it. */
export interface NoteVerifier {
  name: string;
  /** The 4-byte key ID as a number (big-endian). */
  keyId: number;
  /** The raw 32-byte public key. */
  publicKey: Buffer;
}

/** The 32 raw bytes of an Ed25519 public key object. */
export function rawEd25519(key: KeyObject): Buffer {
  const der = key.export({ type: 'spki', format: 'der' });
  return Buffer.from(der.subarray(der.length - 32));
}

function keyObjectOf(raw: Buffer): KeyObject {
  return createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
}

/** True for a key name the spec allows: non-empty, no Unicode space, no '+'. */
export function isKeyName(name: string): boolean {
  return name.length > 0 && !/[\s+]/u.test(name);
}

/**
 * The key ID of a key of signature type `type` (0x01 Ed25519 notes, 0x04 Ed25519 cosignatures, …) named `name`:
 * SHA-256(name ‖ 0x0A ‖ type ‖ key)[:4] as a number (signed-note §Verifier keys).
 */
export function typedKeyId(name: string, type: number, publicKey: Buffer): number {
  return createHash('sha256')
    .update(name, 'utf8')
    .update(Buffer.from([0x0a, type]))
    .update(publicKey)
    .digest()
    .readUInt32BE(0);
}

/** The verifier key text `<name>+<hex key ID>+base64(type ‖ key)` of a key of signature type `type`. */
export function typedVerifierKey(name: string, type: number, publicKey: Buffer): string {
  const id = typedKeyId(name, type, publicKey).toString(16).padStart(8, '0');
  return `${name}+${id}+${Buffer.concat([Buffer.from([type]), publicKey]).toString('base64')}`;
}

/** The key ID of Ed25519 key `publicKey` (32 raw bytes) named `name`: SHA-256(name ‖ 0x0A ‖ 0x01 ‖ key)[:4]. */
export function ed25519KeyId(name: string, publicKey: Buffer): number {
  return typedKeyId(name, ED25519, publicKey);
}

/** The verifier key text `<name>+<hex key ID>+base64(0x01 ‖ key)` of an Ed25519 public key. */
export function verifierKey(name: string, publicKey: Buffer): string {
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
  const bytes = Buffer.from(b64, 'base64');
  if (bytes.length !== 33 || bytes[0] !== ED25519 || bytes.toString('base64') !== b64) return null;
  const publicKey = bytes.subarray(1);
  const keyId = Number.parseInt(hexId, 16);
  if (ed25519KeyId(name, publicKey) !== keyId) return null;
  return { name, keyId, publicKey };
}

/**
 * Signs note `text` (it must end in a newline) with the Ed25519 private key `key` named `name`.
 * @returns the signed note: the text, a blank line, the signature line
 * @throws Error on a text without its final newline or a name the spec does not allow
 */
export function signNote(text: string, name: string, key: KeyObject): string {
  if (!text.endsWith('\n')) throw new Error('note text must end with a newline');
  if (!isKeyName(name)) throw new Error(`invalid note key name ${JSON.stringify(name)}`);
  const publicKey = rawEd25519(createPublicKey(key));
  const id = Buffer.alloc(4);
  id.writeUInt32BE(ed25519KeyId(name, publicKey));
  const signature = cryptoSign(null, Buffer.from(text, 'utf8'), key);
  return `${text}\n— ${name} ${Buffer.concat([id, signature]).toString('base64')}\n`;
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
    const bytes = Buffer.from(b64, 'base64');
    if (bytes.length < 5) return { ok: false, reason: 'a signature line is malformed' };
    const id = bytes.readUInt32BE(0);
    const known = verifiers.find((v) => v.name === name && v.keyId === id);
    if (!known) continue;
    if (!cryptoVerify(null, Buffer.from(text, 'utf8'), keyObjectOf(known.publicKey), bytes.subarray(4))) {
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
  const root = Buffer.from(c.rootHash, 'hex').toString('base64');
  return [c.origin, String(c.treeSize), root, ...c.extensions].map((l) => `${l}\n`).join('');
}

/** Parses a checkpoint's note text. @returns the checkpoint, or null when it is not one */
export function parseCheckpoint(text: string): Checkpoint | null {
  if (!text.endsWith('\n')) return null;
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 3 || lines.some((l) => l === '')) return null;
  const [origin, size, root, ...extensions] = lines as [string, string, string, ...string[]];
  if (!/^(0|[1-9]\d{0,15})$/.test(size) || !Number.isSafeInteger(Number(size))) return null;
  const rootBytes = Buffer.from(root, 'base64');
  if (rootBytes.length !== 32 || rootBytes.toString('base64') !== root) return null;
  return { origin, treeSize: Number(size), rootHash: rootBytes.toString('hex'), extensions };
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
