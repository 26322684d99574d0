/**
 * The ledger's public calls (issue 3 item 2; contract `LedgerPaths`), all `GET`, all in the `{code, msg, data}`
 * envelope, no login:
 * - `/api/ledger/sth` → SignedTreeHead of the current tree;
 * - `/api/ledger/publicKey` → LedgerPublicKey (Ed25519 SPKI PEM and its keyId);
 * - `/api/ledger/entry?hash=<leaf hash>` → LedgerEntryView (the explorer page /chain/tx/{hash}); unknown or malformed
 *   hash → code 404 {@link LedgerMsg.entryNotFound};
 * - `/api/ledger/proof?baoquan=` → ProofBundle (`proof.json` of the evidence package); unknown → code 404
 *   `Msg.evidenceNotFound`;
 * - `/api/ledger/consistency?first=&second=` → ConsistencyProofData (RFC 9162 §2.1.4); sizes outside
 *   0 ≤ first ≤ second ≤ current size → code 400 {@link LedgerMsg.badTreeSize}.
 * Proofs are always against the STH answered alongside (its treeSize), so a client can verify them at once.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import {
  ApiCode,
  LedgerPaths,
  Msg,
  ok,
  type ConsistencyProofData,
  type LedgerEntryView,
  type LedgerRecord,
  type ProofBundle,
} from '../../contract/index.ts';
import { ApiError, parseInput } from '../core/errors.ts';
import type { Database, EvidenceRow } from '../db/schema.ts';
import { consistencyProof, findLeafByHash, inclusionProof, treeSize } from './ledger.ts';
import { LedgerSigner, TreeHeads } from './signer.ts';

/** Messages of the ledger calls (ours: the spec has no ledger). */
export const LedgerMsg = {
  entryNotFound: '账本记录不存在',
  badTreeSize: '树大小无效',
} as const;

const EntryQuery = z.object({ hash: z.string().max(128).default('') });
const ProofQuery = z.object({ baoquan: z.string().min(1, Msg.badRequest).max(64, Msg.badRequest) });
const size = z.coerce
  .number({ message: LedgerMsg.badTreeSize })
  .int(LedgerMsg.badTreeSize)
  .min(0, LedgerMsg.badTreeSize);
const ConsistencyQuery = z.object({ first: size, second: size });

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
 * The proof bundle of evidence `baoquan` against the current STH, or undefined when no such evidence (with a leaf)
 * exists.
 */
export async function buildProofBundle(
  db: Kysely<Database>,
  heads: TreeHeads,
  baoquan: string,
): Promise<ProofBundle | undefined> {
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
  if (!row) return undefined;
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
  };
}

/**
 * Registers the ledger calls (needs the services plugin). Loads or creates the ledger key under
 * `${config.dataDir}/keys/` first. @throws when the key cannot be read or written
 */
export async function ledgerRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.pdb;
  const heads = new TreeHeads(db, await LedgerSigner.open(app.config.dataDir));

  app.get(LedgerPaths.sth, async () => ok(await heads.current()));

  app.get(LedgerPaths.publicKey, async () => ok(heads.signer.publicKey));

  app.get(LedgerPaths.entry, async (request) => {
    const hash = parseInput(EntryQuery, request.query).hash.trim().toLowerCase();
    const leaf = /^[0-9a-f]{64}$/.test(hash) ? await findLeafByHash(db, hash) : undefined;
    if (!leaf) throw new ApiError(ApiCode.NOT_FOUND, LedgerMsg.entryNotFound);
    const sth = await heads.current();
    const leafIndex = Number(leaf.leaf_index);
    const view: LedgerEntryView = {
      leafIndex,
      leafHash: leaf.leaf_hash,
      record: JSON.parse(leaf.record_json) as LedgerRecord,
      recordCanonical: leaf.record_json,
      inclusionProof: await inclusionProof(db, leafIndex, sth.treeSize),
      sth,
    };
    return ok(view);
  });

  app.get(LedgerPaths.proof, async (request) => {
    const { baoquan } = parseInput(ProofQuery, request.query);
    const bundle = await buildProofBundle(db, heads, baoquan);
    if (!bundle) throw new ApiError(ApiCode.NOT_FOUND, Msg.evidenceNotFound);
    return ok(bundle);
  });

  app.get(LedgerPaths.consistency, async (request) => {
    const { first, second } = parseInput(ConsistencyQuery, request.query);
    if (first > second || second > (await treeSize(db))) {
      throw new ApiError(ApiCode.BAD_REQUEST, LedgerMsg.badTreeSize);
    }
    const data: ConsistencyProofData = { first, second, proof: await consistencyProof(db, first, second) };
    return ok(data);
  });
}
