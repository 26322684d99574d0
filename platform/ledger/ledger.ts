/**
 * The evidence ledger (spec 01 §2.3 chain transaction hash; ARCHITECTURE "Evidence, ledger, certificates";
 * docs/decisions/005-ledger.md): an append-only Merkle log in the style of RFC 9162 §2.1 stored in two tables
 * (migration 0002):
 *   ledger_leaves(leaf_index, leaf_hash, evidence_id, record_json, created_at, legacy_entry_hash) — one leaf per
 *     evidence, where
 *     leaf_hash = SHA-256(0x00 ‖ UTF-8 canonical JSON of the LedgerRecord); the spec's "chain transaction hash"
 *     (chainhash) of an evidence is its leaf hash;
 *   ledger_nodes(level, idx, hash) — the hash of every complete subtree, written by the append that completes it.
 * An append reads at most log2(n) stored nodes and writes the leaf plus (amortized) one node; a root, an inclusion
 * proof or a consistency proof reads O(log n) stored nodes in one or two queries. Appends are serialized (SQLite:
 * BEGIN IMMEDIATE; PostgreSQL: a transaction-scoped advisory lock) inside the caller's transaction, saves arriving
 * together share one transaction (group commit, {@link withLedgerTransaction}), and leaf_index / (level, idx) are
 * primary keys, so the tree cannot fork.
 */
import type { Kysely } from 'kysely';
import type { LedgerRecord } from '../../contract/ledger.ts';
import { sha256Hex } from '../core/crypto.ts';
import type { Database } from '../db/schema.ts';
import type { LedgerLeafRow } from './schema.ts';
import { canonicalJson } from './canonical.ts';
import {
  appendPlan,
  consistencyRanges,
  inclusionRanges,
  nodeKey,
  rangeNodes,
  type LeafRange,
  type NodeId,
} from './tree.ts';
import { committedEdges, ledgerTransactions, type RightEdge } from './transaction.ts';
import { EMPTY_ROOT, leafHash, nodeHash } from './verify.ts';
import { preparedQuery } from '../db/prepared.ts';

export { canonicalJson } from './canonical.ts';
export type { LedgerRecord } from '../../contract/ledger.ts';
export { MAX_LEDGER_GROUP, withLedgerTransaction } from './transaction.ts';

/** The owner reference written into the ledger: SHA-256 hex of "cunzheng:user:<id>" (no personal data). */
export function ownerRef(userId: number): string {
  return sha256Hex(`cunzheng:user:${userId}`);
}

/** The node ids of the right edge of a tree of `size` leaves, one per set bit (see {@link RightEdge}). */
function rightEdgeIds(size: number): NodeId[] {
  const ids: NodeId[] = [];
  for (let level = 0; 2 ** level <= size; level++) {
    const width = Math.floor(size / 2 ** level);
    if (width % 2 === 1) ids.push({ level, index: width - 1 });
  }
  return ids;
}

/** The right edge of the stored tree of `size` leaves, read in one {@link readNodes} call. */
async function readRightEdge(db: Kysely<Database>, size: number): Promise<RightEdge> {
  const ids = rightEdgeIds(size);
  const known = await readNodes(db, ids);
  return { size, nodes: new Map(ids.map((id) => [id.level, need(known, id)])) };
}

/** What {@link appendLeaf} wrote. */
export interface AppendedLeaf {
  /** 0-based position of the leaf. */
  leafIndex: number;
  /** SHA-256(0x00 ‖ canonical JSON), hex: the evidence's chainhash. */
  leafHash: string;
  /** The tree size after this append (leafIndex + 1). */
  treeSize: number;
}

/** The number of leaves (committed ones, or the transaction's own view inside it). */
export async function treeSize(db: Kysely<Database>): Promise<number> {
  const [last] = await lastLeafIndex(db, {});
  return Number(last?.n ?? -1) + 1;
}

/**
 * The last leaf's index (null for an empty log), prepared once (platform/db/prepared.ts): every signed tree head
 * served reads it. `max()`, which both databases answer from the primary key's end, not `order by … limit ?`: SQLite
 * (STAT4) re-plans a statement whose top-level LIMIT is a bound parameter each time it is bound (13 against 4 µs).
 */
const lastLeafIndex = preparedQuery<Record<string, never>, { n: number | null }>((db) =>
  db.selectFrom('ledger_leaves').select((eb) => eb.fn.max('leaf_index').as('n')),
);

/**
 * Appends the leaf of `record` for `evidenceId` at the end of the log and stores the subtree nodes it completes.
 * Must run inside {@link withLedgerTransaction} (the transaction that also writes the evidence row), so the leaf
 * and the evidence commit together or not at all. There the leaf and node rows are written when the transaction's
 * saves are done, before it commits (one multi-row INSERT for a group of saves): a read of `ledger_leaves` inside
 * the same transaction does not see them yet.
 * @param now unix seconds (created_at)
 * @throws on a database error, e.g. a unique violation when called outside the serialized transaction
 */
export async function appendLeaf(
  trx: Kysely<Database>,
  evidenceId: number,
  record: LedgerRecord,
  now: number,
): Promise<AppendedLeaf> {
  const tx = ledgerTransactions.get(trx);
  // Within the transaction, after its own append, the size is known: the ledger lock keeps other writers out.
  const index = tx?.edge ? tx.edge.size : await treeSize(trx);
  const recordJson = canonicalJson(record);
  const hash = leafHash(recordJson);
  const { siblings, created } = appendPlan(index);
  // The siblings are the right edge's lowest nodes: from this transaction's or this process's last committed edge
  // when it is of this size, else from the stored nodes (outside a ledger transaction, only the siblings).
  let edge = tx ? (tx.edge ?? committedEdges.get(tx.pdb) ?? null) : null;
  if (tx && edge?.size !== index) edge = await readRightEdge(trx, index);
  const known = edge
    ? new Map(siblings.map((id) => [nodeKey(id), edge.nodes.get(id.level)!]))
    : await readNodes(trx, siblings);
  const leaf = {
    leaf_index: index,
    leaf_hash: hash,
    evidence_id: evidenceId,
    record_json: recordJson,
    created_at: now,
  };
  // The nodes this leaf completes, bottom-up: node i = H(sibling i, node i − 1), node −1 being the leaf.
  let top = hash;
  const rows = created.map((node, i) => {
    top = nodeHash(need(known, siblings[i]!), top);
    return { level: node.level, idx: node.index, hash: top };
  });
  if (tx) {
    // written with the rest of the transaction's appends before it commits (flushAppends)
    tx.leaves.push(leaf);
    tx.nodes.push(...rows);
  } else {
    await trx.insertInto('ledger_leaves').values(leaf).execute();
    if (rows.length > 0) await trx.insertInto('ledger_nodes').values(rows).execute();
  }
  if (tx && edge) {
    // The new edge: the siblings' levels give way to the highest node they complete (the leaf when there are none).
    const nodes = new Map(edge.nodes);
    for (const id of siblings) nodes.delete(id.level);
    nodes.set(siblings.length, top);
    tx.edge = { size: index + 1, nodes };
  }
  return { leafIndex: index, leafHash: hash, treeSize: index + 1 };
}

function need(known: Map<string, string>, id: NodeId): string {
  const h = known.get(nodeKey(id));
  if (h === undefined) throw new Error(`ledger node ${nodeKey(id)} is missing (level:index)`);
  return h;
}

/**
 * Reads the stored hashes of `ids` (level 0 from ledger_leaves, higher levels from ledger_nodes) in at most two
 * queries. @returns hex hashes keyed by {@link nodeKey}; absent ids are absent from the map
 */
export async function readNodes(db: Kysely<Database>, ids: readonly NodeId[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (ids.length === 0) return out;
  const byLevel = new Map<number, number[]>();
  for (const id of ids) {
    const list = byLevel.get(id.level) ?? [];
    list.push(id.index);
    byLevel.set(id.level, list);
  }
  const leaves = byLevel.get(0);
  byLevel.delete(0);
  const [leafRows, nodeRows] = await Promise.all([
    leaves
      ? db
          .selectFrom('ledger_leaves')
          .select(['leaf_index', 'leaf_hash'])
          .where('leaf_index', 'in', leaves)
          .execute()
      : [],
    byLevel.size > 0
      ? db
          .selectFrom('ledger_nodes')
          .select(['level', 'idx', 'hash'])
          .where((eb) =>
            eb.or(
              [...byLevel].map(([level, idx]) => eb.and([eb('level', '=', level), eb('idx', 'in', idx)])),
            ),
          )
          .execute()
      : [],
  ]);
  for (const r of leafRows) out.set(nodeKey({ level: 0, index: Number(r.leaf_index) }), r.leaf_hash);
  for (const r of nodeRows) out.set(nodeKey({ level: Number(r.level), index: Number(r.idx) }), r.hash);
  return out;
}

/** MTH of each range from stored nodes, reading every node needed in one {@link readNodes} call. */
async function rangeHashes(db: Kysely<Database>, ranges: readonly LeafRange[]): Promise<string[]> {
  const plans = ranges.map(([s, e]) => rangeNodes(s, e));
  const known = await readNodes(db, plans.flat());
  return plans.map((nodes) => {
    let acc = need(known, nodes[nodes.length - 1]!);
    for (let i = nodes.length - 2; i >= 0; i--) acc = nodeHash(need(known, nodes[i]!), acc);
    return acc;
  });
}

/**
 * The root hash of the tree of the first `size` leaves (RFC 9162 §2.1.1 MTH; SHA-256 of nothing when size is 0).
 * Stored nodes never change, so any size up to the current one can be asked for, at any time.
 * @throws when size exceeds the stored leaves
 */
export async function rootHash(db: Kysely<Database>, size: number): Promise<string> {
  if (size === 0) return EMPTY_ROOT;
  const [root] = await rangeHashes(db, [[0, size]]);
  return root!;
}

/**
 * The inclusion proof (audit path, leaf to root) of leaf `index` in the tree of `size` leaves: RFC 9162 §2.1.3.1.
 * @throws RangeError unless 0 ≤ index < size; Error when size exceeds the stored leaves
 */
export async function inclusionProof(db: Kysely<Database>, index: number, size: number): Promise<string[]> {
  return rangeHashes(db, inclusionRanges(index, size));
}

/**
 * The consistency proof between the trees of `first` and `second` leaves: RFC 9162 §2.1.4.1 (empty when equal or
 * first is 0). @throws RangeError unless 0 ≤ first ≤ second; Error when second exceeds the stored leaves
 */
export async function consistencyProof(
  db: Kysely<Database>,
  first: number,
  second: number,
): Promise<string[]> {
  return rangeHashes(db, consistencyRanges(first, second));
}

/**
 * The leaf whose hash is `hash` (64 lower-case hex), or whose hash-chain entry hash it was (evidence saved
 * before the Merkle log: its old certificates print that hash), or undefined.
 */
export function findLeafByHash(db: Kysely<Database>, hash: string): Promise<LedgerLeafRow | undefined> {
  return db
    .selectFrom('ledger_leaves')
    .selectAll()
    .where((eb) => eb.or([eb('leaf_hash', '=', hash), eb('legacy_entry_hash', '=', hash)]))
    .orderBy('leaf_index')
    .limit(1)
    .executeTakeFirst();
}
