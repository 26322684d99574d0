/**
 * Table shapes as Kysely sees them. Times are unix seconds (integers) on both dialects; booleans are 0/1 integers;
 * PostgreSQL BIGINTs are parsed to JS numbers (see database.ts), so one set of types serves SQLite and PostgreSQL.
 */
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { ApiNoncesTable, CaptureJobsTable, FileIntentsTable } from './schema-capture.ts';
import type { EvidenceKindName } from '../../contract/evidence-codes.ts';

export interface UsersTable {
  id: Generated<number>;
  mobile: string;
  /** Self-describing scrypt hash, see account/passwords.ts. */
  password_hash: string;
  /** '1' not verified, '2' under review, '3' verified, '4' failed (spec 02 §4). */
  user_status: string;
  /** Account type: 0 none, 1 personal, 2 enterprise. */
  account_type: number;
  /** 0 none, 1 photo, 3 face. */
  auth_type: number;
  user_name: string;
  points: number;
  extract_code: string;
  check_remark: string;
  created_at: number;
}

export interface TokensTable {
  id: Generated<number>;
  /** SHA-256 (hex) of the bearer token; the token itself is never stored. */
  token_hash: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

export interface CaptchasTable {
  key: string;
  /** Lower-cased answer. */
  answer: string;
  expires_at: number;
  consumed: number;
  created_at: number;
}

export interface SmsCodesTable {
  id: Generated<number>;
  mobile: string;
  purpose: 'register' | 'reset';
  code: string;
  sent_at: number;
  expires_at: number;
  attempts: number;
  consumed: number;
}

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

/**
 * The kinds of evidence (spec 01 §1, §3; docs/decisions/006-evidence-kinds.md): uploaded file, submitted hash
 * only, user data rows, app capture, web capture (a WACZ; decision 037).
 */
export type EvidenceKind = EvidenceKindName;

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
  url: ColumnType<string, string | undefined, string>;
  size: ColumnType<number, number | undefined, number>;
  root_hash: ColumnType<string, string | undefined, string>;
  cosigned_note: ColumnType<string, string | undefined, string>;
  cosigned_at: number | null;
  /** `new` | `ok` | `refused` | `unreachable`. */
  status: ColumnType<string, string | undefined, string>;
  detail: ColumnType<string, string | undefined, string>;
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

/** Failed-attempt counters behind login and extraction-code throttling (core/attempts.ts). */
export interface AttemptCountersTable {
  /** SHA-256 hex of the scope and subject, e.g. "login|<ip>|<mobile>". */
  key: string;
  count: number;
  window_start: number;
}

/** A notification of the account area (migration 0004; spec 01 §3 News). */
export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  /** The message text shown in the list (zh-CN), at most 500 characters. */
  content: string;
  /** 0 unread, 1 read. */
  is_read: ColumnType<number, number | undefined, number>;
  created_at: number;
}

/** A signature seal (migration 0004; spec 01 §3 Signature): a PNG of at most 10 MB under `${dataDir}/signatures`. */
export interface SignaturesTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  /** Key in the seal storage (`xx/<random>`). */
  storage_key: string;
  /** Bytes. */
  file_size: number;
  /** 1 the user's default seal (at most one per user), else 0. */
  is_default: number;
  created_at: number;
}

/** A delivery address (migration 0004; spec 02 §3 Address). At most 5 per user; `status` 1 = default. */
export interface AddressesTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  province: string;
  city: string;
  area: string;
  address: string;
  phone_number: string;
  email: string;
  status: number;
  created_at: number;
  updated_at: number;
}

/** A user's real-name verification submission (migration 0005; spec 02 §3 KycInfo). */
export interface KycProfilesTable {
  user_id: number;
  kind: 'personal' | 'enterprise';
  /** 1 photo, 3 face, 0 enterprise. */
  auth_type: number;
  /** JSON of the submitted text fields, names as the submit payloads (spec 02 §3). */
  fields_json: string;
  /** Unix seconds of the last submission. */
  submitted_at: number;
  /** Unix seconds of the last operator decision or face result, null before. */
  reviewed_at: number | null;
  /**
   * Verified enterprise: AppID and the SecurityKey's stored form (its hash and display hint, never the key:
   * kyc/security-key.ts; null until first shown); `security_key_shown` 1 once the full key was shown.
   */
  app_id: string | null;
  security_key: string | null;
  security_key_shown: ColumnType<number, number | undefined, number>;
  /** The SecurityKey sealed for signature checks (open-api/sealed-keys.ts; migration 0021); null for older keys. */
  security_key_sealed: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * Live personal profiles (under review or verified): HMAC of the normalised ID number, unique (migration 0009;
   * platform/kyc/id-number.ts). Null otherwise.
   */
  id_key: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A private KYC image (migration 0005); bytes in `${dataDir}/kyc/<storage_key>`. One per (user, field). */
export interface KycImagesTable {
  id: Generated<number>;
  user_id: number;
  /** license | file | authorFront | authorBack | authorHand. */
  field: string;
  storage_key: string;
  mime: string;
  /** Bytes. */
  file_size: number;
  created_at: number;
}

/** An operator of the review console (migration 0005); created by `platform/ops/cli.ts`. */
export interface OperatorsTable {
  id: Generated<number>;
  username: string;
  password_hash: string;
  disabled: ColumnType<number, number | undefined, number>;
  created_at: number;
}

/** An operator's bearer token (SHA-256 stored, like `tokens`). */
export interface OperatorTokensTable {
  id: Generated<number>;
  token_hash: string;
  operator_id: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

/** A role an operator holds (migration 0006): reviewer | finance | notary | admin. */
export interface OperatorRolesTable {
  operator_id: number;
  role: string;
}

/** One entry of the operator console's audit log, any area (migration 0006, replacing `kyc_audit`). */
export interface OpsAuditTable {
  id: Generated<number>;
  /** Null for changes made with the command line. */
  operator_id: number | null;
  /** kyc | ops | … */
  area: string;
  /** The area's action: approve | reject (kyc), create | roles (ops), … */
  action: string;
  /** What was acted on, as the area names it (kyc: the user id; ops: the operator's username). */
  subject: ColumnType<string, string | undefined, string>;
  /** The user concerned, if any. */
  user_id: number | null;
  remark: ColumnType<string, string | undefined, string>;
  created_at: number;
}

/** An Alipay face certification (migration 0005; spec 02 §4 face flow). */
export interface FaceCertificationsTable {
  id: Generated<number>;
  user_id: number;
  certify_id: string;
  outer_order_no: string;
  state: ColumnType<FaceState, FaceState | undefined, FaceState>;
  fail_reason: ColumnType<string, string | undefined, string>;
  created_at: number;
  /** Unix seconds after which an open certification counts as expired. */
  expires_at: number;
  finished_at: number | null;
}
export type FaceState = 'open' | 'passed' | 'failed' | 'expired';

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

export interface Database {
  kyc_profiles: KycProfilesTable;
  kyc_images: KycImagesTable;
  operators: OperatorsTable;
  operator_tokens: OperatorTokensTable;
  operator_roles: OperatorRolesTable;
  ops_audit: OpsAuditTable;
  face_certifications: FaceCertificationsTable;
  notifications: NotificationsTable;
  signatures: SignaturesTable;
  addresses: AddressesTable;
  attempt_counters: AttemptCountersTable;
  users: UsersTable;
  tokens: TokensTable;
  captchas: CaptchasTable;
  sms_codes: SmsCodesTable;
  evidences: EvidencesTable;
  evidence_counts: EvidenceCountsTable;
  evidence_labels: EvidenceLabelsTable;
  ledger_entries: LedgerEntriesTable;
  ledger_leaves: LedgerLeavesTable;
  ledger_nodes: LedgerNodesTable;
  ledger_witnesses: LedgerWitnessesTable;
  ledger_witness_events: LedgerWitnessEventsTable;
  ledger_timestamps: LedgerTimestampsTable;
  capture_jobs: CaptureJobsTable;
  api_nonces: ApiNoncesTable;
  file_intents: FileIntentsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type EvidenceRow = Selectable<EvidencesTable>;
export type LedgerEntryRow = Selectable<LedgerEntriesTable>;
export type LedgerLeafRow = Selectable<LedgerLeavesTable>;
export type NotificationRow = Selectable<NotificationsTable>;
export type SignatureRow = Selectable<SignaturesTable>;
export type AddressRow = Selectable<AddressesTable>;
export type KycProfileRow = Selectable<KycProfilesTable>;
export type KycImageRow = Selectable<KycImagesTable>;
export type OperatorRow = Selectable<OperatorsTable>;
export type FaceCertificationRow = Selectable<FaceCertificationsTable>;
