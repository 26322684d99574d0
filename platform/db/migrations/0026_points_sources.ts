/**
 * Points sources (docs/decisions/057-points-api.md, 058-providers-own-notifications.md):
 * - `points_journal` names each entry's source instead of billing's (order, kind): `source_kind` (a kind an area
 *   registered) and `source_ref` (unique within the kind), backfilled from each existing entry's kind and its order's
 *   number; the unique index `points_journal_source` on (source_kind, source_ref) replaces `points_journal_once` on
 *   (order_id, kind); `kind` goes; `order_id` stays for billing's own entries and becomes nullable (another area's
 *   entry has no order), with an index of its own for finance's order view;
 * - `billing_notifications.provider` widens to varchar(32): a registered provider's name, not only alipay/wechat.
 * PostgreSQL alters the tables in place; SQLite cannot drop NOT NULL, so it rebuilds `points_journal` (ids kept) in
 * one transaction. Both dialects end with the same columns and indexes.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import { createdAt, idColumn, notNull, ownedByUser } from '../columns.ts';
import type { Dialect } from '../dialect.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/** The source of an existing entry: its kind, and its order's number (`order-<id>` should the order be gone). */
const BACKFILL_REF = sql`coalesce(
  (select o.order_no from billing_orders o where o.id = points_journal.order_id),
  'order-' || cast(points_journal.order_id as varchar(20))
)`;

/** The indexes of the new shape (both dialects). */
async function createIndexes(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('points_journal_source')
    .on('points_journal')
    .columns(['source_kind', 'source_ref'])
    .unique()
    .execute();
  await db.schema.createIndex('points_journal_order').on('points_journal').column('order_id').execute();
}

async function upPostgres(db: AnyDb): Promise<void> {
  await db.schema.alterTable('points_journal').addColumn('source_kind', 'varchar(32)').execute();
  await db.schema.alterTable('points_journal').addColumn('source_ref', 'varchar(64)').execute();
  await sql`update points_journal set source_kind = kind, source_ref = ${BACKFILL_REF}`.execute(db);
  for (const column of ['source_kind', 'source_ref'])
    await db.schema
      .alterTable('points_journal')
      .alterColumn(column, (c) => c.setNotNull())
      .execute();
  await db.schema.dropIndex('points_journal_once').execute();
  await db.schema.alterTable('points_journal').dropColumn('kind').execute();
  await db.schema
    .alterTable('points_journal')
    .alterColumn('order_id', (c) => c.dropNotNull())
    .execute();
  await createIndexes(db);
  await db.schema
    .alterTable('billing_notifications')
    .alterColumn('provider', (c) => c.setDataType('varchar(32)'))
    .execute();
}

/** SQLite: the table rebuilt in the new shape, rows copied with their ids (SQLite ignores varchar lengths). */
async function upSqlite(db: AnyDb, dialect: Dialect): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await idColumn(dialect)(trx.schema.createTable('points_journal_next'))
      .addColumn('user_id', 'bigint', ownedByUser)
      .addColumn('order_id', 'bigint', (c) => c.references('billing_orders.id').onDelete('cascade'))
      .addColumn('source_kind', 'varchar(32)', notNull)
      .addColumn('source_ref', 'varchar(64)', notNull)
      .addColumn('points', 'bigint', notNull)
      .addColumn('balance_after', 'bigint', notNull)
      .$call(createdAt)
      .execute();
    await sql`insert into points_journal_next
      (id, user_id, order_id, source_kind, source_ref, points, balance_after, created_at)
      select id, user_id, order_id, kind, ${BACKFILL_REF}, points, balance_after, created_at
      from points_journal`.execute(trx);
    await trx.schema.dropTable('points_journal').execute();
    await trx.schema.alterTable('points_journal_next').renameTo('points_journal').execute();
    await trx.schema
      .createIndex('points_journal_user')
      .on('points_journal')
      .columns(['user_id', 'id'])
      .execute();
    await createIndexes(trx);
  });
}

/**
 * Back to migration 0007's shape: only when every entry is billing's (an order and one of its three kinds); entries
 * of other sources would have nowhere to go, so the migration then refuses.
 */
async function down(db: AnyDb, dialect: Dialect): Promise<void> {
  const foreign = await db
    .selectFrom('points_journal')
    .select('id')
    .where((eb) =>
      eb.or([eb('order_id', 'is', null), eb('source_kind', 'not in', ['recharge', 'spend', 'reversal'])]),
    )
    .executeTakeFirst();
  if (foreign) throw new Error('points_journal holds entries of other sources than billing: not reverted');
  if (dialect === 'postgres') {
    await db.schema.alterTable('points_journal').addColumn('kind', 'varchar(10)').execute();
    await sql`update points_journal set kind = source_kind`.execute(db);
    await db.schema
      .alterTable('points_journal')
      .alterColumn('kind', (c) => c.setNotNull())
      .execute();
    await db.schema.dropIndex('points_journal_source').execute();
    await db.schema.dropIndex('points_journal_order').execute();
    await db.schema.alterTable('points_journal').dropColumn('source_kind').execute();
    await db.schema.alterTable('points_journal').dropColumn('source_ref').execute();
    await db.schema
      .alterTable('points_journal')
      .alterColumn('order_id', (c) => c.setNotNull())
      .execute();
    await db.schema
      .createIndex('points_journal_once')
      .on('points_journal')
      .columns(['order_id', 'kind'])
      .unique()
      .execute();
    await db.schema
      .alterTable('billing_notifications')
      .alterColumn('provider', (c) => c.setDataType('varchar(10)'))
      .execute();
    return;
  }
  await db.transaction().execute(async (trx) => {
    await idColumn(dialect)(trx.schema.createTable('points_journal_prev'))
      .addColumn('user_id', 'bigint', ownedByUser)
      .addColumn('order_id', 'bigint', (c) => c.notNull().references('billing_orders.id').onDelete('cascade'))
      .addColumn('kind', 'varchar(10)', notNull)
      .addColumn('points', 'bigint', notNull)
      .addColumn('balance_after', 'bigint', notNull)
      .$call(createdAt)
      .execute();
    await sql`insert into points_journal_prev (id, user_id, order_id, kind, points, balance_after, created_at)
      select id, user_id, order_id, source_kind, points, balance_after, created_at from points_journal`.execute(
      trx,
    );
    await trx.schema.dropTable('points_journal').execute();
    await trx.schema.alterTable('points_journal_prev').renameTo('points_journal').execute();
    await trx.schema
      .createIndex('points_journal_once')
      .on('points_journal')
      .columns(['order_id', 'kind'])
      .unique()
      .execute();
    await trx.schema
      .createIndex('points_journal_user')
      .on('points_journal')
      .columns(['user_id', 'id'])
      .execute();
  });
}

/** The migration for `dialect`. */
export function pointsSources(dialect: Dialect): Migration {
  return {
    async up(db: AnyDb) {
      if (dialect === 'postgres') await upPostgres(db);
      else await upSqlite(db, dialect);
    },
    async down(db: AnyDb) {
      await down(db, dialect);
    },
  };
}
