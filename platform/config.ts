/**
 * The platform's configuration (docs/decisions/050-configuration.md, 002-platform.md): the groups of variables it
 * reads — the shared fragments of lib/config-shared.ts and the platform's own (config-core.ts, config-sms.ts,
 * config-storage.ts, config-payments.ts, config-wechatpay.ts, config-ledger.ts, config-tsa.ts, config-home.ts) —
 * parsed once at the entry point and derived into one frozen {@link PlatformConfig}. A bad or missing value stops
 * the start with one message listing every problem (lib/config-schema.ts).
 *
 * Entry points: the standalone platform (platform/main.ts, {@link readPlatformProcessConfig}), the CLIs
 * (platform/ops/cli.ts, platform/backup/cli.ts, {@link readPlatformConfig}); the gateway parses the same groups for
 * its embedded platform (server/config/server.ts) and derives with {@link platformConfigFrom}.
 */
import path from 'node:path';
import {
  deepFreeze,
  parseEnvironment,
  processEnvironment,
  type Environment,
  type ParsedEnvironment,
  type ValuesOf,
} from '../lib/config-schema.ts';
import { PlatformVars, StandaloneVars } from './config-core.ts';
import { HomeVars } from './config-home.ts';
import { LedgerVars } from './config-ledger.ts';
import type { PlatformConfig } from './config-model.ts';
import { alipayOf, billingOf, PaymentVars } from './config-payments.ts';
import {
  issuerOf,
  LogVars,
  OutboundVars,
  outboundProxyOf,
  publicUrlOf,
  RuntimeVars,
  SiteVars,
  TracingVars,
  tracingOf,
} from '../lib/config-shared.ts';
import { smsConfig, SmsVars } from './config-sms.ts';
import { storageOf, StorageVars } from './config-storage.ts';
import { tsaOf, TsaVars } from './config-tsa.ts';
import { wechatpayConfig, WechatPayVars } from './config-wechatpay.ts';
import { trustProxyOf } from './core/trust-proxy.ts';

export { ConfigError } from '../lib/config-error.ts';
export type { DatabaseTarget, PlatformConfig, ScryptCost } from './config-model.ts';
export type { BillingConfig } from './config-payments.ts';
export type { SmsConfig, TencentSmsConfig } from './config-sms.ts';

/** Every group the platform reads, in the docs' order: the shared fragments first. */
export const PLATFORM_GROUPS = [
  RuntimeVars,
  LogVars,
  SiteVars,
  OutboundVars,
  TracingVars,
  PlatformVars,
  StorageVars,
  SmsVars,
  PaymentVars,
  WechatPayVars,
  LedgerVars,
  TsaVars,
  HomeVars,
] as const;

/** The platform's variables as parsed (what {@link platformConfigFrom} derives the config from). */
export type PlatformSettings = ParsedEnvironment<ValuesOf<typeof PLATFORM_GROUPS>>;

/**
 * Whether the demo account is seeded: SEED_DEMO when set; else with APP_ENV development/test, or with APP_ENV unset
 * when every provider is a sandbox (the README's `npm start`); never for an explicit APP_ENV=production.
 */
function seedDemoOf(settings: PlatformSettings, providersReal: boolean): boolean {
  const e = settings.values;
  if (e.SEED_DEMO !== undefined) return e.SEED_DEMO;
  if (e.APP_ENV !== 'production') return true;
  return !settings.given.has('APP_ENV') && e.SMS_PROVIDER === 'sandbox' && !providersReal;
}

/**
 * The platform configuration of parsed `settings` (deeply frozen). `publicUrl` is PUBLIC_URL's default when it is
 * unset: the embedded platform's gateway address (server/start.ts); else `http://localhost:3000`.
 */
export function platformConfigFrom(
  settings: PlatformSettings,
  opts: { publicUrl?: string } = {},
): PlatformConfig {
  const e = settings.values;
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = publicUrlOf(e) ?? (opts.publicUrl ?? 'http://localhost:3000').replace(/\/+$/, '');
  const outboundProxy = outboundProxyOf(e);
  const issuer = issuerOf(e);
  const alipay = alipayOf(e, outboundProxy);
  const wechatpay = wechatpayConfig(e, outboundProxy);
  return deepFreeze({
    dataDir,
    databaseUrl: e.DATABASE_URL,
    database: e.DATABASE_URL
      ? { dialect: 'postgres', url: e.DATABASE_URL }
      : { dialect: 'sqlite', file: path.join(dataDir, 'cunzheng.sqlite') },
    maxUploadBytes: e.MAX_UPLOAD_BYTES,
    tokenTtlSeconds: e.TOKEN_TTL_SECONDS,
    appEnv: e.APP_ENV,
    testHooks: e.TEST_HOOKS,
    seedDemo: seedDemoOf(settings, alipay !== null || wechatpay !== null),
    demoPassword: e.DEMO_PASSWORD,
    sms: smsConfig(e, { appEnv: e.APP_ENV, proxy: outboundProxy }),
    scryptCost: { N: e.SCRYPT_N, r: e.SCRYPT_R, p: e.SCRYPT_P },
    downloadUrlTtlSeconds: e.DOWNLOAD_URL_TTL_SECONDS,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    accessLog: e.ACCESS_LOG,
    trustProxy: trustProxyOf(e.TRUST_PROXY),
    alipay,
    publicUrl,
    issuer,
    outboundProxy,
    tracing: tracingOf(e),
    testResumeDelayMs: e.TEST_HOOKS ? e.SANDBOX_RESUME_DELAY_MS : undefined,
    internalApiKey: e.INTERNAL_API_KEY,
    apiKeysKeyFile: e.API_KEYS_KEY_FILE,
    storage: storageOf(e),
    documentSigning: { operator: issuer.operator, pemFile: e.DOCUMENT_SIGNING_PEM_FILE },
    notarySigning: { operator: issuer.notaryOffice, pemFile: e.NOTARY_SIGNING_PEM_FILE },
    ledgerOrigin: e.LEDGER_ORIGIN ?? `${new URL(publicUrl).host}/ledger`,
    ledgerPublicEntries: e.LEDGER_PUBLIC_ENTRIES,
    jobs: e.PLATFORM_JOBS,
    ledgerWitnesses: e.LEDGER_WITNESSES ?? e.LEDGER_WITNESSES_FILE ?? [],
    ledgerWitnessIntervalSeconds: e.LEDGER_WITNESS_INTERVAL_SECONDS,
    tsa: tsaOf(e),
    billing: billingOf(e, publicUrl),
    wechatpay,
    home: {
      appVersions: e.APP_VERSIONS ?? e.APP_VERSIONS_FILE ?? [],
      activities: e.ACTIVITIES ?? e.ACTIVITIES_FILE ?? [],
    },
  } satisfies PlatformConfig);
}

/** The platform's variables of `env`, parsed (secret files read). @throws ConfigError listing every problem */
export function parsePlatformSettings(env: Environment): PlatformSettings {
  return deepFreeze(parseEnvironment(PLATFORM_GROUPS, env));
}

/**
 * The platform configuration of `env` (a test's or a tool's own environment; the entry points read the process's
 * with {@link readPlatformConfig}).
 * @throws ConfigError listing every problem: an invalid or missing value, TEST_HOOKS=1 or a scrypt cost below
 *   N=2^14 with APP_ENV=production, a provider's settings given in part
 */
export function loadPlatformConfig(env: Environment): PlatformConfig {
  return platformConfigFrom(parsePlatformSettings(env));
}

/** The standalone platform's configuration: the platform's and where it listens. */
export interface PlatformProcessConfig {
  platform: PlatformConfig;
  /** PLATFORM_HOST (default 127.0.0.1) and PLATFORM_PORT (default 3001). */
  listen: { host: string; port: number };
}

/** The groups of the standalone platform (platform/main.ts). */
export const PLATFORM_PROCESS_GROUPS = [...PLATFORM_GROUPS, StandaloneVars] as const;

/** The standalone platform's configuration of `env`. @throws ConfigError listing every problem */
export function loadPlatformProcessConfig(env: Environment): PlatformProcessConfig {
  const parsed = parseEnvironment(PLATFORM_PROCESS_GROUPS, env);
  return deepFreeze({
    platform: platformConfigFrom(parsed),
    listen: { host: parsed.values.PLATFORM_HOST, port: parsed.values.PLATFORM_PORT },
  });
}

/** The platform configuration of this process's environment (the CLIs). @throws ConfigError listing every problem */
export function readPlatformConfig(): PlatformConfig {
  return loadPlatformConfig(processEnvironment());
}

/** The standalone platform's configuration of this process's environment. @throws ConfigError */
export function readPlatformProcessConfig(): PlatformProcessConfig {
  return loadPlatformProcessConfig(processEnvironment());
}
