/**
 * Pure verification of the ledger's proofs (RFC 9162 "Certificate Transparency Version 2.0", §2.1): leaf and node
 * hashing, inclusion proofs (§2.1.3.2), consistency proofs (§2.1.4.2) and signed tree heads (Ed25519, contract
 * `sthSigningInput`). No database, no server: the offline verifier (`npm run verify`, the /verify page in the
 * browser) and the platform share these, so they run in Node and in browsers alike (contract/primitives.ts).
 *
 * Every hash is 64 lower-case hex characters (SHA-256). Tree sizes and leaf indexes are non-negative safe integers;
 * leaf indexes are 0-based. The functions never throw on bad input: a malformed hash, index or proof element makes
 * the check fail (false / null).
 */
import { bytesToHex, decodeBase64, hexToBytes, utf8ToBytes } from './bytes.ts';
import { ed25519RawFromPem, sha256, verifyEd25519 } from './primitives.ts';
import type { SignedTreeHead } from './ledger.ts';
import { sthSigningInput } from './ledger-sth.ts';
import { isKeyName, openCheckpoint, parseVerifierKey, verifierKey } from './signed-note.ts';

const HASH_RE = /^[0-9a-f]{64}$/;
const LEAF_PREFIX = Uint8Array.of(0x00);
const NODE_PREFIX = Uint8Array.of(0x01);

/** The root hash of the empty tree: SHA-256 of no bytes (RFC 9162 §2.1.1, MTH({}) = HASH()). */
export const EMPTY_ROOT = bytesToHex(sha256());

/** True for 64 lower-case hex characters. */
export function isHash(value: unknown): value is string {
  return typeof value === 'string' && HASH_RE.test(value);
}

function isSize(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
}

/**
 * The leaf hash of `input` (a string is taken as its UTF-8 bytes): SHA-256(0x00 ‖ input), RFC 9162 §2.1.1.
 * @returns 64 lower-case hex
 */
export function leafHash(input: string | Uint8Array): string {
  return bytesToHex(sha256(LEAF_PREFIX, input));
}

/** SHA-256(0x01 ‖ left ‖ right) over raw 32-byte digests (RFC 9162 §2.1.1). */
function hashChildren(left: Uint8Array, right: Uint8Array): Uint8Array<ArrayBufferLike> {
  return sha256(NODE_PREFIX, left, right);
}

/**
 * The interior node hash SHA-256(0x01 ‖ left ‖ right) of two child hashes given as hex (RFC 9162 §2.1.1).
 * @throws TypeError when a child is not 64 lower-case hex characters
 */
export function nodeHash(left: string, right: string): string {
  if (!isHash(left) || !isHash(right))
    throw new TypeError('node children must be 64 lower-case hex characters');
  return bytesToHex(hashChildren(hexToBytes(left), hexToBytes(right)));
}

/**
 * The root hash that the inclusion proof `proof` of the leaf `leaf` at `index` leads to in a tree of `treeSize`
 * leaves (RFC 9162 §2.1.3.2 steps 1–4), or null when the proof cannot belong to such a tree (index out of range,
 * too short or too long, a malformed element).
 */
export function rootFromInclusionProof(
  leaf: string,
  index: number,
  treeSize: number,
  proof: readonly string[],
): string | null {
  if (!isSize(index) || !isSize(treeSize) || index >= treeSize || !isHash(leaf)) return null;
  if (!Array.isArray(proof) || !proof.every(isHash)) return null;
  let fn = index;
  let sn = treeSize - 1;
  let r: Uint8Array = hexToBytes(leaf);
  for (const p of proof) {
    if (sn === 0) return null; // more elements than the path is long
    const c = hexToBytes(p);
    if (fn % 2 === 1 || fn === sn) {
      r = hashChildren(c, r);
      // the right border of the tree: climb past the levels where this subtree has no right sibling
      while (fn % 2 === 0 && fn !== 0) {
        fn /= 2;
        sn = Math.floor(sn / 2);
      }
    } else {
      r = hashChildren(r, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? bytesToHex(r) : null;
}

/**
 * Verifies an inclusion proof (RFC 9162 §2.1.3.2): `proof` (the audit path, leaf to root) takes the leaf hash
 * `leaf` at 0-based `index` to `root`, the root hash of a tree of `treeSize` leaves.
 */
export function verifyInclusion(
  leaf: string,
  index: number,
  treeSize: number,
  proof: readonly string[],
  root: string,
): boolean {
  return isHash(root) && rootFromInclusionProof(leaf, index, treeSize, proof) === root;
}

function isPowerOfTwo(n: number): boolean {
  return n > 0 && 2 ** Math.floor(Math.log2(n)) === n;
}

/**
 * Verifies a consistency proof (RFC 9162 §2.1.4.2): the tree of `second` leaves with root `secondRoot` extends the
 * tree of `first` leaves with root `firstRoot` (the first `first` leaves are the same). Edge cases as the CT
 * reference verifiers: `first === second` needs an empty proof and equal roots; `first === 0` needs an empty proof
 * (every tree extends the empty one); otherwise an empty proof fails, and so does `first > second`.
 */
export function verifyConsistency(
  first: number,
  second: number,
  firstRoot: string,
  secondRoot: string,
  proof: readonly string[],
): boolean {
  if (!isSize(first) || !isSize(second) || first > second) return false;
  if (!isHash(firstRoot) || !isHash(secondRoot)) return false;
  if (!Array.isArray(proof) || !proof.every(isHash)) return false;
  if (first === second) return proof.length === 0 && firstRoot === secondRoot;
  if (first === 0) return proof.length === 0;
  if (proof.length === 0) return false;
  // step 2: a first tree that is a complete subtree is itself the first node of the path
  const path = isPowerOfTwo(first) ? [firstRoot, ...proof] : [...proof];
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) {
    fn = (fn - 1) / 2;
    sn = Math.floor(sn / 2);
  }
  let fr: Uint8Array = hexToBytes(path[0]!);
  let sr: Uint8Array = fr;
  for (const hex of path.slice(1)) {
    if (sn === 0) return false;
    const c = hexToBytes(hex);
    if (fn % 2 === 1 || fn === sn) {
      fr = hashChildren(c, fr);
      sr = hashChildren(c, sr);
      while (fn % 2 === 0 && fn !== 0) {
        fn /= 2;
        sn = Math.floor(sn / 2);
      }
    } else {
      sr = hashChildren(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && bytesToHex(fr) === firstRoot && bytesToHex(sr) === secondRoot;
}

/**
 * The key id of an Ed25519 public key: hex SHA-256 of its raw 32 bytes (contract `LedgerPublicKey.keyId`).
 * @param key an SPKI PEM, or the raw 32 bytes
 * @throws when the PEM does not parse or the key is not Ed25519
 */
export function publicKeyId(key: string | Uint8Array): string {
  const raw = typeof key === 'string' ? ed25519RawFromPem(key) : key;
  if (raw.length !== 32) throw new Error('Ed25519 public key is not 32 bytes');
  return bytesToHex(sha256(raw));
}

/** Result of {@link checkSth}: ok, or why not. */
export type SthCheck = { ok: true; keyId: string } | { ok: false; reason: string };

/**
 * Checks a signed tree head against an Ed25519 public key (SPKI PEM): the fields are well-formed, `sth.keyId` is the
 * key's id ({@link publicKeyId}) and `sth.signature` (base64, 64 bytes) is the key's Ed25519 signature over the
 * UTF-8 bytes of `sthSigningInput(sth)`; when the head carries a C2SP checkpoint (decision 035), that note must be
 * signed by the same key under its origin's name and name the same size and root (older packages have none).
 */
export function checkSth(sth: SignedTreeHead, publicKeyPem: string): SthCheck {
  if (typeof sth !== 'object' || sth === null) return { ok: false, reason: 'no tree head' };
  if (!isSize(sth.treeSize)) return { ok: false, reason: 'treeSize is not a non-negative integer' };
  if (!isHash(sth.rootHash)) return { ok: false, reason: 'rootHash is not 64 lower-case hex' };
  if (!isSize(sth.timestamp)) return { ok: false, reason: 'timestamp is not a non-negative integer' };
  let key: Uint8Array;
  let keyId: string;
  try {
    key = ed25519RawFromPem(publicKeyPem);
    keyId = publicKeyId(key);
  } catch (err) {
    return { ok: false, reason: `public key unusable: ${(err as Error).message}` };
  }
  if (sth.keyId !== keyId) return { ok: false, reason: 'keyId is not the SHA-256 of this public key' };
  const sigBytes = typeof sth.signature === 'string' ? decodeBase64(sth.signature) : null;
  if (sigBytes?.length !== 64) return { ok: false, reason: 'signature is not 64 bytes of base64' };
  const good = verifyEd25519(sigBytes, utf8ToBytes(sthSigningInput(sth)), key);
  if (!good) return { ok: false, reason: 'Ed25519 signature does not verify' };
  if (sth.checkpoint === undefined) return { ok: true, keyId };
  return checkCheckpoint(sth, key, keyId);
}

/**
 * The checkpoint of an STH (c2sp.org/tlog-checkpoint, decision 035): a note signed by `key` under the name of its own
 * origin line, naming the same size and root as the STH.
 */
function checkCheckpoint(sth: SignedTreeHead, key: Uint8Array, keyId: string): SthCheck {
  const note = typeof sth.checkpoint === 'string' ? sth.checkpoint : '';
  const origin = note.slice(0, Math.max(0, note.indexOf('\n')));
  if (!isKeyName(origin)) return { ok: false, reason: 'checkpoint has no origin line' };
  const verifier = parseVerifierKey(verifierKey(origin, key));
  if (!verifier) return { ok: false, reason: 'checkpoint origin is not a valid key name' };
  const opened = openCheckpoint(note, origin, [verifier]);
  if (!opened.ok) return { ok: false, reason: `checkpoint: ${opened.reason}` };
  if (opened.checkpoint.treeSize !== sth.treeSize || opened.checkpoint.rootHash !== sth.rootHash) {
    return { ok: false, reason: 'checkpoint names another tree than the tree head' };
  }
  return { ok: true, keyId };
}

/** True when {@link checkSth} passes: the STH is signed by `publicKeyPem` and names its key id. */
export function verifySth(sth: SignedTreeHead, publicKeyPem: string): boolean {
  return checkSth(sth, publicKeyPem).ok;
}
