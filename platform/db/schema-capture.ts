/**
 * Tables of online capture and the open API (decision 039), apart from schema.ts for its size: capture jobs
 * (migrations 0019, 0020) and the open API's nonces (migration 0021).
 */
import type { ColumnType, Generated } from 'kysely';
import type { CaptureKind, CaptureStatus } from '../../contract/capture.ts';

/** Capture jobs (migration 0019; contract/capture.ts). Times unix seconds. */
export interface CaptureJobsTable {
  id: Generated<number>;
  user_id: number;
  kind: CaptureKind;
  title: string;
  label: string;
  /** JSON array of the URLs. */
  urls_json: string;
  /** A process capture's script, JSON array of ProcessStep (migration 0020); null for a web capture. */
  steps_json: string | null;
  status: CaptureStatus;
  worker: string | null;
  lease_until: number | null;
  attempts: ColumnType<number, number | undefined, number>;
  error: string | null;
  evidence_id: number | null;
  /** What the capture recorded (pages, addresses, refusals), JSON. */
  meta_json: string | null;
  created_at: number;
  updated_at: number;
}

/** Nonces of signed open-API calls (migration 0021): one row per (AppID, nonce), purged after their TTL. */
export interface ApiNoncesTable {
  app_id: string;
  nonce: string;
  /** Unix seconds. */
  created_at: number;
}

/** An object about to be stored (migration 0024; platform/files/intents.ts). Unix seconds. */
export interface FileIntentsTable {
  bucket: string;
  storage_key: string;
  created_at: number;
}
