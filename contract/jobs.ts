/**
 * The job queue as the operator console shows it (platform/jobs; decision 045). Admin role. No
 * zod: the console page imports it for its path and types only.
 */

/** The console's job-queue call. */
export const JobsOpsPaths = {
  /** `GET` → {@link JobsView}. */
  jobs: '/api/ops/jobs',
} as const;

/** One recurring task: runs waiting, going, failed for good (kept a while), and the newest failure's message. */
export interface JobTaskView {
  /** `face.poll` | `billing.reconcile`. */
  name: string;
  queued: number;
  active: number;
  failed: number;
  lastError: string | null;
}

/** The queue this platform works (`pg-boss` on PostgreSQL, `sqlite` in-process), or null with PLATFORM_JOBS=0. */
export interface JobsView {
  kind: 'pg-boss' | 'sqlite' | null;
  tasks: JobTaskView[];
}
