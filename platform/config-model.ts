/**
 * The shape of the platform's configuration (platform/config.ts parses it; docs/decisions/050-configuration.md):
 * every field is derived from the environment once, at the process's entry point, and frozen.
 */
import type { Activity, AppVersion } from '../contract/home.ts';
import type { Issuer } from '../contract/issuer.ts';
import type { AlipaySettings, BillingConfig } from './config-payments.ts';
import type { LogFormat, LogLevel } from '../lib/config-shared.ts';
import type { SmsConfig } from './config-sms.ts';
import type { S3StorageConfig } from './config-storage.ts';
import type { WechatPaySettings } from './config-wechatpay.ts';
import type { AccessLogMode } from '../lib/access-log.ts';
import type { ProxyEnv } from '../lib/outbound-proxy.ts';
import type { TracingConfig } from '../lib/tracing.ts';

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
  logLevel: LogLevel;
  /** LOG_FORMAT: pretty or json; undefined: pretty when standard output is a terminal (lib/logger.ts). */
  logFormat: LogFormat | undefined;
  /** ACCESS_LOG (default 'all'): which answers get an access line (lib/access-log.ts). */
  accessLog: AccessLogMode;
  /** TRUST_PROXY (default `loopback`): whose X-Forwarded-For counts (per-IP limits); `false`/`0` none, `true` all. */
  trustProxy: string | boolean;
  /**
   * Alipay face verification (spec 02 §4 "Face flow"; docs/decisions/010-kyc-foundations.md): ALIPAY_APP_ID,
   * ALIPAY_PRIVATE_KEY (the app's RSA private key, PEM), ALIPAY_PUBLIC_KEY (Alipay's public key, PEM) and
   * ALIPAY_GATEWAY (default the production gateway). All three keys set → the real Alipay; none → the sandbox
   * gateway of platform/kyc/alipay-sandbox.ts on loopback.
   */
  alipay: AlipaySettings | null;
  /** PUBLIC_URL: the site's origin for payment and face return links (embedded: the gateway's own address). */
  publicUrl: string;
  /** PLATFORM_OPERATOR, NOTARY_OFFICE, SUPPORT_CONTACT: who issues the documents (contract/issuer.ts). */
  issuer: Issuer;
  /** HTTPS_PROXY/HTTP_PROXY/NO_PROXY: the outbound proxy of provider calls, or null (core/outbound-proxy.ts). */
  outboundProxy: ProxyEnv | null;
  /** OTEL_*: where this process's spans go, or null when traces are off (core/tracing.ts). */
  tracing: TracingConfig | null;
  /** SANDBOX_RESUME_DELAY_MS (test hooks only): the payment sandboxes' re-send delay, ms; undefined: theirs. */
  testResumeDelayMs: number | undefined;
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
   * The notary office's signer of notarial certificates (docs/decisions/034-notary.md): NOTARY_OFFICE (default 合作公证机构), its
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
  wechatpay: WechatPaySettings | null;
  /**
   * The public home pages' content (spec 01 §2.1 /appDownload, /activity; decision 027): APP_VERSIONS (a JSON array
   * of contract AppVersion) or APP_VERSIONS_FILE (a JSON file holding one), and ACTIVITIES / ACTIVITIES_FILE (of
   * contract Activity). Read and validated once at start; unset → empty lists (the pages show their empty state).
   */
  home: { appVersions: AppVersion[]; activities: Activity[] };
}
