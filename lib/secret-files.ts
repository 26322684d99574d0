/**
 * Secrets readable from files (Docker and Kubernetes secrets, systemd credentials; docs/decisions/050-configuration.md
 * "Secrets and `NAME_FILE`"): for each secret variable `NAME`, `NAME_FILE` may name a file whose content (one
 * trailing newline removed) becomes `NAME`.
 * Setting both is an error, as is a file that cannot be read; the error names the variable and the path, never the
 * content. Applied once, by each process's parse of its environment (lib/config-schema.ts), to every variable
 * its schema declares secret, so every reader of the value — gateway, embedded platform, jobs — sees the same one.
 *
 * Variables whose own `_FILE` already means "a path the platform reads itself" (DOCUMENT_SIGNING_PEM_FILE,
 * TSA_CERT_FILE, API_KEYS_KEY_FILE, LEDGER_WITNESSES_FILE, APP_VERSIONS_FILE, ACTIVITIES_FILE) are not touched.
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from './config-error.ts';

/**
 * The variables that hold secrets (keys, passwords, connection strings with credentials): the default of
 * {@link withSecretFiles}. The schemas mark the same ones `secret` (server/config/docs.test.ts compares).
 */
export const SECRET_VARIABLES = [
  'SESSION_SECRET',
  'INTERNAL_API_KEY',
  'DATABASE_URL',
  'REDIS_URL',
  'DEMO_PASSWORD',
  'ALIPAY_PRIVATE_KEY',
  'ALIPAY_PUBLIC_KEY',
  'WECHATPAY_MERCHANT_PRIVATE_KEY',
  'WECHATPAY_API_V3_KEY',
  'WECHATPAY_PUBLIC_KEY',
  'WECHATPAY_PLATFORM_CERTS',
  'TENCENT_SMS_SECRET_ID',
  'TENCENT_SMS_SECRET_KEY',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
] as const;

/** A secret file that could not be used: the variable (`NAME`) and the problem line (names the path, never content). */
export interface SecretFileProblem {
  name: string;
  text: string;
}

/**
 * `env` with every `NAME_FILE` of `names` read into `NAME` (and `NAME_FILE` removed), and the problems: `NAME` and
 * `NAME_FILE` both set, or a file that cannot be read. `env` itself is not changed.
 */
export function readSecretFiles(
  env: Readonly<Record<string, string | undefined>>,
  names: readonly string[],
): { env: Record<string, string | undefined>; problems: SecretFileProblem[] } {
  const out = { ...env };
  const problems: SecretFileProblem[] = [];
  for (const name of names) {
    const file = env[`${name}_FILE`]?.trim();
    if (!file) continue;
    if (env[name]?.trim()) {
      problems.push({ name, text: `set ${name} or ${name}_FILE, not both` });
      continue;
    }
    try {
      out[name] = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
      delete out[`${name}_FILE`];
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
      problems.push({ name, text: `${name}_FILE (${file}) cannot be read (${code})` });
    }
  }
  return { env: out, problems };
}

/**
 * `env` with every `NAME_FILE` of `names` (default {@link SECRET_VARIABLES}) read into `NAME` (and `NAME_FILE`
 * removed); `env` itself is not changed. The process loaders use {@link readSecretFiles} with the variables their
 * schemas declare secret (lib/config-schema.ts).
 * @throws ConfigError on the first problem: both `NAME` and `NAME_FILE` set, or a file that cannot be read
 */
export function withSecretFiles(
  env: Readonly<Record<string, string | undefined>>,
  names: readonly string[] = SECRET_VARIABLES,
): Record<string, string | undefined> {
  const read = readSecretFiles(env, names);
  const first = read.problems[0];
  if (first) throw new ConfigError(`Invalid configuration: ${first.text}`);
  return read.env;
}
