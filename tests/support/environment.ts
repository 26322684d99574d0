/**
 * The one module of the test harness that reads the process's environment (docs/decisions/050-configuration.md:
 * ESLint's `no-restricted-properties` allows `process.env` only in the configuration modules and here). Suites and
 * helpers ask it for the run's settings — which databases, which Chromium, the e2e server's secrets — and for the
 * environment a child process inherits; code under test gets configuration objects, never this environment.
 */

/** The value of `name` in the test run's environment, or undefined when unset or blank. */
export function testSetting(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** The run's environment plus `extra` (an `undefined` in `extra` removes the variable): for a child process. */
export function childEnvironment(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/** The Chromium the suites launch (CHROMIUM_PATH, default Debian's, as the gateway's own default). */
export function chromiumPath(): string {
  return testSetting('CHROMIUM_PATH') ?? '/usr/bin/chromium';
}

/** The database dialects platform suites run on (PLATFORM_TEST_DIALECTS, default both). */
export function testDialects(): ('sqlite' | 'postgres')[] {
  return (testSetting('PLATFORM_TEST_DIALECTS') ?? 'sqlite,postgres')
    .split(',')
    .map((s) => s.trim())
    .filter((s): s is 'sqlite' | 'postgres' => s === 'sqlite' || s === 'postgres');
}

/** The PostgreSQL admin connection URL the suites create their databases with (TEST_PG_URL). */
export function testPostgresUrl(): string {
  return testSetting('TEST_PG_URL') ?? 'postgres://postgres@127.0.0.1:5432/test';
}

/** The demo account's password on the server under test (DEMO_PASSWORD, default demo1234). */
export function demoPassword(): string {
  return testSetting('DEMO_PASSWORD') ?? 'demo1234';
}

/** A whole number from the run's environment (`name`), or `fallback` when unset. */
export function testNumber(name: string, fallback: number): number {
  const value = testSetting(name);
  return value === undefined ? fallback : Number(value);
}
