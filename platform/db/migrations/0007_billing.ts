/**
 * Billing (spec 02 §3 "Recharge and consumption order"; docs/decisions/018-billing.md): `billing_orders` (recharges
 * and consumptions), `points_journal` (append-only; at most one entry of each kind per order, the database's own
 * guard against a double credit) and `billing_notifications` (every payment notification, raw, with its verdict).
 * Money is integer fen, points integers, times unix seconds (BIGINT).
 */
import type { Kysely, Migration } from 'kysely';
import { createdAt, idColumn, notNull, ownedByUser, timestamps } from '../columns.ts';
import type { Dialect } from '../dialect.ts';

/** The migration for `dialect` (auto-increment keys differ; the rest is the same). */
export function billing(dialect: Dialect): Migration {
  const idCol = idColumn(dialect);
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await idCol(db.schema.createTable('billing_orders'))
        .addColumn('order_no', 'varchar(48)', (c) => c.notNull().unique())
        .addColumn('user_id', 'bigint', ownedByUser)
        .addColumn('kind', 'varchar(10)', notNull)
        .addColumn('points', 'bigint', notNull)
        .addColumn('amount_fen', 'bigint', notNull)
        .addColumn('pay_type', 'integer', notNull)
        .addColumn('status', 'integer', notNull)
        .addColumn('description', 'varchar(100)', notNull)
        .addColumn('trade_no', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('pay_url', 'varchar(512)', (c) => c.notNull().defaultTo(''))
        .addColumn('invoice_status', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('flag', 'varchar(30)', (c) => c.notNull().defaultTo(''))
        .addColumn('flag_reason', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('expires_at', 'bigint', notNull)
        .addColumn('paid_at', 'bigint')
        .addColumn('closed_at', 'bigint')
        .addColumn('check_after', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('check_attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .$call(timestamps)
        .execute();
      await db.schema
        .createIndex('billing_orders_user')
        .on('billing_orders')
        .columns(['user_id', 'kind', 'created_at'])
        .execute();
      await db.schema
        .createIndex('billing_orders_pending')
        .on('billing_orders')
        .columns(['status', 'check_after'])
        .execute();

      await idCol(db.schema.createTable('points_journal'))
        .addColumn('user_id', 'bigint', ownedByUser)
        .addColumn('order_id', 'bigint', (c) =>
          c.notNull().references('billing_orders.id').onDelete('cascade'),
        )
        .addColumn('kind', 'varchar(10)', notNull)
        .addColumn('points', 'bigint', notNull)
        .addColumn('balance_after', 'bigint', notNull)
        .$call(createdAt)
        .execute();
      await db.schema
        .createIndex('points_journal_once')
        .on('points_journal')
        .columns(['order_id', 'kind'])
        .unique()
        .execute();
      await db.schema
        .createIndex('points_journal_user')
        .on('points_journal')
        .columns(['user_id', 'id'])
        .execute();

      await idCol(db.schema.createTable('billing_notifications'))
        .addColumn('provider', 'varchar(10)', notNull)
        .addColumn('order_no', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('verdict', 'varchar(20)', notNull)
        .addColumn('detail', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('notify_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('raw_body', 'text', notNull)
        .addColumn('headers', 'text', notNull)
        .addColumn('received_at', 'bigint', notNull)
        .execute();
      await db.schema
        .createIndex('billing_notifications_order')
        .on('billing_notifications')
        .columns(['order_no', 'id'])
        .execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      for (const t of ['billing_notifications', 'points_journal', 'billing_orders'])
        await db.schema.dropTable(t).execute();
    },
  };
}
