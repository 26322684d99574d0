/**
 * The ledger as C2SP tlog-tiles (c2sp.org/tlog-tiles; docs/decisions/035-checkpoints.md): static,
 * cacheable resources from which any tiles client computes inclusion and consistency proofs without our API.
 *
 * - `tile/<L>/<N>[.p/<W>]`: the N-th tile at tile level L, the concatenation of 256 (or, partial, W ∈ 1..255) 32-byte
 *   Merkle Tree Hashes at Merkle level 8·L: hash i is MTH(D[(N·256 + i)·256^L : (N·256 + i + 1)·256^L]), i.e. the
 *   leaf hash (L = 0) or the stored node (level 8·L, index N·256 + i) of ledger_nodes, which holds every complete
 *   subtree (ledger.ts). A tile exists once all its hashes do; it never changes after, so it is immutable.
 * - `tile/entries/<N>[.p/<W>]`: the entry bundle of level-0 tile N: each entry is the record's canonical JSON (whose
 *   RFC 6962 leaf hash SHA-256(0x00 ‖ entry) is the leaf) prefixed with its length as a big-endian uint16.
 * `<N>` is written in zero-padded 3-digit groups, all but the last prefixed with `x` (1234067 → `x001/x234/067`);
 * `<L>` and `<W>` are decimal without leading zeroes. Anything else is not a tile path.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** Hashes in a full tile (c2sp.org/tlog-tiles: tiles are subtrees of height 8). */
export const TILE_WIDTH = 256;
/** Merkle levels one tile level spans. */
export const TILE_HEIGHT = 8;
/** Bytes of one hash in a tile. */
const HASH_BYTES = 32;

/** A parsed tile path: hashes at tile level `level`, or the entry bundle; `width` 256 for a full tile. */
export type TileRequest =
  | { kind: 'hashes'; level: number; index: number; width: number }
  | { kind: 'entries'; index: number; width: number };

/** `<N>` of a tile path for tile index `n` (see the module comment). */
export function tileIndexPath(n: number): string {
  const groups: string[] = [];
  let rest = n;
  do {
    groups.unshift(String(rest % 1000).padStart(3, '0'));
    rest = Math.floor(rest / 1000);
  } while (rest > 0);
  return groups.map((g, i) => (i < groups.length - 1 ? `x${g}` : g)).join('/');
}

/** The path of a tile under `tile/` for {@link TileRequest} `t` (the inverse of {@link parseTilePath}). */
export function tilePath(t: TileRequest): string {
  const head = t.kind === 'entries' ? 'entries' : String(t.level);
  const partial = t.width < TILE_WIDTH ? `.p/${t.width}` : '';
  return `${head}/${tileIndexPath(t.index)}${partial}`;
}

/**
 * Parses a path under `tile/` (`0/x001/234`, `2/000.p/17`, `entries/005`). @returns null for anything that is not a
 * canonical tile path (leading zeroes, a level over 63, a width outside 1..255, an index past 2^53).
 */
export function parseTilePath(path: string): TileRequest | null {
  const segments = path.split('/');
  const head = segments.shift();
  if (head === undefined) return null;
  let width = TILE_WIDTH;
  const last = segments.length - 1;
  if (last >= 1 && segments[last - 1]!.endsWith('.p')) {
    const w = segments.pop()!;
    if (!/^[1-9]\d{0,2}$/.test(w) || Number(w) >= TILE_WIDTH) return null;
    width = Number(w);
    segments[segments.length - 1] = segments.at(-1)!.slice(0, -2);
  }
  if (segments.length === 0) return null;
  let index = 0;
  for (const [i, g] of segments.entries()) {
    const re = i < segments.length - 1 ? /^x\d{3}$/ : /^\d{3}$/;
    if (!re.test(g)) return null;
    index = index * 1000 + Number(g.replace('x', ''));
  }
  if (!Number.isSafeInteger(index)) return null;
  let t: TileRequest;
  if (head === 'entries') t = { kind: 'entries', index, width };
  else if (/^(0|[1-9]\d?)$/.test(head) && Number(head) <= 63)
    t = { kind: 'hashes', level: Number(head), index, width };
  else return null;
  // one spelling per tile: `x000/005` and the like are not it
  return tilePath(t) === path ? t : null;
}

/**
 * The bytes of tile `t` from the stored tree: `width` × 32 bytes of hashes, or the entry bundle.
 * @returns null while the tile does not exist yet (fewer than `width` of its hashes are committed)
 */
export async function readTile(db: Kysely<Database>, t: TileRequest): Promise<Buffer | null> {
  const level = t.kind === 'hashes' ? t.level : 0;
  // below 2^53 only: a tile further right cannot exist in a log of this size
  const first = t.index * TILE_WIDTH;
  const end = first + t.width;
  if (!Number.isSafeInteger(end)) return null;
  if (t.kind === 'entries') {
    const rows = await db
      .selectFrom('ledger_leaves')
      .select('record_json')
      .where('leaf_index', '>=', first)
      .where('leaf_index', '<', end)
      .orderBy('leaf_index')
      .execute();
    if (rows.length < t.width) return null;
    const parts = rows.flatMap((r) => {
      const entry = Buffer.from(r.record_json, 'utf8');
      const length = Buffer.alloc(2);
      length.writeUInt16BE(entry.length);
      return [length, entry];
    });
    return Buffer.concat(parts);
  }
  const hashes =
    level === 0
      ? (
          await db
            .selectFrom('ledger_leaves')
            .select('leaf_hash as hash')
            .where('leaf_index', '>=', first)
            .where('leaf_index', '<', end)
            .orderBy('leaf_index')
            .execute()
        ).map((r) => r.hash)
      : (
          await db
            .selectFrom('ledger_nodes')
            .select('hash')
            .where('level', '=', level * TILE_HEIGHT)
            .where('idx', '>=', first)
            .where('idx', '<', end)
            .orderBy('idx')
            .execute()
        ).map((r) => r.hash);
  if (hashes.length < t.width) return null;
  const out = Buffer.alloc(t.width * HASH_BYTES);
  hashes.forEach((h, i) => out.write(h, i * HASH_BYTES, 'hex'));
  return out;
}
