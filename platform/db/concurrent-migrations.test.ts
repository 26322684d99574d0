/**
 * Several platform processes starting together against one database (decision 040): each runs the migrations;
 * one applies them while the others wait (PostgreSQL: Kysely's advisory lock) or retry (SQLite: the loser's
 * transaction rolls back) and then find nothing to do — every migration is recorded exactly once and none fails.
 * Four connections race on a fresh database of each dialect.
 */
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../tests/support/platform.ts';
import { migrateToLatest, openDatabase } from './database.ts';
import { migrationProvider } from './migrations/index.ts';

describe('migrations started by four processes at once', () => {
  it.each(['sqlite', 'postgres'] as const)('apply once on %s', async (dialect) => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-migrate-'));
    const pgDb = dialect === 'postgres' ? await createTestDatabase() : null;
    const target =
      dialect === 'sqlite'
        ? ({ dialect: 'sqlite', file: path.join(dir, 'cunzheng.db') } as const)
        : ({ dialect: 'postgres', url: pgDb!.url } as const);
    const dbs = Array.from({ length: 4 }, () => openDatabase(target));
    try {
      const outcomes = await Promise.allSettled(dbs.map((d) => migrateToLatest(d)));
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
      const names = Object.keys(await migrationProvider(dialect).getMigrations()).sort();
      const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
        dbs[0]!.db,
      );
      expect(rows.map((r) => r.name)).toEqual(names);
    } finally {
      await Promise.all(dbs.map((d) => d.close()));
      await pgDb?.drop();
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
});
