/**
 * Witness cosignatures of the ledger's checkpoints (decision 035):
 * - `ledger_witnesses`: one row per witness asked (its verifier key's name, its URL): the checkpoint it last cosigned
 *   (`size`, `root_hash`, `cosigned_note`: our checkpoint note with the witness's cosignature line appended,
 *   `cosigned_at` unix seconds) and how the last attempt went (`status` ok | refused | unreachable, `detail`,
 *   `attempted_at`);
 * - `ledger_witness_events`: every refusal and every change of state, for the operator console.
 */
import type { Kysely, Migration } from 'kysely';
import { idColumn, notNull } from '../columns.ts';
import type { Dialect } from '../dialect.ts';

/** The migration for `dialect`. */
export function ledgerWitnesses(dialect: Dialect): Migration {
  const idCol = idColumn(dialect);
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('ledger_witnesses')
        .addColumn('name', 'varchar(200)', (c) => c.primaryKey())
        .addColumn('url', 'varchar(500)', (c) => c.notNull().defaultTo(''))
        .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('root_hash', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('cosigned_note', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('cosigned_at', 'bigint')
        .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('new'))
        .addColumn('detail', 'varchar(500)', (c) => c.notNull().defaultTo(''))
        .addColumn('attempted_at', 'bigint')
        .execute();
      await idCol(db.schema.createTable('ledger_witness_events'))
        .addColumn('witness', 'varchar(200)', notNull)
        .addColumn('at', 'bigint', notNull)
        .addColumn('status', 'varchar(20)', notNull)
        .addColumn('tree_size', 'bigint', notNull)
        .addColumn('detail', 'varchar(500)', notNull)
        .execute();
      await db.schema
        .createIndex('ledger_witness_events_at')
        .on('ledger_witness_events')
        .column('at')
        .execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('ledger_witness_events').execute();
      await db.schema.dropTable('ledger_witnesses').execute();
    },
  };
}
