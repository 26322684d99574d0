/**
 * Account area (spec 01 §2.5–2.7, §3; spec 02 §3 Address; docs/decisions/009-account-area.md): `notifications`,
 * `signatures` (seal images, the bytes in `${dataDir}/signatures`) and `addresses` (delivery addresses). Every row
 * belongs to one user and is deleted with them. Times are unix seconds (BIGINT); booleans 0/1 integers; sizes bytes.
 */
import type { Kysely, Migration } from 'kysely';
import { createdAt, idColumn, notNull, ownedByUser, timestamps } from '../columns.ts';
import type { Dialect } from '../dialect.ts';

/** The migration for `dialect` (auto-increment keys differ; the rest is the same). */
export function accountArea(dialect: Dialect): Migration {
  const idCol = idColumn(dialect);
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await idCol(db.schema.createTable('notifications'))
        .addColumn('user_id', 'bigint', ownedByUser)
        .addColumn('content', 'varchar(500)', notNull)
        .addColumn('is_read', 'integer', (c) => c.notNull().defaultTo(0))
        .$call(createdAt)
        .execute();
      await db.schema
        .createIndex('notifications_user_created')
        .on('notifications')
        .columns(['user_id', 'created_at'])
        .execute();

      await idCol(db.schema.createTable('signatures'))
        .addColumn('user_id', 'bigint', ownedByUser)
        .addColumn('name', 'varchar(60)', notNull)
        .addColumn('storage_key', 'varchar(100)', notNull)
        .addColumn('file_size', 'bigint', notNull)
        .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
        .$call(createdAt)
        .execute();
      await db.schema.createIndex('signatures_user').on('signatures').column('user_id').execute();

      await idCol(db.schema.createTable('addresses'))
        .addColumn('user_id', 'bigint', ownedByUser)
        .addColumn('name', 'varchar(60)', notNull)
        .addColumn('province', 'varchar(60)', notNull)
        .addColumn('city', 'varchar(60)', notNull)
        .addColumn('area', 'varchar(60)', notNull)
        .addColumn('address', 'varchar(300)', notNull)
        .addColumn('phone_number', 'varchar(20)', notNull)
        .addColumn('email', 'varchar(120)', notNull)
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
        .$call(timestamps)
        .execute();
      await db.schema.createIndex('addresses_user').on('addresses').column('user_id').execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      for (const t of ['addresses', 'signatures', 'notifications']) await db.schema.dropTable(t).execute();
    },
  };
}
