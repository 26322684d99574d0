/**
 * Platform configuration: read once from the environment, validated with zod, failing fast with one readable
 * message that lists every bad variable (ARCHITECTURE "Quality habits"; docs/decisions/002-platform.md).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { BillingNotifyPaths } from '../contract/billing.ts';
import { DEFAULT_MAX_UPLOAD_BYTES } from '../contract/evidence.ts';
import { ActivityList, AppVersionList, type Activity, type AppVersion } from '../contract/home.ts';
import type { WechatPayConfig } from './billing/wechatpay/client.ts';
import { ALIPAY_GATEWAY } from './kyc/alipay-face.ts';
import { ConfigError } from './config-error.ts';
import { wechatpayConfig } from './config-wechatpay.ts';
import { readTsaCerts } from './config-tsa.ts';
import { smsConfig, TENCENT_SMS_ENDPOINT, type SmsConfig } from './config-sms.ts';
import { storageConfig, type S3StorageConfig } from './config-storage.ts';
import { AccessLogSchema, type AccessLogMode } from './core/access-log.ts';
import { trustProxyOf } from './core/trust-proxy.ts';

export { ConfigError } from './config-error.ts';
export type { SmsConfig, TencentSmsConfig } from './config-sms.ts';

/** scrypt parameters (RFC 7914): `N` CPU/memory cost (power of two), `r` block size, `p` parallelism. */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** Which database the platform talks to; see {@link PlatformConfig.database}. */
export type DatabaseTarget = { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string };

/** Everything the platform reads from its environment. All durations are seconds, all sizes bytes. */
export interface PlatformConfig {
  /** DATA_DIR (default `./data`), resolved to an absolute path: SQLite file, evidence files, keys, SMS outbox. */
  dataDir: string;
  /** DATABASE_URL as given, or undefined (then SQLite at `${dataDir}/cunzheng.sqlite`). */
  databaseUrl: string | undefined;
  /** The database derived from DATABASE_URL: a `postgres://`/`postgresql://` URL selects PostgreSQL. */
  database: DatabaseTarget;
  /** MAX_UPLOAD_BYTES: the largest evidence file accepted, bytes (default 2 GiB). */
  maxUploadBytes: number;
  /** TOKEN_TTL_SECONDS: bearer-token lifetime, seconds (default 86400). */
  tokenTtlSeconds: number;
  /** APP_ENV: 'production' (default), 'development' or 'test'. */
  appEnv: 'production' | 'development' | 'test';
  /** TEST_HOOKS=1 registers the `/api/__test/*` routes; refused when appEnv is 'production'. */
  testHooks: boolean;
  /**
   * Whether to create the verified demo account 13800138000 on start when missing (docs/decisions/025-secrets-sms.md):
   * SEED_DEMO=1/0 decides when set; unset, it is seeded with APP_ENV=development or test, and with APP_ENV unset when
   * every provider is the sandbox (the embedded default of `npm start`), never with APP_ENV=production.
   */
  seedDemo: boolean;
  /** DEMO_PASSWORD (default `demo1234`): the demo account's initial password. Never logged. */
  demoPassword: string;
  /** SMS delivery and limits (spec 02 §5 shared validators; docs/decisions/025-secrets-sms.md). */
  sms: SmsConfig;
  /** SCRYPT_N / SCRYPT_R / SCRYPT_P: password-hash cost (default N=2^15, r=8, p=1; production needs N ≥ 2^14). */
  scryptCost: ScryptCost;
  /** DOWNLOAD_URL_TTL_SECONDS: lifetime of a signed download URL, seconds (default 600). */
  downloadUrlTtlSeconds: number;
  /** LOG_LEVEL (default 'info'): pino level. */
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** ACCESS_LOG (default 'all'): which answers get an access line (platform/core/access-log.ts). */
  accessLog: AccessLogMode;
  /** TRUST_PROXY (default `loopback`): whose X-Forwarded-For counts (per-IP limits); `false`/`0` none, `true` all. */
  trustProxy: string | boolean;
  /**
   * Alipay face verification (spec 02 §4 "Face flow"; docs/decisions/010-kyc-foundations.md): ALIPAY_APP_ID,
   * ALIPAY_PRIVATE_KEY (the app's RSA private key, PEM), ALIPAY_PUBLIC_KEY (Alipay's public key, PEM) and
   * ALIPAY_GATEWAY (default the production gateway). All three keys set → the real Alipay; none → the sandbox
   * gateway of platform/kyc/alipay-sandbox.ts on loopback.
   */
  alipay: {
    appId: string;
    privateKey: string;
    alipayPublicKey: string;
    gateway: string;
    /** ALIPAY_KEY_TYPE (default PKCS8): the private key's format. */
    keyType: 'PKCS1' | 'PKCS8';
  } | null;
  /** PUBLIC_URL: the site's origin for payment and face return links (embedded: the gateway's own address). */
  publicUrl: string;
  /**
   * INTERNAL_API_KEY: the key the gateway's jobs present on `/api/internal/*` (header `x-internal-key`). Unset →
   * a random key kept at `${dataDir}/keys/internal.key`, which an embedded gateway reads.
   */
  internalApiKey: string | undefined;
  /** API_KEYS_KEY_FILE: the key sealing SecurityKeys for the open API (open-api/sealed-keys.ts; decision 038). */
  apiKeysKeyFile: string | undefined;
  /** STORAGE_URL and S3_*: an S3-compatible store for every file, or null for DATA_DIR (config-storage.ts). */
  storage: S3StorageConfig | null;
  /**
   * Document signing (decision 029): PLATFORM_OPERATOR (default 存证云), the signer's name in a generated local
   * certificate; DOCUMENT_SIGNING_PEM_FILE, a PEM bundle (PKCS#8 key, signer certificate, issuers) from a real CA
   * that replaces the local one generated under `${dataDir}/keys/`.
   */
  documentSigning: { operator: string; pemFile: string | undefined };
  /**
   * The notary office's signer of notarial certificates (decision 034): NOTARY_OFFICE (default 合作公证机构), its
   * name in a generated local certificate (`${dataDir}/keys/notary-signing.pem`); NOTARY_SIGNING_PEM_FILE, the
   * office's own PEM bundle from a real CA that replaces it.
   */
  notarySigning: { operator: string; pemFile: string | undefined };
  /**
   * The ledger's origin (LEDGER_ORIGIN; default `<PUBLIC_URL host>/ledger`): the first line of its C2SP checkpoints
   * and their key name (decision 035). Keep it stable: verifiers trust the origin with the key.
   */
  ledgerOrigin: string;
  /**
   * Whether the ledger's entry bundles (`tile/entries/…`: every record) are public (LEDGER_PUBLIC_ENTRIES=1; default
   * no). Hash tiles and checkpoints always are: proofs need nothing else; records are our users' (decision 035).
   */
  ledgerPublicEntries: boolean;
  /** PLATFORM_JOBS (default 1): work the recurring jobs (face polling, reconciliation) here (platform/jobs). */
  jobs: boolean;
  /**
   * Witnesses asked to cosign the ledger's checkpoints (LEDGER_WITNESSES or LEDGER_WITNESSES_FILE: a JSON array of
   * `{url, key}`, key a cosignature/v1 verifier key; decision 035), every LEDGER_WITNESS_INTERVAL_SECONDS (30).
   */
  ledgerWitnesses: { url: string; key: string }[];
  ledgerWitnessIntervalSeconds: number;
  /**
   * The RFC 3161 Time-Stamp Authority that stamps checkpoints (TSA_URL; none by default), the certificates its tokens
   * must chain to (TSA_CERT_FILE, PEM; without it a token is checked against the certificate it carries), and at most
   * how often (TSA_INTERVAL_SECONDS, 3600).
   */
  tsa: { url: string; trustedPem: string | null; intervalSeconds: number } | null;
  /** Points and payments (spec 02 §9; docs/decisions/018-billing.md). */
  billing: BillingConfig;
  /**
   * WeChat Pay Native (decision 017): WECHATPAY_MCHID, WECHATPAY_APPID, WECHATPAY_MERCHANT_SERIAL_NO,
   * WECHATPAY_MERCHANT_PRIVATE_KEY (PEM), WECHATPAY_API_V3_KEY (32 bytes) and the verification keys
   * (WECHATPAY_PUBLIC_KEY_ID + WECHATPAY_PUBLIC_KEY, or WECHATPAY_PLATFORM_CERTS as JSON `{serial: PEM}`); WECHATPAY_BASE_URL
   * (default api.mch.weixin.qq.com). All set → the real WeChat Pay; none → the loopback sandbox.
   */
  wechatpay: WechatPayConfig | null;
  /**
   * The public home pages' content (spec 01 §2.1 /appDownload, /activity; decision 027): APP_VERSIONS (a JSON array
   * of contract AppVersion) or APP_VERSIONS_FILE (a JSON file holding one), and ACTIVITIES / ACTIVITIES_FILE (of
   * contract Activity). Read and validated once at start; unset → empty lists (the pages show their empty state).
   */
  home: { appVersions: AppVersion[]; activities: Activity[] };
}

/** Billing settings. Money in fen, durations in minutes. */
export interface BillingConfig {
  /** POINT_PRICE_FEN (default 100 = ¥1 a point): the price of one point, fen. */
  pointPriceFen: number;
  /** ORDER_TIMEOUT_MINUTES (default 30): an unpaid order expires and is closed at the provider after it. */
  orderTimeoutMinutes: number;
  /** ALIPAY_SELLER_ID: the merchant's PID (2088…); notifications must name it. '' → not checked (sandbox: its own). */
  alipaySellerId: string;
  /** ALIPAY_NOTIFY_URL (default `${PUBLIC_URL}/api/notify/alipay`): Alipay's asynchronous notification URL. */
  alipayNotifyUrl: string;
  /** WECHATPAY_NOTIFY_URL (default `${PUBLIC_URL}/api/notify/wechat`): https and reachable in production. */
  wechatNotifyUrl: string;
}

const bool = (dflt: boolean) =>
  z
    .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
    .optional()
    .transform((v) => (v === undefined || v === '' ? dflt : v === '1' || v === 'true' || v === 'yes'));

const int = (dflt: number, min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return dflt;
      const n = Number(v);
      if (!Number.isSafeInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `must be an integer from ${min} to ${max}, got "${v}"` });
        return z.NEVER;
      }
      return n;
    });

/** LEDGER_WITNESSES: where each witness listens and its verifier key (checked when the ledger starts). */
const WitnessList = z.array(z.object({ url: z.url(), key: z.string().min(1).max(300) }).strict()).max(20);

const EnvSchema = z.object({
  DATA_DIR: z.string().optional(),
  DATABASE_URL: z
    .string()
    .optional()
    .refine((v) => !v || /^postgres(ql)?:\/\//.test(v), {
      message: 'must be a postgres:// or postgresql:// URL (leave unset for SQLite under DATA_DIR)',
    }),
  MAX_UPLOAD_BYTES: int(DEFAULT_MAX_UPLOAD_BYTES, 1),
  TOKEN_TTL_SECONDS: int(86400, 60),
  APP_ENV: z.enum(['production', 'development', 'test']).default('production'),
  TEST_HOOKS: bool(false),
  SEED_DEMO: z.enum(['1', '0', 'true', 'false', 'yes', 'no', '']).optional(),
  DEMO_PASSWORD: z.string().min(1).max(64).default('demo1234'),
  SCRYPT_N: int(2 ** 15, 2, 2 ** 24).refine((n) => (n & (n - 1)) === 0, 'must be a power of two'),
  SCRYPT_R: int(8, 1, 64),
  SCRYPT_P: int(1, 1, 16),
  DOWNLOAD_URL_TTL_SECONDS: int(600, 1, 7 * 86400),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ACCESS_LOG: AccessLogSchema,
  TRUST_PROXY: z.string().optional(),
  ALIPAY_APP_ID: z.string().optional(),
  ALIPAY_PRIVATE_KEY: z.string().optional(),
  ALIPAY_PUBLIC_KEY: z.string().optional(),
  ALIPAY_GATEWAY: z.url().optional(),
  ALIPAY_KEY_TYPE: z.enum(['PKCS1', 'PKCS8']).default('PKCS8'),
  PUBLIC_URL: z.url().optional(),
  INTERNAL_API_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  API_KEYS_KEY_FILE: z.string().trim().min(1).optional(),
  PLATFORM_OPERATOR: z.string().trim().min(1).max(64).default('存证云'),
  DOCUMENT_SIGNING_PEM_FILE: z.string().trim().min(1).optional(),
  NOTARY_OFFICE: z.string().trim().min(1).max(64).default('合作公证机构'),
  LEDGER_ORIGIN: z
    .string()
    .trim()
    .regex(/^[^\s+]{1,200}$/)
    .optional(),
  NOTARY_SIGNING_PEM_FILE: z.string().trim().min(1).optional(),
  LEDGER_PUBLIC_ENTRIES: bool(false),
  PLATFORM_JOBS: bool(true),
  LEDGER_WITNESSES: z.string().optional(),
  LEDGER_WITNESSES_FILE: z.string().optional(),
  LEDGER_WITNESS_INTERVAL_SECONDS: int(30, 1, 86_400),
  TSA_URL: z.url().optional(),
  TSA_CERT_FILE: z.string().trim().min(1).optional(),
  TSA_INTERVAL_SECONDS: int(3600, 1, 7 * 86_400),
  POINT_PRICE_FEN: int(100, 1, 1_000_000),
  ORDER_TIMEOUT_MINUTES: int(30, 1, 24 * 60),
  ALIPAY_SELLER_ID: z.string().trim().optional(),
  ALIPAY_NOTIFY_URL: z.url().optional(),
  WECHATPAY_NOTIFY_URL: z.url().optional(),
  WECHATPAY_MCHID: z.string().trim().optional(),
  WECHATPAY_APPID: z.string().trim().optional(),
  WECHATPAY_MERCHANT_SERIAL_NO: z.string().trim().optional(),
  WECHATPAY_MERCHANT_PRIVATE_KEY: z.string().optional(),
  WECHATPAY_API_V3_KEY: z.string().optional(),
  WECHATPAY_PUBLIC_KEY_ID: z.string().trim().optional(),
  WECHATPAY_PUBLIC_KEY: z.string().optional(),
  WECHATPAY_PLATFORM_CERTS: z.string().optional(),
  WECHATPAY_BASE_URL: z.url().optional(),
  SMS_PROVIDER: z.enum(['sandbox', 'tencent']).default('sandbox'),
  SMS_MAX_PER_MOBILE_HOUR: int(5, 1, 1_000_000),
  SMS_MAX_PER_MOBILE_DAY: int(10, 1, 1_000_000),
  SMS_MAX_PER_IP_HOUR: int(20, 1, 1_000_000),
  TENCENT_SMS_SECRET_ID: z.string().trim().optional(),
  TENCENT_SMS_SECRET_KEY: z.string().trim().optional(),
  TENCENT_SMS_SDK_APP_ID: z.string().trim().optional(),
  TENCENT_SMS_SIGN_NAME: z.string().trim().optional(),
  TENCENT_SMS_REGION: z.string().trim().default('ap-guangzhou'),
  TENCENT_SMS_TEMPLATE_CODE: z.string().trim().optional(),
  TENCENT_SMS_TEMPLATE_KYC_APPROVED: z.string().trim().optional(),
  TENCENT_SMS_TEMPLATE_KYC_REJECTED: z.string().trim().optional(),
  TENCENT_SMS_ENDPOINT: z.url().default(TENCENT_SMS_ENDPOINT),
  APP_VERSIONS: z.string().optional(),
  APP_VERSIONS_FILE: z.string().optional(),
  ACTIVITIES: z.string().optional(),
  ACTIVITIES_FILE: z.string().optional(),
});

type Env = z.infer<typeof EnvSchema>;

/**
 * Whether the demo account is seeded: SEED_DEMO when set; else with APP_ENV development/test, or with APP_ENV unset
 * when every provider is a sandbox (the README's `npm start`); never for an explicit APP_ENV=production.
 */
function seedDemoOf(rawAppEnv: string | undefined, e: Env, sms: SmsConfig, providersReal: boolean): boolean {
  if (e.SEED_DEMO !== undefined && e.SEED_DEMO !== '') return ['1', 'true', 'yes'].includes(e.SEED_DEMO);
  if (e.APP_ENV !== 'production') return true;
  return (rawAppEnv ?? '').trim() === '' && sms.provider === 'sandbox' && !providersReal;
}

/**
 * A JSON list from the variable `name` (inline JSON) or `${name}_FILE` (a path to a JSON file), validated by `schema`.
 * Neither set → []. @throws ConfigError when both are set, the file cannot be read, or the JSON or an item is bad
 */
function jsonList<T>(
  name: string,
  inline: string | undefined,
  file: string | undefined,
  schema: z.ZodType<T[]>,
): T[] {
  const bad = (why: string) => new ConfigError(`Invalid platform configuration: ${why}`);
  if (inline?.trim() && file?.trim()) throw bad(`set ${name} or ${name}_FILE, not both`);
  let text = inline?.trim() ?? '';
  if (file?.trim()) {
    try {
      text = readFileSync(path.resolve(file.trim()), 'utf8');
    } catch (err) {
      throw bad(`${name}_FILE cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    }
  }
  if (!text.trim()) return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw bad(`${name} is not valid JSON`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${name}[${i.path.join('.')}]: ${i.message}`);
    throw bad(`${name} must be a JSON array of items:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

/**
 * Parses the platform configuration from `env` (default `process.env`).
 * @throws ConfigError listing each invalid variable, or when APP_ENV=production asks for TEST_HOOKS=1
 *   (a production start refuses to enable test hooks) or a scrypt cost below N=2^14.
 */
export function loadPlatformConfig(env: Record<string, string | undefined> = process.env): PlatformConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid platform configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.APP_ENV === 'production' && e.TEST_HOOKS) {
    throw new ConfigError(
      'Invalid platform configuration: TEST_HOOKS=1 with APP_ENV=production — a production start refuses to enable test hooks',
    );
  }
  if (e.APP_ENV === 'production' && e.SCRYPT_N < 2 ** 14) {
    throw new ConfigError(
      'Invalid platform configuration: SCRYPT_N below 16384 is only allowed outside production',
    );
  }
  const dataDir = path.resolve(e.DATA_DIR?.trim() || './data');
  const databaseUrl = e.DATABASE_URL?.trim() || undefined;
  const alipaySet = [e.ALIPAY_APP_ID, e.ALIPAY_PRIVATE_KEY, e.ALIPAY_PUBLIC_KEY].filter((v) => v?.trim());
  if (alipaySet.length !== 0 && alipaySet.length !== 3) {
    throw new ConfigError(
      'Invalid platform configuration: set all of ALIPAY_APP_ID, ALIPAY_PRIVATE_KEY, ALIPAY_PUBLIC_KEY or none (sandbox)',
    );
  }
  const publicUrl = (e.PUBLIC_URL ?? 'http://localhost:3000').replace(/\/$/, '');
  const sms = smsConfig(e);
  const wechatpay = wechatpayConfig(e);
  return {
    dataDir,
    databaseUrl,
    database: databaseUrl
      ? { dialect: 'postgres', url: databaseUrl }
      : { dialect: 'sqlite', file: path.join(dataDir, 'cunzheng.sqlite') },
    maxUploadBytes: e.MAX_UPLOAD_BYTES,
    tokenTtlSeconds: e.TOKEN_TTL_SECONDS,
    appEnv: e.APP_ENV,
    testHooks: e.TEST_HOOKS,
    seedDemo: seedDemoOf(env.APP_ENV, e, sms, alipaySet.length === 3 || wechatpay !== null),
    demoPassword: e.DEMO_PASSWORD,
    sms,
    scryptCost: { N: e.SCRYPT_N, r: e.SCRYPT_R, p: e.SCRYPT_P },
    downloadUrlTtlSeconds: e.DOWNLOAD_URL_TTL_SECONDS,
    logLevel: e.LOG_LEVEL,
    accessLog: e.ACCESS_LOG,
    trustProxy: trustProxyOf(e.TRUST_PROXY),
    alipay:
      alipaySet.length === 3
        ? {
            appId: e.ALIPAY_APP_ID!.trim(),
            privateKey: e.ALIPAY_PRIVATE_KEY!,
            alipayPublicKey: e.ALIPAY_PUBLIC_KEY!,
            gateway: e.ALIPAY_GATEWAY ?? ALIPAY_GATEWAY,
            keyType: e.ALIPAY_KEY_TYPE,
          }
        : null,
    publicUrl,
    internalApiKey: e.INTERNAL_API_KEY,
    apiKeysKeyFile: e.API_KEYS_KEY_FILE,
    storage: storageConfig(env),
    documentSigning: { operator: e.PLATFORM_OPERATOR, pemFile: e.DOCUMENT_SIGNING_PEM_FILE },
    notarySigning: { operator: e.NOTARY_OFFICE, pemFile: e.NOTARY_SIGNING_PEM_FILE },
    ledgerOrigin: e.LEDGER_ORIGIN ?? `${new URL(publicUrl).host}/ledger`,
    ledgerPublicEntries: e.LEDGER_PUBLIC_ENTRIES,
    jobs: e.PLATFORM_JOBS,
    ledgerWitnesses: jsonList('LEDGER_WITNESSES', e.LEDGER_WITNESSES, e.LEDGER_WITNESSES_FILE, WitnessList),
    ledgerWitnessIntervalSeconds: e.LEDGER_WITNESS_INTERVAL_SECONDS,
    tsa: e.TSA_URL
      ? { url: e.TSA_URL, trustedPem: readTsaCerts(e.TSA_CERT_FILE), intervalSeconds: e.TSA_INTERVAL_SECONDS }
      : null,
    billing: {
      pointPriceFen: e.POINT_PRICE_FEN,
      orderTimeoutMinutes: e.ORDER_TIMEOUT_MINUTES,
      alipaySellerId: e.ALIPAY_SELLER_ID ?? '',
      alipayNotifyUrl: e.ALIPAY_NOTIFY_URL ?? `${publicUrl}${BillingNotifyPaths.alipay}`,
      wechatNotifyUrl: e.WECHATPAY_NOTIFY_URL ?? `${publicUrl}${BillingNotifyPaths.wechat}`,
    },
    wechatpay,
    home: {
      appVersions: jsonList('APP_VERSIONS', e.APP_VERSIONS, e.APP_VERSIONS_FILE, AppVersionList),
      activities: jsonList('ACTIVITIES', e.ACTIVITIES, e.ACTIVITIES_FILE, ActivityList),
    },
  };
}
