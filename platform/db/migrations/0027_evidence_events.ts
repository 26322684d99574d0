/**
 * Evidence events (platform/events; docs/decisions/059-evidence-events.md):
 * - `evidence_events`: id, kind (`saved` | `state-changed`), the evidence's id and preservation number, created_at
 *   (unix seconds), written in the transaction of the change itself; indexed by created_at for the prune;
 * - `event_cursors`: per consumer (primary key), the id of the last event it took and when it moved.
 */
import type { Kysely, Migration } from 'kysely';
import { idColumn, notNull } from '../columns.ts';
import type { Dialect } from '../dialect.ts';

/** The migration for `dialect`. */
export function evidenceEvents(dialect: Dialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await idColumn(dialect)(db.schema.createTable('evidence_events'))
        .addColumn('kind', 'varchar(16)', notNull)
        .addColumn('evidence_id', 'bigint', notNull)
        .addColumn('baoquan', 'varchar(64)', notNull)
        .addColumn('created_at', 'bigint', notNull)
        .execute();
      await db.schema
        .createIndex('evidence_events_created')
        .on('evidence_events')
        .column('created_at')
        .execute();
      await db.schema
        .createTable('event_cursors')
        .addColumn('consumer', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('last_id', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', 'bigint', notNull)
        .execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('event_cursors').execute();
      await db.schema.dropTable('evidence_events').execute();
    },
  };
}
