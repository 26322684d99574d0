import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '~': new URL('./app', import.meta.url).pathname } },
  test: {
    include: ['{contract,platform,server,app,tests/integration}/**/*.test.{ts,tsx}'],
    // Fails a test on an unexpected console.error (allowConsoleError() opts a test out).
    setupFiles: ['tests/support/console-guard.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
