/**
 * Playwright against a running container of the image (scripts/test-container.sh starts it and sets
 * CONTAINER_BASE_URL): the preserve flow (tests/container/preserve-flow.spec.ts) with JavaScript off, in Debian's
 * Chromium like tests/e2e (nothing downloads a browser). No web server of its own: the container is the server under
 * test.
 */
import { defineConfig, devices } from '@playwright/test';
import { existsSync } from 'node:fs';

const baseURL = process.env.CONTAINER_BASE_URL;
if (!baseURL) throw new Error('CONTAINER_BASE_URL is not set: run `npm run test:container`');

const browser =
  process.env.E2E_CHROMIUM_PATH ??
  (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../../test-results/container',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    ...devices['Desktop Chrome'],
    baseURL,
    javaScriptEnabled: false,
    acceptDownloads: true,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    trace: 'off',
    launchOptions: {
      executablePath: browser,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
    },
  },
});
