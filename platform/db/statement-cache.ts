/**
 * Prepared statements kept for reuse on SQLite. Kysely's SQLite driver asks better-sqlite3 to prepare every query
 * it runs, and preparing (parsing and planning the SQL) cost more than running most of the platform's queries. This
 * wraps the better-sqlite3 database as Kysely's `SqliteDatabase` and keeps the latest `MAX_STATEMENTS` distinct
 * SQL texts prepared. A statement still being iterated (a streamed query) is `busy` and cannot run again meanwhile;
 * such a request gets a fresh, uncached statement. SQLite re-prepares a kept statement by itself after a schema
 * change (sqlite3_prepare_v2).
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';
import { LRUCache } from 'lru-cache';

/** Distinct SQL texts kept prepared (the platform issues a few hundred; `in (…)` lists of other lengths add more). */
export const MAX_STATEMENTS = 1000;

/** `sqlite` as Kysely's SQLite database, with its prepared statements reused by SQL text. */
export function withStatementCache(sqlite: BetterSqlite3.Database): SqliteDatabase {
  const statements = new LRUCache<string, BetterSqlite3.Statement>({ max: MAX_STATEMENTS });
  return {
    close: () => {
      statements.clear();
      sqlite.close();
    },
    prepare: (sql: string) => {
      const kept = statements.get(sql);
      if (kept && !kept.busy) return kept;
      const fresh = sqlite.prepare(sql);
      if (!kept) statements.set(sql, fresh);
      return fresh;
    },
  };
}
