/**
 * The online capture area's table as Kysely sees it (migrations 0019, 0020, 0025; decision 037): the capture jobs
 * the gateway's capture workers lease. It joins the platform's `Database` by interface merging (decision 060).
 * Times are unix seconds.
 */
import type { Generated } from 'kysely';
import type { CaptureKind, CaptureStatus } from '../../contract/capture.ts';
import type { Defaulted } from '../db/schema.ts';

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
  attempts: Defaulted<number>;
  error: string | null;
  evidence_id: number | null;
  /** What the capture recorded (pages, addresses, refusals), JSON. */
  meta_json: string | null;
  created_at: number;
  updated_at: number;
}

declare module '../db/schema.ts' {
  interface Database {
    capture_jobs: CaptureJobsTable;
  }
}
