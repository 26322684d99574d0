/** Prepared statements reused by SQL text on SQLite (platform/db/statement-cache.ts). */
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from './statement-cache.ts';

describe('withStatementCache', () => {
  it('prepares a SQL text once and reuses it, with the same results as fresh statements', () => {
    const sqlite = new SqliteDatabase(':memory:');
    const cached = withStatementCache(sqlite);
    sqlite.exec('create table t (id integer primary key, v text)');
    const insert = cached.prepare('insert into t (v) values (?)');
    expect(cached.prepare('insert into t (v) values (?)')).toBe(insert);
    insert.run(['a']);
    cached.prepare('insert into t (v) values (?)').run(['b']);
    expect(cached.prepare('select v from t order by id').all([])).toEqual([{ v: 'a' }, { v: 'b' }]);
    // a statement prepared before a schema change still runs after it (SQLite re-prepares it)
    const select = cached.prepare('select * from t order by id');
    sqlite.exec('alter table t add column w text');
    expect(cached.prepare('select * from t order by id')).toBe(select);
    expect(select.all([])).toEqual([
      { id: 1, v: 'a', w: null },
      { id: 2, v: 'b', w: null },
    ]);
    cached.close();
    expect(sqlite.open).toBe(false);
  });

  it('gives a fresh statement while the kept one is being iterated', () => {
    const sqlite = new SqliteDatabase(':memory:');
    const cached = withStatementCache(sqlite);
    sqlite.exec('create table t (id integer primary key); insert into t values (1), (2)');
    const kept = cached.prepare('select id from t order by id');
    const outer = kept.iterate([]);
    expect(outer.next().value).toEqual({ id: 1 });
    const inner = cached.prepare('select id from t order by id');
    expect(inner).not.toBe(kept);
    expect(inner.all([])).toEqual([{ id: 1 }, { id: 2 }]);
    expect(outer.next().value).toEqual({ id: 2 });
    outer.return?.();
    expect(cached.prepare('select id from t order by id')).toBe(kept);
    cached.close();
  });

  it('serves Kysely: queries, and a streamed query followed by the same query', async () => {
    const sqlite = new SqliteDatabase(':memory:');
    const db = new Kysely<{ t: { id: number } }>({
      dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
    });
    await sql`create table t (id integer primary key)`.execute(db);
    await db
      .insertInto('t')
      .values([{ id: 1 }, { id: 2 }, { id: 3 }])
      .execute();
    const query = db.selectFrom('t').select('id').orderBy('id');
    const seen: number[] = [];
    for await (const row of query.stream()) seen.push(row.id);
    expect(seen).toEqual([1, 2, 3]);
    expect(await query.execute()).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    await db.destroy();
    expect(sqlite.open).toBe(false);
  });
});
