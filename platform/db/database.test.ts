/** The SQLite connection's settings (platform/db/database.ts): what a commit promises is what the platform says. */
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type PlatformDb } from './database.ts';

describe('openDatabase (SQLite)', () => {
  let pdb: PlatformDb | null = null;
  let dir = '';
  afterEach(async () => {
    await pdb?.close();
    if (dir) await fsp.rm(dir, { recursive: true, force: true });
  });

  it('commits durably: WAL with synchronous FULL (a committed save survives a power cut), an owner-only file', async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-db-'));
    const file = path.join(dir, 'data', 'platform.db');
    pdb = openDatabase({ dialect: 'sqlite', file });
    const pragma = async (name: string) =>
      Object.values((await sql.raw(`PRAGMA ${name}`).execute(pdb!.db)).rows[0] as object)[0];
    expect(await pragma('journal_mode')).toBe('wal');
    // 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA
    expect(await pragma('synchronous')).toBe(2);
    expect((await fsp.stat(file)).mode & 0o777).toBe(0o600);
  });
});
