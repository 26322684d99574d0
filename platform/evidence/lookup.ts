/**
 * Finding evidences by preservation number or by SHA-256 (the certificate, the downloads, the public lookup; spec 01
 * §2.1, §2.3), with the owner's mobile, the chain hash and, for a web capture, its record (decision 037); the device
 * fields of a row as the views name them.
 */
import type { Kysely } from 'kysely';
import type { EvidenceView } from '../../contract/evidence-codes.ts';
import type { Database } from '../db/schema.ts';
import type { EvidenceRow } from './schema.ts';
import { preparedQuery, type ParamReader } from '../db/prepared.ts';

/**
 * The certificate's evidence with its capture record, owner's mobile and ledger leaf, prepared once
 * (platform/db/prepared.ts): every certificate view and PDF reads it.
 */
const evidenceByBaoquan = preparedQuery((db, param: ParamReader<{ baoquan: string }>) =>
  db
    .selectFrom('evidences')
    .selectAll('evidences')
    .select((eb) => [
      // a web capture's record (decision 037): what the capture found at each page, for the certificate
      eb
        .selectFrom('capture_jobs')
        .select('capture_jobs.meta_json')
        .whereRef('capture_jobs.evidence_id', '=', 'evidences.id')
        .limit(1)
        .as('capture_meta'),
      eb
        .selectFrom('users')
        .select('users.mobile')
        .whereRef('users.id', '=', 'evidences.user_id')
        .as('owner_mobile'),
      // the chain transaction hash is the Merkle leaf hash (docs/decisions/005-ledger.md)
      eb
        .selectFrom('ledger_leaves')
        .select('ledger_leaves.leaf_hash')
        .whereRef('ledger_leaves.evidence_id', '=', 'evidences.id')
        .as('chainhash'),
      eb
        .selectFrom('ledger_leaves')
        .select('ledger_leaves.leaf_index')
        .whereRef('ledger_leaves.evidence_id', '=', 'evidences.id')
        .as('leaf_index'),
    ])
    .where('evidences.baoquan', '=', param('baoquan')),
);

/**
 * The evidence numbered `baoquan` with its owner's mobile and chain hash, or undefined (also when it has no ledger
 * leaf yet). Written with scalar subqueries, not joins: SQLite re-plans a join whose bound parameter it reads every
 * time the parameter is bound (~40 µs against ~5 µs here; decision 054, 2026-11-29).
 */
export async function findByBaoquan(db: Kysely<Database>, baoquan: string) {
  const [row] = await evidenceByBaoquan(db, { baoquan });
  // the joins' meaning: an evidence is found with its owner and its ledger leaf, or not at all
  if (!row || row.owner_mobile === null || row.chainhash === null || row.leaf_index === null)
    return undefined;
  return { ...row, owner_mobile: row.owner_mobile, chainhash: row.chainhash, leaf_index: row.leaf_index };
}

/**
 * Evidences whose SHA-256 is `sha256` (lower-case hex), newest first, at most `limit`, with their chain hash — the
 * public lookup by hash (spec 01 §2.1 /queryAuthentication).
 */
export async function findBySha256(db: Kysely<Database>, sha256: string, limit: number) {
  return db
    .selectFrom('evidences')
    .innerJoin('ledger_leaves', 'ledger_leaves.evidence_id', 'evidences.id')
    .selectAll('evidences')
    .select(['ledger_leaves.leaf_hash as chainhash'])
    .where('evidences.sha256', '=', sha256)
    .orderBy('evidences.created_at', 'desc')
    .orderBy('evidences.id', 'desc')
    .limit(limit)
    .execute();
}

/** The app-capture fields of an evidence row as the view names them ('' when unknown; spec 01 §2.3). */
export function deviceOf(
  ev: Pick<
    EvidenceRow,
    'app_type' | 'config_name' | 'config_model_name' | 'config_version' | 'config_processor' | 'config_core'
  >,
): Pick<
  EvidenceView,
  'appType' | 'configName' | 'configModelName' | 'configVersion' | 'configProcessor' | 'configCore'
> {
  return {
    appType: ev.app_type ?? '',
    configName: ev.config_name ?? '',
    configModelName: ev.config_model_name ?? '',
    configVersion: ev.config_version ?? '',
    configProcessor: ev.config_processor ?? '',
    configCore: ev.config_core ?? '',
  };
}
