/**
 * Vitest global setup: once per run, builds migrated database templates so that platform suites
 * (`forEachDialect` in tests/support/platform.ts) start from a database with every migration applied instead of
 * running all migrations per file and dialect:
 * - PostgreSQL: a template database `cz_tpl_<random>` on the admin server (TEST_PG_URL), migrated and then left
 *   without connections, so suites can `create database X template cz_tpl_…` (a file copy, milliseconds);
 * - SQLite: a migrated `cunzheng.sqlite` in a temp directory, copied into each suite's DATA_DIR;
 * - a DATA_DIR holding only the Alipay and WeChat Pay sandboxes' key files (four RSA-2048 keys, the slowest part of
 *   a platform start), copied into each suite's DATA_DIR so the sandboxes load instead of generating them. Suites
 *   that test key creation use their own directories, not `forEachDialect`.
 * All are removed at teardown. Only the dialects named in PLATFORM_TEST_DIALECTS are prepared. The names are handed
 * to the workers through Vitest's `provide`/`inject` (key `platformTemplates`).
 */
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { loadOrCreateWechatPaySandboxKeys } from '../../platform/billing/wechatpay/sandbox-keys.ts';
import { migrateToLatest, openDatabase } from '../../platform/db/database.ts';
import { loadOrCreateSandboxKeys } from '../../platform/kyc/alipay-sandbox-keys.ts';
import { ADMIN_URL, DIALECTS, databaseUrl, type PlatformTemplates } from './templates.ts';

/** Runs `sql` on the admin connection. */
async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** Creates the migrated templates and provides their names. @returns the teardown that removes them */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const templates: PlatformTemplates = {};
  const cleanups: (() => Promise<void>)[] = [];
  try {
    const root = await fsp.mkdtemp(path.join(os.tmpdir(), 'cz-template-'));
    cleanups.push(() => fsp.rm(root, { recursive: true, force: true }));
    templates.keysDataDir = path.join(root, 'data');
    await Promise.all([
      loadOrCreateSandboxKeys(templates.keysDataDir),
      loadOrCreateWechatPaySandboxKeys(templates.keysDataDir),
    ]);
    if (DIALECTS.includes('postgres')) {
      const name = `cz_tpl_${randomBytes(6).toString('hex')}`;
      await admin(`create database ${name}`);
      cleanups.push(() => admin(`drop database if exists ${name} with (force)`));
      const pdb = openDatabase({ dialect: 'postgres', url: databaseUrl(name) });
      try {
        await migrateToLatest(pdb);
      } finally {
        await pdb.close();
      }
      templates.postgres = name;
    }
    if (DIALECTS.includes('sqlite')) {
      const file = path.join(root, 'db', 'cunzheng.sqlite');
      const pdb = openDatabase({ dialect: 'sqlite', file });
      try {
        await migrateToLatest(pdb);
      } finally {
        // Closing the last connection checkpoints the WAL into the main file, which is then self-contained.
        await pdb.close();
      }
      templates.sqlite = file;
    }
  } catch (err) {
    for (const c of cleanups.reverse()) await c();
    throw err;
  }
  project.provide('platformTemplates', templates);
  return async () => {
    for (const c of cleanups.reverse()) await c();
  };
}
