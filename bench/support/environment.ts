/**
 * The one module of the benches that reads the process's environment (docs/decisions/050-configuration.md: ESLint's
 * `no-restricted-properties` allows `process.env` only in the configuration modules and the test and bench support):
 * a bench's knobs (BENCH_*), the Chromium it launches, and the environment a child process inherits.
 */

/** The value of `name`, or undefined when unset or blank. */
export function benchSetting(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** A number knob (`name`), or `fallback` when unset. */
export function benchNumber(name: string, fallback: number): number {
  const value = benchSetting(name);
  return value === undefined ? fallback : Number(value);
}

/** The bench's environment plus `extra`: for a child process (a server under load, a second gateway). */
export function childEnvironment(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...extra };
}

/** The Chromium the benches launch (CHROMIUM_PATH, default Debian's, as the gateway's own default). */
export function chromiumPath(): string {
  return benchSetting('CHROMIUM_PATH') ?? '/usr/bin/chromium';
}

/** The demo account's password on the server under load (DEMO_PASSWORD, default demo1234). */
export function demoPassword(): string {
  return benchSetting('DEMO_PASSWORD') ?? 'demo1234';
}
