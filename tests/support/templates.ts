/**
 * Shared by the Vitest global setup (tests/support/global-setup.ts) and the platform harness
 * (tests/support/platform.ts): the admin PostgreSQL URL, the dialects under test and the shape of the migrated
 * templates the global setup provides.
 *
 * Env: TEST_PG_URL (default postgres://postgres@127.0.0.1:5432/test) is the admin connection used to create
 * databases; PLATFORM_TEST_DIALECTS (default "sqlite,postgres") narrows the dialects.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { testDialects, testPostgresUrl } from './environment.ts';

export type TestDialect = 'sqlite' | 'postgres';

/** The admin connection URL (TEST_PG_URL). */
export const ADMIN_URL = testPostgresUrl();

/** The dialects platform suites run on (PLATFORM_TEST_DIALECTS). */
export const DIALECTS: TestDialect[] = testDialects();

/** What the global setup prepared for one run. */
export interface PlatformTemplates {
  /** The migrated PostgreSQL template database's name (when postgres is under test). */
  postgres?: string;
  /** The migrated SQLite template file's path (when sqlite is under test). */
  sqlite?: string;
  /** A DATA_DIR holding only the payment sandboxes' RSA key files, copied into each suite's DATA_DIR. */
  keysDataDir?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Provided by tests/support/global-setup.ts, read by `forEachDialect`. */
    platformTemplates: PlatformTemplates;
  }
}

/** The URL of database `name` on the admin server. */
export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Seeds a fresh DATA_DIR from the run's templates (when the global setup provided them): the sandbox key files,
 * and the migrated SQLite file as `cunzheng.sqlite` unless `sqlite` is false (the platform then uses PostgreSQL or
 * another file).
 */
export async function seedDataDir(
  templates: PlatformTemplates | undefined,
  dataDir: string,
  sqlite: boolean,
): Promise<void> {
  if (templates?.keysDataDir) await fsp.cp(templates.keysDataDir, dataDir, { recursive: true });
  if (sqlite && templates?.sqlite)
    await fsp.copyFile(templates.sqlite, path.join(dataDir, 'cunzheng.sqlite'));
}
