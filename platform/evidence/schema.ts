/**
 * The evidence area's tables as Kysely sees them (migrations 0001, 0003, 0011, 0022): the evidences and the tallies
 * the triggers of migration 0011 keep per user and kind (decision 054). They join the platform's `Database` by
 * interface merging (decision 060); row types are imported from here. Times are unix seconds, sizes bytes.
 */
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { EvidenceKindName } from '../../contract/evidence-codes.ts';

/**
 * The kinds of evidence (spec 01 §1, §3; docs/decisions/006-evidence-kinds.md): uploaded file, submitted hash
 * only, user data rows, app capture, web capture (a WACZ; decision 037).
 */
export type EvidenceKind = EvidenceKindName;

export interface EvidencesTable {
  id: Generated<number>;
  baoquan: string;
  user_id: number;
  title: string;
  label: string;
  file_name: string;
  /** Bytes. */
  file_size: number;
  /** 1 document, 2 image, 3 audio, 4 video, 5 other (spec 01 §9). */
  file_type: number;
  mime: string;
  /** Lower-case hex SHA-256 of the stored bytes. */
  sha256: string;
  storage_key: string;
  /** 1 stored. */
  status: number;
  created_at: number;
  /** file | hash | property | app (migration 0003; default 'file'). Mirrored as `kind` in the ledger record. */
  kind: ColumnType<EvidenceKind, EvidenceKind | undefined, EvidenceKind>;
  /** Unix seconds when the owner deleted the stored data; the row and its ledger entry stay (spec 01 §4). */
  deleted_at: number | null;
  /** Unix seconds when the deleted data's bytes were removed from storage (null until then; see the sweep). */
  purged_at: number | null;
  /** App-captured evidence: forensic type and device name, model, version, processor, kernel (spec 01 §2.3). */
  app_type: string | null;
  config_name: string | null;
  config_model_name: string | null;
  config_version: string | null;
  config_processor: string | null;
  config_core: string | null;
  /** User data: number of rows without the header (spec 01 §2.3). */
  data_lines: number | null;
  /** User data: JSON text of `[{fieldName, exampleValue}]`, example values cut to 10 characters. */
  data_fields: string | null;
  /** Music works: JSON of contract MusicWork (migration 0022); null for other kinds. */
  work_json: string | null;
}

/** How many evidences of a kind a user has (migration 0011; kept by triggers on `evidences`). */
export interface EvidenceCountsTable {
  user_id: number;
  kind: EvidenceKind;
  n: number;
}

/** The labels a user's evidences of a kind carry, with how many carry each (migration 0011; kept by triggers). */
export interface EvidenceLabelsTable {
  user_id: number;
  kind: EvidenceKind;
  label: string;
  n: number;
}

declare module '../db/schema.ts' {
  interface Database {
    evidences: EvidencesTable;
    evidence_counts: EvidenceCountsTable;
    evidence_labels: EvidenceLabelsTable;
  }
}

export type EvidenceRow = Selectable<EvidencesTable>;
