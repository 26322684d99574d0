/**
 * An independent C2SP tlog-tiles client for the tests (decision 035): it verifies our checkpoint and proofs fetched
 * only from tiles. Written from the specification texts alone —
 * c2sp.org/signed-note, c2sp.org/tlog-checkpoint, c2sp.org/tlog-tiles and RFC 6962 §2.1 / RFC 9162 §2.1.3.2 — in the
 * manner of Go's golang.org/x/mod/sumdb/note and sumdb/tlog (hashes of any complete subtree read from tiles, proofs
 * computed from those): it imports nothing from the platform or the contract, so a mistake shared by our server and
 * this client would have to be made twice.
 */
import { createHash, createPublicKey, verify } from 'node:crypto';

/** A verified checkpoint: its origin, tree size and root hash (32 bytes). */
export interface VerifiedCheckpoint {
  origin: string;
  size: number;
  root: Buffer;
}

const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
/** RFC 6962 §2.1: the hash of an interior node. */
const nodeHash = (left: Buffer, right: Buffer) => sha256(Buffer.from([1]), left, right);
/** RFC 6962 §2.1: the hash of a leaf's entry. */
export const entryLeafHash = (entry: Buffer) => sha256(Buffer.from([0]), entry);

/** DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410), before the 32 raw key bytes. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * Verifies a checkpoint note with a note verifier key `<name>+<hex key ID>+<base64(0x01 ‖ Ed25519 key)>`: the key ID
 * must be SHA-256(name ‖ 0x0A ‖ 0x01 ‖ key)[:4], a signature line `— <name> <base64(key ID ‖ signature)>` by that key
 * must verify over the note text (every line up to the blank line, newline included), and the text must be a
 * checkpoint whose origin is the key's name.
 * @throws Error naming what failed
 */
export function verifyCheckpointNote(note: string, verifierKey: string): VerifiedCheckpoint {
  // <name>+<hash>+<keydata>: the name holds no '+', the base64 key data may
  const m = /^([^+\s]+)\+([0-9a-fA-F]{8})\+([A-Za-z0-9+/=]+)$/.exec(verifierKey.trim());
  if (!m) throw new Error('malformed verifier key');
  const [, name, idHex, keyB64] = m as unknown as [string, string, string, string];
  const keyBytes = Buffer.from(keyB64, 'base64');
  if (keyBytes.length !== 33 || keyBytes[0] !== 0x01) throw new Error('not an Ed25519 verifier key');
  const keyId = sha256(Buffer.from(name, 'utf8'), Buffer.from([0x0a]), keyBytes).subarray(0, 4);
  if (keyId.toString('hex') !== idHex.toLowerCase())
    throw new Error('verifier key ID does not match its key');
  const split = note.indexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) throw new Error('malformed note');
  const text = note.slice(0, split + 1);
  const publicKey = createPublicKey({
    key: Buffer.concat([ED25519_SPKI_PREFIX, keyBytes.subarray(1)]),
    format: 'der',
    type: 'spki',
  });
  let signed = false;
  for (const line of note.slice(split + 2, -1).split('\n')) {
    const m = /^\u2014 (\S+) (\S+)$/.exec(line);
    if (!m) throw new Error('malformed signature line');
    if (m[1] !== name) continue;
    const sig = Buffer.from(m[2]!, 'base64');
    if (sig.length !== 68 || !sig.subarray(0, 4).equals(keyId)) continue;
    if (!verify(null, Buffer.from(text, 'utf8'), publicKey, sig.subarray(4)))
      throw new Error('checkpoint signature does not verify');
    signed = true;
  }
  if (!signed) throw new Error('no signature by the verifier key');
  const [origin, size, root] = text.slice(0, -1).split('\n');
  if (origin !== name) throw new Error('checkpoint origin is not the key name');
  if (!/^(0|[1-9]\d*)$/.test(size ?? '')) throw new Error('malformed tree size');
  const rootBytes = Buffer.from(root ?? '', 'base64');
  if (rootBytes.length !== 32) throw new Error('malformed root hash');
  return { origin, size: Number(size), root: rootBytes };
}

/** Largest power of two strictly below `n` (n ≥ 2). */
function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** `<N>` of a tile path: 3-digit groups, all but the last prefixed with `x` (c2sp.org/tlog-tiles). */
function encodeIndex(n: number): string {
  let s = String(n % 1000).padStart(3, '0');
  for (let rest = Math.floor(n / 1000); rest > 0; rest = Math.floor(rest / 1000)) {
    s = `x${String(rest % 1000).padStart(3, '0')}/${s}`;
  }
  return s;
}

/**
 * Reads hashes of a tree of `size` leaves from its tiles, fetched with `fetchTile(path under tile/)` (null: 404).
 * Computes every proof from tiles alone.
 */
export class TileReader {
  private readonly tiles = new Map<string, Promise<Buffer>>();
  /** Tile paths fetched so far (each once). */
  readonly fetched: string[] = [];
  readonly size: number;
  private readonly fetchTile: (path: string) => Promise<Buffer | null>;

  constructor(size: number, fetchTile: (path: string) => Promise<Buffer | null>) {
    this.size = size;
    this.fetchTile = fetchTile;
  }

  /** The path of the tile at tile level `level` holding stored hash `index`, and the hash's position in it. */
  tileOf(level: number, index: number): { path: string; position: number; width: number } {
    const n = Math.floor(index / 256);
    const stored = Math.floor(this.size / 256 ** level); // hashes at this tile level in the tree
    const width = Math.min(256, stored - n * 256);
    if (width <= 0) throw new Error(`hash ${index} at tile level ${level} is not in a tree of ${this.size}`);
    const path = `${level}/${encodeIndex(n)}${width < 256 ? `.p/${width}` : ''}`;
    return { path, position: index % 256, width };
  }

  private async tile(path: string, width: number): Promise<Buffer> {
    let t = this.tiles.get(path);
    if (!t) {
      this.fetched.push(path);
      t = this.fetchTile(path).then((bytes) => {
        if (!bytes) throw new Error(`tile ${path} is missing`);
        if (bytes.length !== width * 32) throw new Error(`tile ${path} has ${bytes.length} bytes`);
        return bytes;
      });
      this.tiles.set(path, t);
    }
    return t;
  }

  /** The hash of the complete subtree at Merkle level `height` (2^height leaves), index `k`. */
  async subtree(height: number, k: number): Promise<Buffer> {
    const level = Math.floor(height / 8);
    const below = height - 8 * level; // levels to hash up inside the tile
    const first = k * 2 ** below;
    const hashes: Buffer[] = [];
    for (let i = first; i < first + 2 ** below; i++) {
      const { path, position, width } = this.tileOf(level, i);
      const bytes = await this.tile(path, width);
      hashes.push(bytes.subarray(position * 32, position * 32 + 32));
    }
    let row = hashes;
    while (row.length > 1) row = row.flatMap((h, i) => (i % 2 === 0 ? [nodeHash(h, row[i + 1]!)] : []));
    return row[0]!;
  }

  /** RFC 6962 §2.1 MTH(D[a:b]) from complete subtrees. */
  async mth(a: number, b: number): Promise<Buffer> {
    const n = b - a;
    if (n <= 0) return sha256();
    const height = Math.log2(n);
    if (Number.isInteger(height) && a % n === 0) return this.subtree(height, a / n);
    const k = split(n);
    return nodeHash(await this.mth(a, a + k), await this.mth(a + k, b));
  }

  /** RFC 6962 §2.1.1 PATH(m, D[a:b]): the inclusion proof of leaf m, leaf-side first. */
  async inclusionProof(m: number, a = 0, b = this.size): Promise<Buffer[]> {
    const n = b - a;
    if (n <= 1) return [];
    const k = split(n);
    if (m - a < k) return [...(await this.inclusionProof(m, a, a + k)), await this.mth(a + k, b)];
    return [...(await this.inclusionProof(m, a + k, b)), await this.mth(a, a + k)];
  }

  /** RFC 6962 §2.1.2 PROOF(m, D[0:size]): the consistency proof from the tree of m leaves. */
  async consistencyProof(m: number): Promise<Buffer[]> {
    const sub = async (m: number, a: number, b: number, whole: boolean): Promise<Buffer[]> => {
      const n = b - a;
      if (m === n) return whole ? [] : [await this.mth(a, b)];
      const k = split(n);
      if (m <= k) return [...(await sub(m, a, a + k, whole)), await this.mth(a + k, b)];
      return [...(await sub(m - k, a + k, b, false)), await this.mth(a, a + k)];
    };
    return m === 0 || m === this.size ? [] : sub(m, 0, this.size, true);
  }
}

/** RFC 9162 §2.1.3.2: whether `proof` proves leaf `index` (hash `leaf`) in the tree of `size` leaves with `root`. */
export function verifyInclusionProof(
  leaf: Buffer,
  index: number,
  size: number,
  proof: Buffer[],
  root: Buffer,
): boolean {
  if (index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0) {
        do {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        } while (fn % 2 === 0 && fn !== 0);
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && r.equals(root);
}
