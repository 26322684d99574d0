/**
 * `file_intents` (platform/files/intents.ts; decision 046): the key of an object about to be stored, written before
 * the transaction that inserts the object's row and deleted by it; what a crash leaves behind is swept. Unix seconds.
 */
import type { Kysely, Migration } from 'kysely';

/** The migration (the same on SQLite and PostgreSQL). */
export function fileIntents(): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('file_intents')
        .addColumn('bucket', 'text', (c) => c.notNull())
        .addColumn('storage_key', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('file_intents_pk', ['bucket', 'storage_key'])
        .execute();
      await db.schema.createIndex('file_intents_created').on('file_intents').column('created_at').execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('file_intents').execute();
    },
  };
}
