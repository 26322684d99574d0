/**
 * Evidence lists whose cost does not grow with the data (spec 01 §2.4 list and filters; docs/decisions/054):
 * - `evidence_counts (user_id, kind, n)`: how many evidences of a kind a user has, for the unfiltered list's total;
 * - `evidence_labels (user_id, kind, label, n)`: the labels a user's evidences of a kind carry, with how many carry
 *   each, for the label filter (a label with n = 0 is removed);
 * both kept by triggers on `evidences` (insert; a label change), so every writer keeps them right, and filled from
 * the rows already there;
 * - the file-name keyword search through an index: on SQLite an FTS5 table with the trigram tokenizer over `title`
 *   and `file_name` (external content: `evidences` holds the text; substring matching, Chinese included, for
 *   keywords of 3 characters or more), on PostgreSQL pg_trgm GIN indexes on `lower(title)` and `lower(file_name)`,
 *   which serve the list's `lower(…) like '%kw%'` as it is.
 * Rows of `evidences` are never deleted (deleting evidence keeps its row), and their kind and owner never change.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../dialect.ts';

/** SQLite's triggers and full-text table. */
const SQLITE_UP = [
  `create trigger evidences_tally_insert after insert on evidences begin
     insert into evidence_counts (user_id, kind, n) values (new.user_id, new.kind, 1)
       on conflict (user_id, kind) do update set n = n + 1;
     insert into evidence_labels (user_id, kind, label, n) select new.user_id, new.kind, new.label, 1
       where new.label <> '' on conflict (user_id, kind, label) do update set n = n + 1;
   end`,
  `create trigger evidences_tally_label after update of label on evidences when old.label is not new.label begin
     update evidence_labels set n = n - 1 where user_id = old.user_id and kind = old.kind and label = old.label;
     delete from evidence_labels where user_id = old.user_id and kind = old.kind and label = old.label and n <= 0;
     insert into evidence_labels (user_id, kind, label, n) select new.user_id, new.kind, new.label, 1
       where new.label <> '' on conflict (user_id, kind, label) do update set n = n + 1;
   end`,
  `create virtual table evidences_fts using fts5(title, file_name, content='evidences', content_rowid='id',
     tokenize='trigram')`,
  `create trigger evidences_fts_insert after insert on evidences begin
     insert into evidences_fts (rowid, title, file_name) values (new.id, new.title, new.file_name);
   end`,
  `create trigger evidences_fts_update after update of title, file_name on evidences begin
     insert into evidences_fts (evidences_fts, rowid, title, file_name) values ('delete', old.id, old.title, old.file_name);
     insert into evidences_fts (rowid, title, file_name) values (new.id, new.title, new.file_name);
   end`,
  `insert into evidences_fts (evidences_fts) values ('rebuild')`,
];

/**
 * PostgreSQL's trigger functions, triggers and trigram indexes. The triggers are per statement, over transition
 * tables: a bulk insert (an import, a restore) updates each tally once, not once per row (100,000 row-level
 * upserts of one counter row took over 100 s). PostgreSQL allows no column list on a trigger with transition
 * tables, so the label trigger runs on every update of `evidences` and finds no change unless a label changed.
 * The GIN indexes are built without `fastupdate`: its pending list is scanned by every search until a vacuum
 * merges it (a no-match search took 3.9 ms at 100,000 rows with it, 0.3 ms without).
 */
const POSTGRES_UP = [
  `create or replace function evidences_tally_insert() returns trigger language plpgsql as $$
   begin
     insert into evidence_counts (user_id, kind, n)
       select user_id, kind, count(*) from inserted group by user_id, kind
       on conflict (user_id, kind) do update set n = evidence_counts.n + excluded.n;
     insert into evidence_labels (user_id, kind, label, n)
       select user_id, kind, label, count(*) from inserted where label <> '' group by user_id, kind, label
       on conflict (user_id, kind, label) do update set n = evidence_labels.n + excluded.n;
     return null;
   end $$`,
  `create or replace function evidences_tally_label() returns trigger language plpgsql as $$
   begin
     update evidence_labels l set n = l.n - c.n
       from (select o.user_id, o.kind, o.label, count(*) as n from old_rows o join new_rows w using (id)
             where o.label is distinct from w.label group by o.user_id, o.kind, o.label) c
       where l.user_id = c.user_id and l.kind = c.kind and l.label = c.label;
     delete from evidence_labels l using old_rows o join new_rows w using (id)
       where o.label is distinct from w.label and l.user_id = o.user_id and l.kind = o.kind and l.label = o.label
         and l.n <= 0;
     insert into evidence_labels (user_id, kind, label, n)
       select w.user_id, w.kind, w.label, count(*) from old_rows o join new_rows w using (id)
       where o.label is distinct from w.label and w.label <> '' group by w.user_id, w.kind, w.label
       on conflict (user_id, kind, label) do update set n = evidence_labels.n + excluded.n;
     return null;
   end $$`,
  `create trigger evidences_tally_insert after insert on evidences referencing new table as inserted
     for each statement execute function evidences_tally_insert()`,
  `create trigger evidences_tally_label after update on evidences referencing old table as old_rows
     new table as new_rows for each statement execute function evidences_tally_label()`,
  `create extension if not exists pg_trgm`,
  `create index evidences_title_trgm on evidences using gin (lower(title) gin_trgm_ops) with (fastupdate = off)`,
  `create index evidences_file_name_trgm on evidences using gin (lower(file_name) gin_trgm_ops)
     with (fastupdate = off)`,
];

/** The migration for `dialect`. */
export function evidenceSearch(dialect: Dialect): Migration {
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('evidence_counts')
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('n', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('evidence_counts_pk', ['user_id', 'kind'])
        .execute();
      await db.schema
        .createTable('evidence_labels')
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('label', 'varchar(60)', (c) => c.notNull())
        .addColumn('n', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('evidence_labels_pk', ['user_id', 'kind', 'label'])
        .execute();
      await sql`insert into evidence_counts (user_id, kind, n)
        select user_id, kind, count(*) from evidences group by user_id, kind`.execute(db);
      await sql`insert into evidence_labels (user_id, kind, label, n)
        select user_id, kind, label, count(*) from evidences where label <> '' group by user_id, kind, label`.execute(
        db,
      );
      for (const statement of dialect === 'sqlite' ? SQLITE_UP : POSTGRES_UP)
        await sql.raw(statement).execute(db);
    },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      const statements =
        dialect === 'sqlite'
          ? [
              'drop trigger if exists evidences_fts_update',
              'drop trigger if exists evidences_fts_insert',
              'drop table if exists evidences_fts',
              'drop trigger if exists evidences_tally_label',
              'drop trigger if exists evidences_tally_insert',
            ]
          : [
              'drop index if exists evidences_file_name_trgm',
              'drop index if exists evidences_title_trgm',
              'drop trigger if exists evidences_tally_label on evidences',
              'drop trigger if exists evidences_tally_insert on evidences',
              'drop function if exists evidences_tally_label()',
              'drop function if exists evidences_tally_insert()',
            ];
      for (const statement of statements) await sql.raw(statement).execute(db);
      await db.schema.dropTable('evidence_labels').ifExists().execute();
      await db.schema.dropTable('evidence_counts').ifExists().execute();
    },
  };
}
