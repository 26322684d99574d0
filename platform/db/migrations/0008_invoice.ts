/**
 * Invoices (spec 02 §3 "Invoice head", "Invoice application", "Invoice detail", §4 "Invoice application status";
 * docs/decisions/022-invoices.md): `invoice_heads` (a user's heads, at most 5, enforced by the service),
 * `invoice_applications` (one application with the head and the delivery address copied into it as they were when
 * asked), `invoice_application_orders` (the recharge orders of an application; an order is in at most one live
 * application, guarded by `billing_orders.invoice_status` moving 0|3 → 1 in the asking transaction) and
 * `invoice_files` (the issued PDF/OFD files in the `invoices` bucket). Money is integer fen, times unix seconds,
 * sizes bytes.
 */
import type { Kysely, Migration } from 'kysely';
import { createdAt, idColumn, notNull, ownedByUser, timestamps } from '../columns.ts';
import type { Dialect } from '../dialect.ts';

/** A text column that defaults to ''. */
const blank = (c: Parameters<typeof notNull>[0]) => c.notNull().defaultTo('');

/** The migration for `dialect` (auto-increment keys differ; the rest is the same). */
export function invoice(dialect: Dialect): Migration {
  const idCol = idColumn(dialect);
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await idCol(db.schema.createTable('invoice_heads'))
        .addColumn('user_id', 'bigint', ownedByUser)
        .addColumn('head', 'varchar(100)', notNull)
        .addColumn('type', 'varchar(20)', notNull)
        .addColumn('tax_num', 'varchar(20)', notNull)
        .addColumn('bank_name', 'varchar(50)', blank)
        .addColumn('account', 'varchar(30)', blank)
        .addColumn('street', 'varchar(100)', blank)
        .addColumn('phone_number', 'varchar(20)', blank)
        .$call(timestamps)
        .execute();
      await db.schema.createIndex('invoice_heads_user').on('invoice_heads').columns(['user_id']).execute();

      await idCol(db.schema.createTable('invoice_applications'))
        .addColumn('apply_no', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('user_id', 'bigint', ownedByUser)
        .addColumn('status', 'integer', notNull)
        .addColumn('money_fen', 'bigint', notNull)
        // the head, as it was when asked
        .addColumn('type', 'varchar(20)', notNull)
        .addColumn('head', 'varchar(100)', notNull)
        .addColumn('tax_num', 'varchar(20)', notNull)
        .addColumn('bank_name', 'varchar(50)', blank)
        .addColumn('account', 'varchar(30)', blank)
        .addColumn('street', 'varchar(100)', blank)
        .addColumn('phone_number', 'varchar(20)', blank)
        // the delivery address, as it was when asked
        .addColumn('recipient', 'varchar(20)', blank)
        .addColumn('post_phone_number', 'varchar(20)', blank)
        .addColumn('province', 'varchar(50)', blank)
        .addColumn('city', 'varchar(50)', blank)
        .addColumn('area', 'varchar(50)', blank)
        .addColumn('address', 'varchar(100)', blank)
        .addColumn('email', 'varchar(100)', blank)
        .addColumn('remark', 'varchar(150)', blank)
        .addColumn('check_remark', 'varchar(200)', blank)
        .addColumn('courier_number', 'varchar(30)', blank)
        .$call(timestamps)
        .addColumn('decided_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('invoice_applications_user')
        .on('invoice_applications')
        .columns(['user_id', 'created_at'])
        .execute();
      await db.schema
        .createIndex('invoice_applications_status')
        .on('invoice_applications')
        .columns(['status', 'created_at'])
        .execute();

      await db.schema
        .createTable('invoice_application_orders')
        .addColumn('application_id', 'bigint', (c) =>
          c.notNull().references('invoice_applications.id').onDelete('cascade'),
        )
        .addColumn('order_id', 'bigint', (c) =>
          c.notNull().references('billing_orders.id').onDelete('cascade'),
        )
        .addPrimaryKeyConstraint('invoice_application_orders_pk', ['application_id', 'order_id'])
        .execute();
      await db.schema
        .createIndex('invoice_application_orders_order')
        .on('invoice_application_orders')
        .columns(['order_id'])
        .execute();

      await idCol(db.schema.createTable('invoice_files'))
        .addColumn('application_id', 'bigint', (c) =>
          c.notNull().references('invoice_applications.id').onDelete('cascade'),
        )
        .addColumn('storage_key', 'varchar(100)', notNull)
        .addColumn('format', 'varchar(3)', notNull)
        .addColumn('file_size', 'bigint', notNull)
        .addColumn('sha256', 'varchar(64)', notNull)
        .$call(createdAt)
        .execute();
      await db.schema
        .createIndex('invoice_files_application')
        .on('invoice_files')
        .columns(['application_id'])
        .execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      for (const t of [
        'invoice_files',
        'invoice_application_orders',
        'invoice_applications',
        'invoice_heads',
      ])
        await db.schema.dropTable(t).execute();
    },
  };
}
