/**
 * Evidence kinds (spec 01 §2.3, §3; docs/decisions/006-evidence-kinds.md). Adds to `evidences`:
 * - `kind` file | hash | property | app (not null, default 'file', so earlier rows are file evidence);
 * - `deleted_at` unix seconds when the owner deleted the stored data (null while kept), and `purged_at` unix seconds
 *   when the bytes were actually removed from storage (null until then; the start-up sweep finishes the gap);
 * - the app-capture device columns `app_type, config_name, config_model_name, config_version, config_processor,
 *   config_core` (nullable text);
 * - the user-data summary `data_lines` (rows without the header) and `data_fields` (JSON text of
 *   `[{fieldName, exampleValue}]`, example values cut to 10 characters).
 * Plus indexes for the per-kind lists, the public lookup by SHA-256 and the sweep.
 *
 * SQLite accepts one ADD COLUMN per ALTER TABLE, so every column is its own statement (same on PostgreSQL).
 */
import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../dialect.ts';

const TEXT_COLUMNS = [
  ['app_type', 'varchar(100)'],
  ['config_name', 'varchar(200)'],
  ['config_model_name', 'varchar(200)'],
  ['config_version', 'varchar(100)'],
  ['config_processor', 'varchar(200)'],
  ['config_core', 'varchar(200)'],
] as const;

/** The migration for `dialect` (the statements are the same on both). */
export function evidenceKinds(_dialect: Dialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('evidences')
        .addColumn('kind', 'varchar(16)', (c) => c.notNull().defaultTo('file'))
        .execute();
      await db.schema.alterTable('evidences').addColumn('deleted_at', 'bigint').execute();
      await db.schema.alterTable('evidences').addColumn('purged_at', 'bigint').execute();
      for (const [name, type] of TEXT_COLUMNS) {
        await db.schema.alterTable('evidences').addColumn(name, type).execute();
      }
      await db.schema.alterTable('evidences').addColumn('data_lines', 'integer').execute();
      await db.schema.alterTable('evidences').addColumn('data_fields', 'text').execute();
      await db.schema
        .createIndex('evidences_user_kind_created')
        .on('evidences')
        .columns(['user_id', 'kind', 'created_at'])
        .execute();
      await db.schema.createIndex('evidences_sha256').on('evidences').column('sha256').execute();
      await db.schema.createIndex('evidences_deleted_at').on('evidences').column('deleted_at').execute();
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      for (const index of ['evidences_deleted_at', 'evidences_sha256', 'evidences_user_kind_created']) {
        await db.schema.dropIndex(index).ifExists().execute();
      }
      for (const name of [
        'data_fields',
        'data_lines',
        ...TEXT_COLUMNS.map(([n]) => n).reverse(),
        'purged_at',
        'deleted_at',
        'kind',
      ]) {
        await db.schema.alterTable('evidences').dropColumn(name).execute();
      }
    },
  };
}
