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

/**
 * Jobs the background worker does (Chromium work, docs/decisions/064-background-worker.md), as stored now: waiting,
 * going, failed for good (kept a week), the newest failure's message and how long the oldest waiting job has waited.
 */
export interface WorkerJobView {
  /** `certificate.render` (certificate PDFs rendered ahead) | `capture` (web and process captures). */
  name: string;
  queued: number;
  active: number;
  failed: number;
  lastError: string | null;
  /** Seconds the oldest waiting job has waited, or null when none waits. */
  oldestWaitSeconds: number | null;
}

/** The queue this platform works (`pg-boss` on PostgreSQL, `sqlite` in-process), or null with PLATFORM_JOBS=0. */
export interface JobsView {
  kind: 'pg-boss' | 'sqlite' | null;
  tasks: JobTaskView[];
  /** The background worker's backlog, read from the database whether or not this process works the queue. */
  work: WorkerJobView[];
}
