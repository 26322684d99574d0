/**
 * The ledger's public answers (contract `LedgerPaths`; docs/decisions/005-ledger.md): the explorer entry of a leaf
 * hash, the proof bundle of an evidence (`proof.json` of its package) and consistency proofs, each against the
 * signed tree head answered alongside so a client can verify it at once. The log itself is ledger.ts.
 */
import type { Kysely } from 'kysely';
import { ApiCode } from '../../contract/envelope.ts';
import { EvidenceMsg } from '../../contract/evidence.ts';
import {
  type ConsistencyProofData,
  type LedgerEntryView,
  LedgerMsg,
  type LedgerRecord,
  type ProofBundle,
  type LedgerWitnessesData,
  type LedgerWitnessView,
  type WitnessedCheckpoint,
  type StampedCheckpoint,
} from '../../contract/ledger.ts';
import { safeEqual } from '../core/crypto.ts';
import { ApiError } from '../core/errors.ts';
import type { Database } from '../db/schema.ts';
import type { EvidenceRow } from '../evidence/schema.ts';
import { consistencyProof, findLeafByHash, inclusionProof, treeSize } from './ledger.ts';
import type { TreeHeads } from './signer.ts';
import type { LedgerWitnessing } from './witnessing.ts';
import { splitNote } from '../../contract/signed-note.ts';

/**
 * The file name of the original inside the evidence package (`evidence/<name>`): the stored name for file and app
 * evidence, `data.csv` for user data, null when no bytes are held (hash evidence, or data the owner deleted).
 */
export function packageFileName(ev: Pick<EvidenceRow, 'kind' | 'file_name' | 'deleted_at'>): string | null {
  if (ev.kind === 'hash' || ev.deleted_at !== null) return null;
  if (ev.kind === 'property') return 'data.csv';
  return ev.file_name;
}

/**
 * The explorer entry of leaf hash `hash` (any case, trimmed) with its inclusion proof against the current STH. The
 * record is in it only when `opts.baoquan` is the record's preservation number or `opts.publicEntries` (the
 * LEDGER_PUBLIC_ENTRIES setting); otherwise `record` and `recordCanonical` are null: every leaf hash is public in
 * the hash tiles, and the record would hand anyone the number that opens the certificate (decision 035).
 * @throws ApiError 404 `LedgerMsg.entryNotFound` for an unknown or malformed hash
 */
export async function ledgerEntry(
  db: Kysely<Database>,
  heads: TreeHeads,
  hash: string,
  opts: { baoquan?: string | undefined; publicEntries: boolean },
): Promise<LedgerEntryView> {
  const h = hash.trim().toLowerCase();
  const leaf = /^[0-9a-f]{64}$/.test(h) ? await findLeafByHash(db, h) : undefined;
  if (!leaf) throw new ApiError(ApiCode.NOT_FOUND, LedgerMsg.entryNotFound);
  const sth = await heads.current();
  const leafIndex = Number(leaf.leaf_index);
  const record = JSON.parse(leaf.record_json) as LedgerRecord;
  // compared in constant time: a preservation number opens its certificate
  const given = opts.baoquan?.trim();
  const shown = opts.publicEntries || (!!given && safeEqual(given, record.baoquan));
  return {
    leafIndex,
    leafHash: leaf.leaf_hash,
    record: shown ? record : null,
    recordCanonical: shown ? leaf.record_json : null,
    inclusionProof: await inclusionProof(db, leafIndex, sth.treeSize),
    sth,
  };
}

/**
 * The proof bundle of evidence `baoquan` against the current STH.
 * @throws ApiError 404 `EvidenceMsg.evidenceNotFound` when no such evidence (with a leaf) exists
 */
export async function buildProofBundle(
  db: Kysely<Database>,
  heads: TreeHeads,
  baoquan: string,
): Promise<ProofBundle> {
  const row = await db
    .selectFrom('evidences')
    .innerJoin('ledger_leaves', 'ledger_leaves.evidence_id', 'evidences.id')
    .select([
      'evidences.baoquan',
      'evidences.file_name',
      'evidences.kind',
      'evidences.deleted_at',
      'ledger_leaves.leaf_index',
      'ledger_leaves.leaf_hash',
      'ledger_leaves.record_json',
    ])
    .where('evidences.baoquan', '=', baoquan)
    .executeTakeFirst();
  if (!row) throw new ApiError(ApiCode.NOT_FOUND, EvidenceMsg.evidenceNotFound);
  const sth = await heads.current();
  const leafIndex = Number(row.leaf_index);
  return {
    version: 1,
    baoquan: row.baoquan,
    fileName: packageFileName(row),
    leafIndex,
    leafHash: row.leaf_hash,
    record: JSON.parse(row.record_json) as LedgerRecord,
    recordCanonical: row.record_json,
    inclusionProof: await inclusionProof(db, leafIndex, sth.treeSize),
    sth,
    publicKey: heads.signer.publicKey,
    ...(await witnessedCheckpoint(db, leafIndex)),
    ...(await stampedCheckpoint(db, leafIndex)),
  };
}

/**
 * The newest checkpoint any witness cosigned that holds leaf `leafIndex`, with the cosignature lines of every witness
 * that cosigned that same tree merged into one note, and the leaf's inclusion proof in it.
 * @returns `{witnessed}`, or `{}` when no cosigned checkpoint holds the leaf yet
 */
export async function witnessedCheckpoint(
  db: Kysely<Database>,
  leafIndex: number,
): Promise<{ witnessed?: WitnessedCheckpoint }> {
  const rows = await db
    .selectFrom('ledger_witnesses')
    .select(['size', 'root_hash', 'cosigned_note'])
    .where('size', '>', leafIndex)
    .where('cosigned_note', '!=', '')
    .orderBy('size', 'desc')
    .execute();
  const newest = rows[0];
  if (!newest) return {};
  const same = rows.filter((r) => Number(r.size) === Number(newest.size) && r.root_hash === newest.root_hash);
  // the same tree, so the same checkpoint text (and our deterministic Ed25519 line): merge the signature lines
  const lines = new Set(same.flatMap((r) => splitNote(r.cosigned_note)?.lines ?? []));
  const treeSize = Number(newest.size);
  return {
    witnessed: {
      note: `${splitNote(newest.cosigned_note)?.text ?? ''}\n${[...lines].map((l) => `${l}\n`).join('')}`,
      treeSize,
      inclusionProof: await inclusionProof(db, leafIndex, treeSize),
    },
  };
}

/**
 * The newest checkpoint a TSA stamped that holds leaf `leafIndex`, and the leaf's proof in it.
 * @returns `{timestamp}`, or `{}` when none does yet
 */
export async function stampedCheckpoint(
  db: Kysely<Database>,
  leafIndex: number,
): Promise<{ timestamp?: StampedCheckpoint }> {
  const row = await db
    .selectFrom('ledger_timestamps')
    .select(['tree_size', 'note', 'token'])
    .where('tree_size', '>', leafIndex)
    .orderBy('tree_size', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return {};
  const treeSize = Number(row.tree_size);
  return {
    timestamp: {
      note: row.note,
      token: row.token,
      treeSize,
      inclusionProof: await inclusionProof(db, leafIndex, treeSize),
    },
  };
}

/** The console's view: every witness asked or configured (`witnessing`), and the newest 50 events. */
export async function witnessesView(
  db: Kysely<Database>,
  witnessing: LedgerWitnessing,
): Promise<LedgerWitnessesData> {
  const rows = await db.selectFrom('ledger_witnesses').selectAll().orderBy('name').execute();
  const events = await db
    .selectFrom('ledger_witness_events')
    .selectAll()
    .orderBy('id', 'desc')
    .limit(50)
    .execute();
  const seconds = (v: number | null) => (v === null ? null : Number(v));
  const witnesses: LedgerWitnessView[] = rows.map((r) => ({
    name: r.name,
    url: r.url,
    size: Number(r.size),
    cosignedAt: seconds(r.cosigned_at),
    status: r.status as LedgerWitnessView['status'],
    detail: r.detail,
    attemptedAt: seconds(r.attempted_at),
  }));
  for (const w of witnessing.witnesses) {
    if (!rows.some((r) => r.name === w.key.name)) {
      witnesses.push({
        name: w.key.name,
        url: w.url,
        size: 0,
        cosignedAt: null,
        status: 'new',
        detail: '',
        attemptedAt: null,
      });
    }
  }
  return {
    treeSize: await treeSize(db),
    witnesses,
    events: events.map((e) => ({
      id: Number(e.id),
      witness: e.witness,
      at: Number(e.at),
      status: e.status as LedgerWitnessView['status'],
      treeSize: Number(e.tree_size),
      detail: e.detail,
    })),
  };
}

/**
 * The consistency proof between tree sizes `first` and `second` (RFC 9162 §2.1.4).
 * @throws ApiError 400 `LedgerMsg.badTreeSize` unless 0 ≤ first ≤ second ≤ the current size
 */
export async function consistency(
  db: Kysely<Database>,
  first: number,
  second: number,
): Promise<ConsistencyProofData> {
  if (first > second || second > (await treeSize(db))) {
    throw new ApiError(ApiCode.BAD_REQUEST, LedgerMsg.badTreeSize);
  }
  return { first, second, proof: await consistencyProof(db, first, second) };
}
