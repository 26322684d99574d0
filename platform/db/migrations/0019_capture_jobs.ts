/**
 * Capture jobs (decision 037; contract/capture.ts): one row per capture a user asked for — its kind (`web`), title,
 * label, the URLs (JSON array), its state (queued → running → done | failed), the worker holding it and the lease's
 * end (unix seconds; a running job whose lease passed is claimed again, at most MAX_CAPTURE_ATTEMPTS times), the
 * failure reason, the evidence it became and what the capture recorded (`meta_json`). Indexed for the claim (state,
 * id) and the owner's list.
 */
import type { Kysely, Migration } from 'kysely';
import { idColumn, notNull, ownedByUser, timestamps } from '../columns.ts';
import type { Dialect } from '../dialect.ts';

/** The migration for `dialect`. */
export function captureJobs(dialect: Dialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await timestamps(
        idColumn(dialect)(db.schema.createTable('capture_jobs'))
          .addColumn('user_id', 'bigint', ownedByUser)
          .addColumn('kind', 'varchar(16)', notNull)
          .addColumn('title', 'varchar(100)', notNull)
          .addColumn('label', 'varchar(30)', notNull)
          .addColumn('urls_json', 'text', notNull)
          .addColumn('status', 'varchar(16)', notNull)
          .addColumn('worker', 'varchar(64)')
          .addColumn('lease_until', 'bigint')
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('error', 'varchar(500)')
          .addColumn('evidence_id', 'bigint', (c) => c.references('evidences.id').onDelete('set null'))
          .addColumn('meta_json', 'text'),
      ).execute();
      await db.schema
        .createIndex('capture_jobs_status_id')
        .on('capture_jobs')
        .columns(['status', 'id'])
        .execute();
      await db.schema
        .createIndex('capture_jobs_user_created')
        .on('capture_jobs')
        .columns(['user_id', 'created_at'])
        .execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('capture_jobs').execute();
    },
  };
}
