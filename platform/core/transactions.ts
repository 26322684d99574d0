/**
 * Write transactions that must not interleave with another writer of the same thing, on both dialects.
 * SQLite has one writer at a time: `BEGIN IMMEDIATE` takes the write lock up front (a deferred transaction could
 * fail to upgrade under contention). PostgreSQL takes a row or advisory lock inside an ordinary transaction.
 */
import { sql, type Kysely } from 'kysely';
import type { PlatformDb } from '../db/database.ts';
import type { Database } from '../db/schema.ts';

/**
 * Runs `fn` in a SQLite `BEGIN IMMEDIATE` transaction on one connection: commits when it resolves, rolls back and
 * rethrows when it throws. Only for a SQLite `pdb`.
 */
export function sqliteImmediate<T>(pdb: PlatformDb, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return pdb.db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      const result = await fn(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (err) {
      await sql`rollback`.execute(conn).catch(() => undefined);
      throw err;
    }
  });
}

/**
 * Runs `fn` in a transaction serialized against every other {@link withUserTransaction} of the same user (also
 * across processes sharing the database): PostgreSQL locks the user's row `FOR UPDATE`, SQLite holds the write lock.
 * Used where a per-user rule spans rows: at most 5 addresses, at most one default seal or address.
 * @throws whatever `fn` throws, after rolling back
 */
export function withUserTransaction<T>(
  pdb: PlatformDb,
  userId: number,
  fn: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  if (pdb.dialect === 'sqlite') return sqliteImmediate(pdb, fn);
  return pdb.db.transaction().execute(async (trx) => {
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
    return fn(trx);
  });
}
