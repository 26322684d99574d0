/**
 * The ledger's tables as Kysely sees them (migrations 0001, 0002, 0017, 0018; platform/ledger/README.md): the
 * Merkle log's leaves and subtree hashes, the legacy `ledger_entries` view, the witnesses with their events, and the
 * RFC 3161 time-stamps of checkpoints. They join the platform's `Database` by interface merging (decision 060); row
 * types are imported from here. Times are unix seconds; hashes 64 lower-case hex.
 */
import type { Generated, Selectable } from 'kysely';
import type { Defaulted } from '../db/schema.ts';

/**
 * The read-only VIEW `ledger_entries` over `ledger_leaves` (migration 0002), kept for readers written against the
 * original hash chain (migration 0001): `seq` = leaf_index + 1, `entry_hash` = the leaf hash (the chainhash).
 * New code reads `ledger_leaves`.
 */
export interface LedgerEntriesTable {
  /** 1-based position (leaf_index + 1). */
  seq: number;
  evidence_id: number;
  /** The leaf hash (since migration 0002; the chain entry hash before it). */
  entry_hash: string;
  /** The canonical JSON of the record, the leaf input. */
  record_json: string;
  created_at: number;
}

/** One leaf of the Merkle ledger (migration 0002; RFC 9162 §2.1; platform/ledger/ledger.ts). */
export interface LedgerLeavesTable {
  /** 0-based position in the log; primary key, so no two leaves share a position. */
  leaf_index: number;
  /** SHA-256(0x00 ‖ UTF-8 record_json), 64 lower-case hex; unique. The evidence's chainhash. */
  leaf_hash: string;
  evidence_id: number;
  /** The canonical JSON of the evidence's LedgerRecord: the leaf input. */
  record_json: string;
  /** Unix seconds. */
  created_at: number;
  /** The entry_hash of a leaf migrated from the hash chain (old certificates print it); else null. */
  legacy_entry_hash: string | null;
}

/** The hash of a complete subtree of 2^level leaves, [idx·2^level, (idx+1)·2^level); level ≥ 1, written once. */
export interface LedgerNodesTable {
  level: number;
  idx: number;
  /** 64 lower-case hex. */
  hash: string;
}

/** A witness of the ledger's checkpoints and its last cosignature (migration 0017; ledger/witnessing.ts). */
export interface LedgerWitnessesTable {
  name: string;
  url: Defaulted<string>;
  size: Defaulted<number>;
  root_hash: Defaulted<string>;
  cosigned_note: Defaulted<string>;
  cosigned_at: number | null;
  /** `new` | `ok` | `refused` | `unreachable`. */
  status: Defaulted<string>;
  detail: Defaulted<string>;
  attempted_at: number | null;
}

/** A refusal or change of state of a witness (migration 0017), for the operator console. */
export interface LedgerWitnessEventsTable {
  id: Generated<number>;
  witness: string;
  at: number;
  status: string;
  tree_size: number;
  detail: string;
}

/** An RFC 3161 time-stamp token of a checkpoint (migration 0018; ledger/timestamping.ts). */
export interface LedgerTimestampsTable {
  tree_size: number;
  root_hash: string;
  note: string;
  /** DER TimeStampToken, base64. */
  token: string;
  gen_time: number;
  tsa: string;
  created_at: number;
}

declare module '../db/schema.ts' {
  interface Database {
    ledger_entries: LedgerEntriesTable;
    ledger_leaves: LedgerLeavesTable;
    ledger_nodes: LedgerNodesTable;
    ledger_witnesses: LedgerWitnessesTable;
    ledger_witness_events: LedgerWitnessEventsTable;
    ledger_timestamps: LedgerTimestampsTable;
  }
}

export type LedgerEntryRow = Selectable<LedgerEntriesTable>;
export type LedgerLeafRow = Selectable<LedgerLeavesTable>;
