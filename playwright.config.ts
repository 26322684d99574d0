/**
 * End-to-end tests: Debian's Chromium (/usr/bin/chromium; nothing downloads a browser), each flow once with
 * JavaScript on and once with it off. The server is the production build started the way `npm start` does, on a
 * fresh DATA_DIR, with test hooks enabled (APP_ENV=test) so a test can read the captcha answer, and a fixed
 * SESSION_SECRET so that the login fixtures (tests/support/e2e-fixtures.ts) can seal session cookies themselves.
 */
import { defineConfig, devices } from '@playwright/test';
import path from 'node:path';
import os from 'node:os';

const PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_DATA_DIR = process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), `cunzheng-e2e-${PORT}`);
process.env.E2E_DATA_DIR = E2E_DATA_DIR;
/** The e2e server's cookie-session secret (at least 32 characters), shared with the login fixtures. */
export const E2E_SESSION_SECRET =
  process.env.E2E_SESSION_SECRET ?? 'cunzheng-e2e-session-secret-not-for-production';
process.env.E2E_SESSION_SECRET = E2E_SESSION_SECRET;

const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? [['list'], ['json', { outputFile: 'test-results/e2e.json' }]] : [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: 'retain-on-failure',
    acceptDownloads: true,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
  },
  projects: [
    { name: 'js-on', use: { ...devices['Desktop Chrome'], launchOptions, javaScriptEnabled: true } },
    { name: 'js-off', use: { ...devices['Desktop Chrome'], launchOptions, javaScriptEnabled: false } },
  ],
  webServer: {
    command: `rm -rf ${E2E_DATA_DIR} && node --import tsx server/main.ts`,
    url: `http://localhost:${PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'production',
      APP_ENV: 'test',
      TEST_HOOKS: '1',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: E2E_DATA_DIR,
      SESSION_SECRET: E2E_SESSION_SECRET,
      LOG_LEVEL: 'warn',
      // every spec registers its users from one loopback address
      SMS_MAX_PER_IP_HOUR: '100000',
      NOTARY_OFFICE: '测试市公证处',
      SUPPORT_CONTACT: '客服电话 400-800-0000',
    },
  },
});
