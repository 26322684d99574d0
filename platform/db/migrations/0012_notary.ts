/**
 * Notarisation orders (spec 02 §3 "Notary order list query", "Notary detail response", §4;
 * docs/decisions/034-notary.md): `notary_orders` (one order of a user: its type, number, price in points, the step
 * it is at, its pay and issuance states) and `notary_order_evidences` (the preserved evidences it covers). Points are
 * integers, times unix seconds.
 */
import type { Kysely, Migration } from 'kysely';
import { idColumn, notNull, ownedByUser, timestamps } from '../columns.ts';
import type { Dialect } from '../dialect.ts';

/** The migration for `dialect` (auto-increment keys differ; the rest is the same). */
export function notary(dialect: Dialect): Migration {
  const idCol = idColumn(dialect);
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await idCol(db.schema.createTable('notary_orders'))
        .addColumn('order_no', 'varchar(40)', (c) => c.notNull().unique())
        .addColumn('user_id', 'bigint', ownedByUser)
        .addColumn('type', 'integer', notNull)
        .addColumn('records', 'integer', notNull)
        .addColumn('points', 'bigint', notNull)
        .addColumn('step', 'integer', notNull)
        .addColumn('pay', 'integer', notNull)
        .addColumn('pay_type', 'integer')
        .addColumn('notarial', 'integer')
        .$call(timestamps)
        .addColumn('paid_at', 'bigint')
        .addColumn('stopped_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('notary_orders_user')
        .on('notary_orders')
        .columns(['user_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('notary_order_evidences')
        .addColumn('order_id', 'bigint', (c) =>
          c.notNull().references('notary_orders.id').onDelete('cascade'),
        )
        .addColumn('evidence_id', 'bigint', (c) => c.notNull().references('evidences.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('notary_order_evidences_pk', ['order_id', 'evidence_id'])
        .execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropTable('notary_order_evidences').execute();
      await db.schema.dropTable('notary_orders').execute();
    },
  };
}
