import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '~': new URL('./app', import.meta.url).pathname } },
  test: {
    include: ['{contract,lib,platform,server,app,witness,scripts,tests/integration}/**/*.test.{ts,tsx}'],
    // Fails a test on an unexpected console.error (allowConsoleError() opts a test out).
    setupFiles: ['tests/support/console-guard.ts'],
    // Once per run: migrated PostgreSQL and SQLite templates that platform suites copy (tests/support/platform.ts).
    globalSetup: ['tests/support/global-setup.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Test files share their fork's module registry instead of re-importing every module per file (import time
    // 40 s → 6 s, the suite 91 s → 61 s on 2 cores). Safe here: no test mocks modules, stubs globals or writes
    // process.env; each suite starts its own servers and databases (tests/support).
    isolate: false,
    // Every suite's gateways see clients from 127.0.0.1 only, and suites log in and look up far more often than a
    // person does: the gateway's per-IP limit (server/http/rate-limit.ts, default 60 a minute) is set high for them.
    // server/http/rate-limit.test.ts and tests/integration/crash-consistency.test.ts set their own.
    env: { RATE_LIMIT_PER_MINUTE: '100000' },
    // The suites wait on PostgreSQL, sockets and child processes more than on the CPU: on the 2-core machines the
    // default (cores - 1 = one fork) left a core idle; two forks took the suite from ~178 s to ~87 s.
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
