/**
 * End-to-end tests: Debian's Chromium (its headless shell, see E2E_BROWSER; nothing downloads a browser), each flow once with
 * JavaScript on and once with it off. The two projects run side by side, each against a server of its own: the
 * production build started the way `npm start` does, on a fresh DATA_DIR per project (so that the demo account's
 * balance, its login lock and its sessions are one project's alone), with test hooks enabled (APP_ENV=test) so a test
 * can read the captcha answer, and a fixed SESSION_SECRET so that the login fixtures (tests/support/e2e-fixtures.ts)
 * can seal session cookies themselves. Within a project the spec files run one after the other (one worker), as
 * they share the demo account. The project's data directory is in its metadata (`dataDir`, read by
 * tests/support/e2e.ts).
 */
import { defineConfig, devices } from '@playwright/test';
import { existsSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { RUNTIME_FLAGS } from './server/runtime-flags.ts';
import { e2eWitnessKey } from './tests/support/e2e-witness.ts';
import { captureSitePort, captureTlsSitePort } from './tests/support/e2e-capture.ts';
import { cjkFontProblem } from './tests/support/cjk-font.ts';

// No run without a CJK font (decision 049): Chinese laid out as empty boxes hides every layout problem. One line, no
// stack, before any server starts.
const noCjkFont = cjkFontProblem();
if (noCjkFont) {
  console.error(noCjkFont);
  process.exit(1);
}

/** The js-on server listens on E2E_PORT (default 3100), the js-off server on the next port. */
const PORT = Number(process.env.E2E_PORT ?? 3100);
/** The app under a base path listens here; the reverse proxy in front of it on the next port. */
const BASE_PATH_PORT = PORT + 2;
const BASE_PATH = '/cunzheng/';

/** The e2e servers' cookie-session secret (at least 32 characters), shared with the login fixtures. */
export const E2E_SESSION_SECRET =
  process.env.E2E_SESSION_SECRET ?? 'cunzheng-e2e-session-secret-not-for-production';
process.env.E2E_SESSION_SECRET = E2E_SESSION_SECRET;

/**
 * The browser the tests drive: E2E_CHROMIUM_PATH when set, else Debian's `chromium-headless-shell` (the old headless
 * shell, the build Playwright itself uses for headless runs: the same Blink, about half the CPU per page of the full
 * browser in new-headless mode on this 2-core machine), else Debian's full `chromium`. The servers under test render
 * certificate PDFs with their own CHROMIUM_PATH (default the full browser, as in production), untouched by this.
 */
const E2E_BROWSER =
  process.env.E2E_CHROMIUM_PATH ??
  (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');

/**
 * The browser's environment: this process's, with a UTF-8 character type. Chromium on Linux reads the name of a file
 * chosen for upload in the locale's charset; with no locale (a bare container has no LANG) it sends a file named in
 * Chinese as an empty part with filename "" (measured with Debian's Chromium 156), so the upload fails. A Chinese
 * user's system runs a UTF-8 locale; the browser under test gets one whatever the machine has (an LC_ALL that is not
 * UTF-8 would override LC_CTYPE, so it is dropped).
 */
const browserEnv: Record<string, string> = Object.fromEntries(
  Object.entries({ ...process.env, LC_CTYPE: 'C.UTF-8' }).filter(
    (e): e is [string, string] => e[1] !== undefined && !(e[0] === 'LC_ALL' && !/utf-?8/i.test(e[1])),
  ),
);

const launchOptions = {
  executablePath: E2E_BROWSER,
  env: browserEnv,
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
  workers: 2,
  retries: 0,
  reporter: process.env.CI ? [['list'], ['json', { outputFile: 'test-results/e2e.json' }]] : [['list']],
  use: {
    // CI keeps no artefacts, and recording a trace for every test costs a tenth of the run: traces are local only.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    acceptDownloads: true,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
  },
  projects: [
    project('js-on', true, PORT),
    project('js-off', false, PORT + 1),
    // the preserve flow (log in, preserve a file, its certificate and PDF) under BASE_PATH=/cunzheng/ behind a
    // reverse proxy (decision 047)
    basePathProject('base-path-js-off', false),
    basePathProject('base-path-js-on', true),
  ],
  webServer: [
    server(PORT),
    server(PORT + 1),
    witness(PORT),
    witness(PORT + 1),
    server(BASE_PATH_PORT, { BASE_PATH, TRUST_PROXY: '127.0.0.1' }),
    reverseProxy(),
  ],
});

/**
 * A project running the preserve flow (tests/container/preserve-flow.spec.ts) through the reverse proxy under
 * BASE_PATH: its baseURL carries the prefix and the spec's paths are relative to it.
 */
function basePathProject(name: string, javaScriptEnabled: boolean) {
  return {
    name,
    workers: 1,
    testDir: 'tests/container',
    testMatch: 'preserve-flow.spec.ts',
    metadata: { dataDir: dataDirFor(BASE_PATH_PORT) },
    use: {
      ...devices['Desktop Chrome'],
      launchOptions,
      javaScriptEnabled,
      baseURL: `http://127.0.0.1:${BASE_PATH_PORT + 1}${BASE_PATH}`,
    },
  };
}

/** A corporate reverse proxy forwarding only BASE_PATH to the app (tests/support/reverse-proxy.ts). */
function reverseProxy() {
  return {
    command: 'node --import tsx tests/support/reverse-proxy.ts',
    url: `http://127.0.0.1:${BASE_PATH_PORT + 1}${BASE_PATH}healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      PORT: String(BASE_PATH_PORT + 1),
      PROXY_PREFIX: BASE_PATH.replace(/\/$/, ''),
      PROXY_TARGET: `http://127.0.0.1:${BASE_PATH_PORT}`,
    },
  };
}

/** The data directory of the server on `port` (E2E_DATA_DIR is taken as a prefix when set). */
function dataDirFor(port: number): string {
  return `${process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), 'cunzheng-e2e')}-${port}`;
}

/** A project: Desktop Chrome with JavaScript on or off, against the server on `port`, one spec file at a time. */
function project(name: string, javaScriptEnabled: boolean, port: number) {
  return {
    name,
    workers: 1,
    metadata: { dataDir: dataDirFor(port) },
    use: {
      ...devices['Desktop Chrome'],
      launchOptions,
      javaScriptEnabled,
      baseURL: `http://localhost:${port}`,
    },
  };
}

/** The port of the witness of the server on `port` (decision 035; tests/support/e2e-witness.ts). */
function witnessPort(port: number): number {
  return port + 10;
}
function witnessName(port: number): string {
  return `witness.e2e/${port}`;
}

/** The witness of the server on `port`: it witnesses that server's ledger only. */
function witness(port: number) {
  return {
    command: 'node --import tsx tests/support/e2e-witness.ts',
    url: `http://127.0.0.1:${witnessPort(port)}/vkey`,
    reuseExistingServer: false,
    timeout: 90_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      E2E_LOG_URL: `http://127.0.0.1:${port}`,
      WITNESS_DIR: `${dataDirFor(port)}-witness`,
      WITNESS_NAME: witnessName(port),
      PORT: String(witnessPort(port)),
      HOST: '127.0.0.1',
    },
  };
}

/**
 * The production server on `port` with a fresh data directory, its ledger witnessed by the local witness of the
 * same port unless `env` replaces the environment's extra settings (the base-path server has no witness).
 */
function server(port: number, extra?: Record<string, string>) {
  const dataDir = dataDirFor(port);
  return {
    command: `rm -rf ${dataDir} && node ${RUNTIME_FLAGS.join(' ')} server/main.ts`,
    url: `http://localhost:${port}${extra?.BASE_PATH ?? '/'}healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      NODE_ENV: 'production',
      APP_ENV: 'test',
      TEST_HOOKS: '1',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SESSION_SECRET: E2E_SESSION_SECRET,
      LOG_LEVEL: 'warn',
      // every spec registers its users from one loopback address
      SMS_MAX_PER_IP_HOUR: '100000',
      // …and logs in and looks up far more often than a person: the gateway's per-IP limit (server/http/rate-limit.ts)
      RATE_LIMIT_PER_MINUTE: '100000',
      // no background certificate renders competing with the browser for the CI machine's two cores
      PDF_RENDER_AHEAD: '0',
      NOTARY_OFFICE: '测试市公证处',
      SUPPORT_CONTACT: '客服电话 400-800-0000',
      ...(extra ?? {
        // its checkpoints cosigned by its own local witness, every second
        LEDGER_WITNESSES: JSON.stringify([
          {
            url: `http://127.0.0.1:${witnessPort(port)}`,
            key: e2eWitnessKey(`${dataDirFor(port)}-witness`, witnessName(port)),
          },
        ]),
        LEDGER_WITNESS_INTERVAL_SECONDS: '1',
      }),
      // web captures may reach the spec's local test site only (tests/e2e/web-capture.spec.ts; decision 037)
      CAPTURE_TEST_ALLOW: `127.0.0.1:${captureSitePort(port)},127.0.0.1:${captureTlsSitePort(port)}`,
    },
  };
}
