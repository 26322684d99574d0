/**
 * Secrets readable from files (decision 040; Docker and Kubernetes secrets, systemd credentials): for each secret
 * variable `NAME` below, `NAME_FILE` may name a file whose content (one trailing newline removed) becomes `NAME`.
 * Setting both is an error, as is a file that cannot be read; the error names the variable and the path, never the
 * content. Applied once to the environment before any configuration is parsed (server/start.ts, platform/main.ts),
 * so every reader of the variable — gateway, embedded platform, jobs — sees the same value.
 *
 * Variables whose own `_FILE` already means "a path the platform reads itself" (DOCUMENT_SIGNING_PEM_FILE,
 * TSA_CERT_FILE, API_KEYS_KEY_FILE, LEDGER_WITNESSES_FILE, APP_VERSIONS_FILE, ACTIVITIES_FILE) are not touched.
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from './config-error.ts';

/** The variables that hold secrets (keys, passwords, connection strings with credentials). */
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

/**
 * `env` with every `NAME_FILE` of {@link SECRET_VARIABLES} read into `NAME` (and `NAME_FILE` removed); `env` itself
 * is not changed.
 * @throws ConfigError when both `NAME` and `NAME_FILE` are set, or the file cannot be read
 */
export function withSecretFiles(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const out = { ...env };
  for (const name of SECRET_VARIABLES) {
    const file = env[`${name}_FILE`]?.trim();
    if (!file) continue;
    if (env[name]?.trim())
      throw new ConfigError(`Invalid configuration: set ${name} or ${name}_FILE, not both`);
    let content: string;
    try {
      content = readFileSync(file, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
      throw new ConfigError(`Invalid configuration: ${name}_FILE (${file}) cannot be read (${code})`);
    }
    out[name] = content.replace(/\r?\n$/, '');
    delete out[`${name}_FILE`];
  }
  return out;
}
