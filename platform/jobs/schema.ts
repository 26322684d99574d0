/**
 * The job queue's table as Kysely sees it (migration 0023; decision 045; platform/jobs/README.md): `platform_jobs`,
 * the queue on SQLite. On PostgreSQL the queue is pg-boss in its own schema `pgboss`, and this table does not exist,
 * so it is the one table not merged into the shared `Database` (decision 060): only the SQLite queue
 * (sqlite-queue.ts) sees it, through {@link SqliteJobsDatabase}, and code that runs on both dialects cannot name it.
 */
import type { Generated, Selectable } from 'kysely';
import type { Database } from '../db/schema.ts';

/** The queue table (migration 0023). Times Unix milliseconds. */
export interface PlatformJobsTable {
  id: Generated<number>;
  name: string;
  state: 'queued' | 'active' | 'failed';
  run_at: number;
  attempts: number;
  expire_at: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

/** The platform's tables and, on SQLite only, the queue's. */
export type SqliteJobsDatabase = Database & { platform_jobs: PlatformJobsTable };

export type PlatformJobRow = Selectable<PlatformJobsTable>;
