/**
 * Process captures (decision 037): a capture job may be of kind `process`, whose script of steps is
 * `steps_json` (JSON array of contract ProcessStep); `urls_json` then holds the URLs the script opens.
 */
import type { Kysely, Migration } from 'kysely';

/** The migration (the same on SQLite and PostgreSQL). */
export function captureSteps(): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema.alterTable('capture_jobs').addColumn('steps_json', 'text').execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.alterTable('capture_jobs').dropColumn('steps_json').execute();
    },
  };
}
