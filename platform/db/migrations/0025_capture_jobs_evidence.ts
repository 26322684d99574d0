/**
 * An index on `capture_jobs.evidence_id` (decision 054, 2026-11-29): every certificate view looks up the capture
 * record of its evidence (platform/evidence/lookup.ts), which without it scanned every capture job ever made.
 */
import type { Kysely, Migration } from 'kysely';

/** The migration (the same on SQLite and PostgreSQL). */
export function captureJobsEvidence(): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema.createIndex('capture_jobs_evidence').on('capture_jobs').column('evidence_id').execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('capture_jobs_evidence').execute();
    },
  };
}
