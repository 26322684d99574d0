/**
 * First schema: users, tokens, captchas, SMS codes, failed-attempt counters, evidences and the hash-chained ledger
 * (docs/decisions/002-platform.md). Column helpers from ../columns.ts: times are unix seconds in BIGINT columns;
 * sizes are bytes in BIGINT.
 */
import type { Kysely, Migration } from 'kysely';
import { createdAt, idColumn, notNull, ownedByUser } from '../columns.ts';
import type { Dialect } from '../dialect.ts';

/** The migration for `dialect`. */
export function initial(dialect: Dialect): Migration {
  const idCol = idColumn(dialect);
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await idCol(db.schema.createTable('users'))
        .addColumn('mobile', 'varchar(20)', (c) => c.notNull().unique())
        .addColumn('password_hash', 'varchar(255)', notNull)
        .addColumn('user_status', 'varchar(2)', (c) => c.notNull().defaultTo('1'))
        .addColumn('account_type', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('auth_type', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('user_name', 'varchar(100)', (c) => c.notNull().defaultTo(''))
        .addColumn('points', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('extract_code', 'varchar(30)', notNull)
        .addColumn('check_remark', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .$call(createdAt)
        .execute();

      await idCol(db.schema.createTable('tokens'))
        .addColumn('token_hash', 'char(64)', (c) => c.notNull().unique())
        .addColumn('user_id', 'bigint', ownedByUser)
        .$call(createdAt)
        .addColumn('expires_at', 'bigint', notNull)
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema.createIndex('tokens_user_id').on('tokens').column('user_id').execute();

      await db.schema
        .createTable('captchas')
        .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('answer', 'varchar(16)', notNull)
        .addColumn('expires_at', 'bigint', notNull)
        .addColumn('consumed', 'integer', (c) => c.notNull().defaultTo(0))
        .$call(createdAt)
        .execute();

      await idCol(db.schema.createTable('sms_codes'))
        .addColumn('mobile', 'varchar(20)', notNull)
        .addColumn('purpose', 'varchar(16)', notNull)
        .addColumn('code', 'varchar(6)', notNull)
        .addColumn('sent_at', 'bigint', notNull)
        .addColumn('expires_at', 'bigint', notNull)
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('consumed', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex('sms_codes_mobile')
        .on('sms_codes')
        .columns(['mobile', 'sent_at'])
        .execute();

      await idCol(db.schema.createTable('evidences'))
        .addColumn('baoquan', 'varchar(40)', (c) => c.notNull().unique())
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('title', 'varchar(200)', notNull)
        .addColumn('label', 'varchar(60)', (c) => c.notNull().defaultTo(''))
        .addColumn('file_name', 'varchar(255)', notNull)
        .addColumn('file_size', 'bigint', notNull)
        .addColumn('file_type', 'integer', notNull)
        .addColumn('mime', 'varchar(127)', notNull)
        .addColumn('sha256', 'char(64)', notNull)
        .addColumn('storage_key', 'varchar(255)', notNull)
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
        .$call(createdAt)
        .execute();
      await db.schema
        .createIndex('evidences_user_created')
        .on('evidences')
        .columns(['user_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('attempt_counters')
        .addColumn('key', 'char(64)', (c) => c.primaryKey())
        .addColumn('count', 'integer', notNull)
        .addColumn('window_start', 'bigint', notNull)
        .execute();

      await db.schema
        .createTable('ledger_entries')
        .addColumn('seq', 'bigint', (c) => c.primaryKey())
        .addColumn('evidence_id', 'bigint', (c) => c.notNull().unique().references('evidences.id'))
        .addColumn('prev_hash', 'char(64)', (c) => c.notNull().unique())
        .addColumn('record_hash', 'char(64)', notNull)
        .addColumn('entry_hash', 'char(64)', (c) => c.notNull().unique())
        .addColumn('record_json', 'text', notNull)
        .$call(createdAt)
        .execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      for (const t of [
        'ledger_entries',
        'attempt_counters',
        'evidences',
        'sms_codes',
        'captchas',
        'tokens',
        'users',
      ]) {
        await db.schema.dropTable(t).ifExists().execute();
      }
    },
  };
}
