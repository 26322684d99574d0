/**
 * The platform's `Database` as Kysely sees it, and the column helpers the areas' table types share
 * (docs/decisions/060-operator-routes-and-tables.md).
 *
 * The convention: every area declares its own tables in `platform/<area>/schema.ts` (the shared services' in
 * `platform/core/schema.ts`): the table interfaces, their row types, and one block that merges the tables into this
 * interface,
 *
 *     declare module '../db/schema.ts' {
 *       interface Database {
 *         <table>: <Table>;
 *       }
 *     }
 *
 * and adds its module to the one list in platform/db/schema-areas.ts, which platform/db/database.ts imports, so every
 * program that opens the database sees every table. No table is declared here. Code that queries takes `Database`
 * from here and a table's row type from the area that owns the table.
 *
 * Column conventions of every area: times are unix seconds (integers) on both dialects unless a docstring says
 * otherwise; booleans are 0/1 integers; PostgreSQL BIGINTs are parsed to JS numbers (database.ts), so one set of types
 * serves SQLite and PostgreSQL. A table only one dialect has (the SQLite job queue's `platform_jobs`,
 * platform/jobs/schema.ts) is declared by its area but not merged here.
 */
import type { ColumnType } from 'kysely';

/**
 * Every table of the platform, merged in by the areas' `schema.ts` (listed in platform/db/schema-areas.ts). Empty
 * here by design: an area adds its tables in its own folder, never in this file.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging (decision 060)
export interface Database {}

/**
 * A column with a database default (or NULL) that an insert may leave out: read and updated as `T`, optional on
 * insert (`Defaulted<number>` for `... NOT NULL DEFAULT 0`, `Defaulted<number | null>` for a nullable column).
 */
export type Defaulted<T> = ColumnType<T, T | undefined, T>;
