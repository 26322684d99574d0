/**
 * Column helpers every migration uses instead of redefining them: the auto-increment `id` key (spelled differently
 * on SQLite and PostgreSQL), NOT NULL, the owning-user reference, and the unix-second timestamps. Times are unix
 * seconds in BIGINT columns; sizes bytes in BIGINT (docs/decisions/002-platform.md).
 */
import type { ColumnDefinitionBuilder, CreateTableBuilder } from 'kysely';
import type { Dialect } from './dialect.ts';

/** A table under construction (migrations are written against `Kysely<any>`: the schema of their time). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Table = CreateTableBuilder<any, any>;

/**
 * Adds the `id` primary key of `dialect` to a new table: `INTEGER PRIMARY KEY AUTOINCREMENT` on SQLite (ids are
 * never reused), `BIGSERIAL PRIMARY KEY` on PostgreSQL.
 */
export function idColumn(dialect: Dialect): (t: Table) => Table {
  return (t) =>
    dialect === 'sqlite'
      ? t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
      : t.addColumn('id', 'bigserial', (c) => c.primaryKey());
}

/** Column modifier: NOT NULL. */
export const notNull = (c: ColumnDefinitionBuilder): ColumnDefinitionBuilder => c.notNull();

/** Column modifier of a `user_id` column: NOT NULL, references `users.id`, deleted with the user. */
export const ownedByUser = (c: ColumnDefinitionBuilder): ColumnDefinitionBuilder =>
  c.notNull().references('users.id').onDelete('cascade');

/** Adds `created_at BIGINT NOT NULL` (unix seconds). */
export const createdAt = (t: Table): Table => t.addColumn('created_at', 'bigint', notNull);

/** Adds `created_at` and `updated_at`, both `BIGINT NOT NULL` (unix seconds). */
export const timestamps = (t: Table): Table => createdAt(t).addColumn('updated_at', 'bigint', notNull);
