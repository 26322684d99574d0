import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '~': new URL('./app', import.meta.url).pathname } },
  test: {
    include: ['{contract,platform,server,app,tests/integration}/**/*.test.{ts,tsx}'],
    // Fails a test on an unexpected console.error (allowConsoleError() opts a test out).
    setupFiles: ['tests/support/console-guard.ts'],
    // Once per run: migrated PostgreSQL and SQLite templates that platform suites copy (tests/support/platform.ts).
    globalSetup: ['tests/support/global-setup.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
