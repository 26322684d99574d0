/**
 * The job queue's table on SQLite (platform/jobs/sqlite-queue.ts; decision 045). On PostgreSQL
 * pg-boss keeps its own schema (`pgboss`), so nothing is created there.
 *
 * `platform_jobs`: one row per queued, running or failed run of a task. At most one queued and one active row per
 * task (partial unique indexes): a task never runs twice at once, and asking for a run that is already queued is a
 * no-op. Times are Unix milliseconds.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../dialect.ts';

/** The migration (SQLite only). */
export function jobs(dialect: Dialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      if (dialect !== 'sqlite') return;
      await db.schema
        .createTable('platform_jobs')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('run_at', 'integer', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('expire_at', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'integer', (c) => c.notNull())
        .execute();
      await sql`create unique index platform_jobs_one_queued on platform_jobs (name) where state = 'queued'`.execute(
        db,
      );
      await sql`create unique index platform_jobs_one_active on platform_jobs (name) where state = 'active'`.execute(
        db,
      );
      await sql`create index platform_jobs_due on platform_jobs (state, run_at)`.execute(db);
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      if (dialect !== 'sqlite') return;
      await db.schema.dropTable('platform_jobs').execute();
    },
  };
}
