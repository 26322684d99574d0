/**
 * The ledger's full audit (docs/decisions/005-ledger.md; `npm run backup -- check` and the tests): re-verifies the whole
 * log from the records up, page by page with the right frontier in memory, O(n) time and O(log n) memory.
 */
import type { Kysely } from 'kysely';
import type { LedgerRecord } from '../../contract/ledger.ts';
import type { Database } from '../db/schema.ts';
import { canonicalJson } from './canonical.ts';
import { nodeKey } from './tree.ts';
import { leafHash, nodeHash } from './verify.ts';
import { ownerRef, readNodes, rootHash } from './ledger.ts';

/** Result of {@link auditLedger}. */
export type LedgerAudit =
  { ok: true; treeSize: number; rootHash: string } | { ok: false; leafIndex: number | null; reason: string };

/** Leaves per page of the audit. */
const AUDIT_PAGE = 2000;

/**
 * Re-verifies the whole log from the records up: leaf indexes run 0..n−1 without gaps, each leaf hash recomputes
 * from its record_json, each record is the canonical JSON of a record that matches its evidence row (baoquan,
 * sha256, size, fileType, ownerRef, kind), every stored node equals the hash recomputed from the leaves, and no
 * stray node exists. Reads page by page with the right frontier in memory: O(n) time, O(log n) memory.
 */
export async function auditLedger(db: Kysely<Database>): Promise<LedgerAudit> {
  const frontier: string[] = [];
  let next = 0;
  let expectedNodes = 0;
  for (;;) {
    const rows = await db
      .selectFrom('ledger_leaves')
      .innerJoin('evidences', 'evidences.id', 'ledger_leaves.evidence_id')
      .select([
        'ledger_leaves.leaf_index',
        'ledger_leaves.leaf_hash',
        'ledger_leaves.record_json',
        'evidences.baoquan',
        'evidences.sha256',
        'evidences.file_size',
        'evidences.file_type',
        'evidences.user_id',
        'evidences.kind',
      ])
      .where('ledger_leaves.leaf_index', '>=', next)
      .orderBy('ledger_leaves.leaf_index')
      .limit(AUDIT_PAGE)
      .execute();
    if (rows.length === 0) break;
    const computed = new Map<string, string>();
    for (const r of rows) {
      const index = Number(r.leaf_index);
      const bad = (reason: string): LedgerAudit => ({ ok: false, leafIndex: index, reason });
      if (index !== next) return bad(`expected leaf ${next} (a leaf is missing or has no evidence row)`);
      if (leafHash(r.record_json) !== r.leaf_hash) return bad('leaf_hash does not match record_json');
      let rec: LedgerRecord;
      try {
        rec = JSON.parse(r.record_json) as LedgerRecord;
      } catch {
        return bad('record_json is not JSON');
      }
      if (canonicalJson(rec) !== r.record_json) return bad('record_json is not canonical');
      if (
        rec.baoquan !== r.baoquan ||
        rec.sha256 !== r.sha256 ||
        rec.size !== Number(r.file_size) ||
        rec.fileType !== r.file_type ||
        rec.ownerRef !== ownerRef(Number(r.user_id)) ||
        (rec.kind ?? 'file') !== r.kind
      ) {
        return bad('record does not match the evidence row');
      }
      const chain = [r.leaf_hash];
      for (let i = index, level = 0; i % 2 === 1; i = (i - 1) / 2, level++) {
        const node = nodeHash(frontier[level]!, chain[level]!);
        chain.push(node);
        computed.set(nodeKey({ level: level + 1, index: (i - 1) / 2 }), node);
      }
      chain.forEach((h, level) => (frontier[level] = h));
      next++;
    }
    expectedNodes += computed.size;
    const stored = await readNodes(
      db,
      [...computed.keys()].map((k) => {
        const [level, index] = k.split(':').map(Number);
        return { level: level!, index: index! };
      }),
    );
    for (const [k, h] of computed) {
      if (stored.get(k) !== h)
        return { ok: false, leafIndex: null, reason: `node ${k} (level:index) is wrong` };
    }
  }
  const { n } = await db
    .selectFrom('ledger_nodes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(n) !== expectedNodes) {
    return { ok: false, leafIndex: null, reason: `${Number(n)} stored nodes, ${expectedNodes} expected` };
  }
  return { ok: true, treeSize: next, rootHash: await rootHash(db, next) };
}
