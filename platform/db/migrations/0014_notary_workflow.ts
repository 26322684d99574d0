/**
 * Steps 2–4 of a notarisation order and the notary office's work (docs/decisions/034-notary.md):
 * `notary_documents` (the four signed documents of step 2 and, as type 5, the issued notarial certificate: one file
 * per order and type, bytes in the `notary` bucket) and the order's later facts — when the user authorised the office
 * to read the evidences (step 3), the consumption order that paid it, when the office accepted it, the notarial
 * certificate's number, when it was issued, refunded, and the office's last remark. Times unix seconds.
 */
import type { Kysely, Migration } from 'kysely';
import { idColumn, notNull } from '../columns.ts';
import type { Dialect } from '../dialect.ts';

/** The migration for `dialect`. */
export function notaryWorkflow(dialect: Dialect): Migration {
  const idCol = idColumn(dialect);
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await idCol(db.schema.createTable('notary_documents'))
        .addColumn('order_id', 'bigint', (c) =>
          c.notNull().references('notary_orders.id').onDelete('cascade'),
        )
        .addColumn('doc_type', 'integer', notNull)
        .addColumn('storage_key', 'varchar(40)', notNull)
        .addColumn('file_size', 'bigint', notNull)
        .addColumn('sha256', 'varchar(64)', notNull)
        .addColumn('created_at', 'bigint', notNull)
        .addUniqueConstraint('notary_documents_order_type', ['order_id', 'doc_type'])
        .execute();
      for (const [name, type] of [
        ['authorized_at', 'bigint'],
        ['spend_order_id', 'bigint'],
        ['accepted_at', 'bigint'],
        ['certificate_no', 'varchar(60)'],
        ['issued_at', 'bigint'],
        ['refunded_at', 'bigint'],
        ['office_remark', 'varchar(200)'],
      ] as const) {
        await db.schema.alterTable('notary_orders').addColumn(name, type).execute();
      }
      await db.schema
        .createIndex('notary_orders_certificate_no')
        .on('notary_orders')
        .column('certificate_no')
        .unique()
        .execute();
      await db.schema
        .createIndex('notary_orders_paid')
        .on('notary_orders')
        .columns(['pay', 'paid_at'])
        .execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('notary_orders_paid').execute();
      await db.schema.dropIndex('notary_orders_certificate_no').execute();
      for (const name of [
        'office_remark',
        'refunded_at',
        'issued_at',
        'certificate_no',
        'accepted_at',
        'spend_order_id',
        'authorized_at',
      ]) {
        await db.schema.alterTable('notary_orders').dropColumn(name).execute();
      }
      await db.schema.dropTable('notary_documents').execute();
    },
  };
}
