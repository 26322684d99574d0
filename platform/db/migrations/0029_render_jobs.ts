/**
 * Certificate render jobs (platform/renders; docs/decisions/064-background-worker.md; contract/renders.ts):
 * - `render_jobs`: id, the evidence's preservation number (`baoquan`), the certificate's language (`zh` | `en`), the
 *   state (`queued` → `active` → deleted when done; `failed` for good after RENDER_ATTEMPTS tries, kept a week),
 *   `run_at` (unix seconds: due from then on; later for a retry), attempts (claims so far), the worker holding it
 *   and its lease's end (unix seconds; null unless active), the last failure's message (shown to operators),
 *   created_at, updated_at.
 * - A partial unique index on (baoquan, lang) where state = 'queued': at most one waiting job per certificate, so
 *   repeated events of one evidence coalesce (an insert that meets it does nothing); an active or failed job does
 *   not count, so an event during a render queues the next one.
 * - An index on (state, run_at) for the claim.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import { idColumn, notNull, timestamps } from '../columns.ts';
import type { Dialect } from '../dialect.ts';

/** The migration for `dialect` (the same SQL on both, but for the id column). */
export function renderJobs(dialect: Dialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await timestamps(
        idColumn(dialect)(db.schema.createTable('render_jobs'))
          .addColumn('baoquan', 'varchar(64)', notNull)
          .addColumn('lang', 'varchar(8)', notNull)
          .addColumn('state', 'varchar(16)', notNull)
          .addColumn('run_at', 'bigint', notNull)
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('worker', 'varchar(64)')
          .addColumn('lease_until', 'bigint')
          .addColumn('last_error', 'varchar(500)'),
      ).execute();
      await sql`create unique index render_jobs_one_queued on render_jobs (baoquan, lang) where state = 'queued'`.execute(
        db,
      );
      await db.schema.createIndex('render_jobs_due').on('render_jobs').columns(['state', 'run_at']).execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('render_jobs').execute();
    },
  };
}
