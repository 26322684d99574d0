/**
 * Opens the platform database: SQLite through better-sqlite3 (WAL, foreign keys, busy timeout) or PostgreSQL
 * through a pg Pool, behind one Kysely instance, and runs the migrations (docs/decisions/002-platform.md).
 */
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseTarget } from '../config.ts';
import { ensurePrivateDir, ensurePrivateFile, restrictFiles } from '../../lib/private-files.ts';
import type { Dialect } from './dialect.ts';
import { migrationProvider } from './migrations/index.ts';
import { withStatementCache } from './statement-cache.ts';
import { tracedDialect } from '../../lib/tracing.ts';
import type { Database } from './schema.ts';
import type {} from './schema-areas.ts'; // every area's tables in `Database` (decision 060)

/** An open database: the Kysely handle, which dialect it speaks, and how to close it. */
export interface PlatformDb {
  db: Kysely<Database>;
  dialect: Dialect;
  /** Closes the pool / file handle. Idempotent. */
  close(): Promise<void>;
  /** PostgreSQL: the pool's connections (all, idle) and clients waiting for one; absent on SQLite. */
  poolStats?: () => { total: number; idle: number; waiting: number };
}

/** SQLite page cache per connection, KiB (PRAGMA cache_size with a negative value counts KiB). */
const SQLITE_CACHE_KIB = 64 * 1024;

/** PostgreSQL INT8 (OID 20): parsed as a JS number so both dialects return numbers for ids, sizes and counts. */
const PG_INT8_OID = 20;

/**
 * Opens `target`. For SQLite the parent directory is created (0700) and the file is owner-only (0600). Does not migrate: call {@link migrateToLatest}.
 * `onPoolError` receives errors of idle PostgreSQL connections (the pool replaces them).
 * @throws when the SQLite file cannot be opened; PostgreSQL connects lazily (first query).
 */
export function openDatabase(
  target: DatabaseTarget,
  onPoolError: (err: Error) => void = () => undefined,
): PlatformDb {
  if (target.dialect === 'sqlite') {
    // Owner-only (0700 folder, 0600 file); SQLite gives its -wal and -shm the database file's mode.
    ensurePrivateDir(path.dirname(target.file));
    ensurePrivateFile(target.file);
    const sqlite = new SqliteDatabase(target.file);
    sqlite.pragma('journal_mode = WAL');
    restrictFiles(`${target.file}-wal`, `${target.file}-shm`);
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    // FULL: a commit returns once the WAL is on the disk, so a save the user was told about survives a power cut, as
    // on PostgreSQL (NORMAL may lose the last commits). Saves share commits (group commit, decision 005): 1,000,000
    // leaves, 64 saves at once 9,664/s; one client alone 2,002/s (3,436 with NORMAL), bench/ledger.ts.
    sqlite.pragma('synchronous = FULL');
    // 64 MiB of page cache instead of SQLite's 2 MiB: a save walks the ledger's and the evidence indexes, which at
    // a million entries no longer fit in 2 MiB, and every miss was a read() (bench/ledger at 1,000,000 leaves:
    // one-transaction appends 2,771 → 4,472/s, inclusion proofs p50 0.37 → 0.16 ms). Pages are cached as they are
    // read, so a small database uses little of it.
    sqlite.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
    const db = new Kysely<Database>({
      dialect: tracedDialect(new SqliteDialect({ database: withStatementCache(sqlite) }), 'sqlite'),
    });
    return { db, dialect: 'sqlite', close: once(() => db.destroy()) };
  }
  const pool = new pg.Pool({
    connectionString: target.url,
    max: 10,
    // Idle connections live 5 minutes instead of pg's 10 s: a new connection is a forked PostgreSQL backend whose
    // catalog caches start cold, and with 10 s the pools dropped and reopened them between bursts of load
    // (bench:scale saw backends come and go within one 8 s measurement).
    idleTimeoutMillis: 300_000,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === PG_INT8_OID ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) as never,
    },
  });
  // An idle client can fail (server restart, admin termination); without a listener pg would crash the process.
  pool.on('error', onPoolError);
  const db = new Kysely<Database>({ dialect: tracedDialect(new PostgresDialect({ pool }), 'postgresql') });
  return {
    db,
    dialect: 'postgres',
    close: once(() => db.destroy()),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

/** Attempts of {@link migrateToLatest} on SQLite, and the wait before the next one (× the attempt, ms). */
const SQLITE_MIGRATION_ATTEMPTS = 5;
const SQLITE_MIGRATION_RETRY_MS = 100;

/**
 * Applies every pending migration of platform/db/migrations in order, once even when several processes start
 * together (decision 040): on PostgreSQL Kysely's migrator holds an advisory lock, so the others wait and then
 * find nothing to do. On SQLite it takes no lock across processes; there the loser's transaction fails (a table
 * already exists) and rolls back whole (SQLite's DDL is transactional), and it simply tries again a little later,
 * when the winner has committed.
 * @throws the migration error (the failing migration rolled back) when it persists
 */
export async function migrateToLatest(pdb: PlatformDb): Promise<void> {
  const migrator = new Migrator({ db: pdb.db, provider: migrationProvider(pdb.dialect) });
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    if (!error) return;
    if (pdb.dialect === 'sqlite' && attempt < SQLITE_MIGRATION_ATTEMPTS) {
      await new Promise((resolve) => setTimeout(resolve, SQLITE_MIGRATION_RETRY_MS * attempt));
      continue;
    }
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, {
      cause: error,
    });
  }
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let p: Promise<void> | undefined;
  return () => (p ??= fn());
}
