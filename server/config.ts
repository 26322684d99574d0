/**
 * Gateway configuration: the environment variables of the `server/` process, parsed once at start-up with zod.
 * A bad value stops the process with one readable line per problem (ARCHITECTURE "Config from environment").
 *
 * Several gateways behind one load balancer MUST share SESSION_SECRET: the cookie session is sealed with it, so a
 * gateway with another secret cannot read the sessions of the others. The generated `${DATA_DIR}/keys/session.key`
 * is only right for a single gateway (the embedded default).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, openSync, readFileSync, writeSync, closeSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
// 2 GiB, the default upload limit (MAX_UPLOAD_BYTES), shared with the platform.
import { DEFAULT_MAX_UPLOAD_BYTES } from '../contract/evidence.ts';
import { AccessLogSchema, type AccessLogMode } from '../platform/core/access-log.ts';

/** Default FORM_BODY_LIMIT_BYTES: the largest form-encoded page POST the gateway reads (64 KiB). */
export const DEFAULT_FORM_BODY_LIMIT_BYTES = 64 * 1024;

/** Default UPSTREAM_TIMEOUT_MS: how long the upstream may stay silent before the gateway gives up (30 s). */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000;

/** Log levels pino accepts. */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Treats an empty variable (`FOO=`) like an unset one, as shells and compose files often produce them. */
const unsetIfEmpty = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** A yes/no variable (true/false, 1/0, yes/no); unset or empty means `fallback`. */
export const booleanFlag = (name: string, fallback = false) =>
  z.preprocess(
    unsetIfEmpty,
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: `${name} must be true or false` })
      .optional()
      .transform((v) => (v === undefined ? fallback : v === 'true' || v === '1' || v === 'yes')),
  );

const isoDateTime = (name: string) =>
  z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .refine((v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v) && !Number.isNaN(Date.parse(v)), {
        error: `${name} must be an ISO datetime such as 2025-01-01T00:00:00+08:00`,
      })
      .optional(),
  );

/**
 * TRUST_PROXY as Fastify's `trustProxy` accepts it: `true`/`false`, a hop count, or a comma list of addresses/CIDRs.
 * Unset means false: X-Forwarded-* from clients are not believed.
 */
const trustProxy = z.preprocess(
  unsetIfEmpty,
  z
    .string()
    .optional()
    .transform((v): boolean | number | string[] => {
      if (v === undefined || v === 'false' || v === '0') return false;
      if (v === 'true') return true;
      if (/^\d+$/.test(v)) return Number(v);
      return v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    }),
);

/**
 * BASE_PATH: the path prefix the whole UI and API live under behind a corporate gateway, e.g. `/cunzheng/`
 * (docs/decisions/047-base-path.md). Normalised to a leading slash and no trailing one (`/cunzheng`); unset, empty or
 * `/` means the root (''). Segments of unreserved URL characters only (RFC 3986 §2.3), so it needs no escaping in
 * URLs, cookies' Path or HTML.
 */
const basePath = z.preprocess(
  unsetIfEmpty,
  z
    .string()
    .optional()
    .transform((v) => (v ?? '').replace(/^\/+|\/+$/g, ''))
    .refine(
      (v) =>
        v === '' || (/^[A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~-]+)*$/.test(v) && !/(?:^|\/)\.\.?(?:\/|$)/.test(v)),
      {
        error: 'BASE_PATH must be a path such as /cunzheng/ (letters, digits, . _ ~ - and slashes)',
      },
    )
    .transform((v) => (v ? `/${v}` : '')),
);

const EnvSchema = z
  .object({
    PORT: z.preprocess(
      unsetIfEmpty,
      z.coerce
        .number({ error: 'PORT must be a number' })
        .int()
        .min(0)
        .max(65535, { error: 'PORT must be 0–65535' })
        .default(3000),
    ),
    HOST: z.preprocess(unsetIfEmpty, z.string().default('0.0.0.0')),
    UPSTREAM_URL: z.preprocess(
      unsetIfEmpty,
      z
        .url({
          protocol: /^https?$/,
          error: 'UPSTREAM_URL must be an http(s) URL such as http://10.0.0.5:8080',
        })
        .optional(),
    ),
    DATA_DIR: z.preprocess(unsetIfEmpty, z.string().default('./data')),
    SESSION_SECRET: z.preprocess(
      unsetIfEmpty,
      z
        .string()
        .refine((v) => splitSecrets(v).length > 0 && splitSecrets(v).every((s) => s.length >= 32), {
          error:
            'SESSION_SECRET must be a comma list of secrets of at least 32 characters each (newest first)',
        })
        .optional(),
    ),
    SECURE_COOKIES: booleanFlag('SECURE_COOKIES'),
    TRUST_PROXY: trustProxy,
    BASE_PATH: basePath,
    ANNOUNCEMENT_FROM: isoDateTime('ANNOUNCEMENT_FROM'),
    ANNOUNCEMENT_UNTIL: isoDateTime('ANNOUNCEMENT_UNTIL'),
    ANNOUNCEMENT_TEXT: z.preprocess(unsetIfEmpty, z.string().max(500).optional()),
    MAX_UPLOAD_BYTES: z.preprocess(
      unsetIfEmpty,
      z.coerce
        .number({ error: 'MAX_UPLOAD_BYTES must be a number of bytes' })
        .int()
        .positive({ error: 'MAX_UPLOAD_BYTES must be a positive number of bytes' })
        .default(DEFAULT_MAX_UPLOAD_BYTES),
    ),
    FORM_BODY_LIMIT_BYTES: z.preprocess(
      unsetIfEmpty,
      z.coerce
        .number({ error: 'FORM_BODY_LIMIT_BYTES must be a number of bytes' })
        .int()
        .min(1024, { error: 'FORM_BODY_LIMIT_BYTES must be at least 1024 bytes' })
        .default(DEFAULT_FORM_BODY_LIMIT_BYTES),
    ),
    UPSTREAM_TIMEOUT_MS: z.preprocess(
      unsetIfEmpty,
      z.coerce
        .number({ error: 'UPSTREAM_TIMEOUT_MS must be a number of milliseconds' })
        .int()
        .min(100, { error: 'UPSTREAM_TIMEOUT_MS must be at least 100 milliseconds' })
        .default(DEFAULT_UPSTREAM_TIMEOUT_MS),
    ),
    SHUTDOWN_TIMEOUT_MS: z.preprocess(
      unsetIfEmpty,
      z.coerce
        .number({ error: 'SHUTDOWN_TIMEOUT_MS must be a number of milliseconds' })
        .int()
        .min(100, { error: 'SHUTDOWN_TIMEOUT_MS must be at least 100 milliseconds' })
        .default(10_000),
    ),
    LOG_LEVEL: z.preprocess(
      (v) => (typeof v === 'string' ? unsetIfEmpty(v.toLowerCase()) : v),
      z.enum(LOG_LEVELS, { error: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
    ),
    ACCESS_LOG: AccessLogSchema,
    EMBEDDED_PLATFORM: z.preprocess(
      (v) => (typeof v === 'string' ? unsetIfEmpty(v.toLowerCase()) : v),
      z.enum(['worker', 'inline'], { error: 'EMBEDDED_PLATFORM must be worker or inline' }).default('worker'),
    ),
  })
  .superRefine((env, ctx) => {
    const window = [env.ANNOUNCEMENT_FROM, env.ANNOUNCEMENT_UNTIL, env.ANNOUNCEMENT_TEXT];
    const given = window.filter((v) => v !== undefined).length;
    if (given !== 0 && given !== 3) {
      ctx.addIssue({
        code: 'custom',
        path: ['ANNOUNCEMENT_FROM'],
        message:
          'ANNOUNCEMENT_FROM, ANNOUNCEMENT_UNTIL and ANNOUNCEMENT_TEXT go together: set all three or none',
      });
    } else if (given === 3 && Date.parse(env.ANNOUNCEMENT_FROM!) >= Date.parse(env.ANNOUNCEMENT_UNTIL!)) {
      ctx.addIssue({
        code: 'custom',
        path: ['ANNOUNCEMENT_UNTIL'],
        message: 'ANNOUNCEMENT_UNTIL must be later than ANNOUNCEMENT_FROM',
      });
    }
  });

/** The banner window the shell shows (spec 02 "announcement"): ISO datetimes (UTC, `toISOString`) and the text. */
export interface Announcement {
  from: string;
  until: string;
  text: string;
}

/** The parsed gateway configuration. Units: bytes for sizes; `port` 0 means "any free port". */
export interface GatewayConfig {
  port: number;
  host: string;
  /** Base URL of the upstream API without a trailing slash, or null for the embedded platform. */
  upstreamUrl: string | null;
  /** Absolute data directory (SQLite file, evidence files, keys). */
  dataDir: string;
  /** Cookie session secrets, newest first: the first seals, every one unseals (rotation). */
  sessionSecrets: string[];
  /** Where the secrets came from: the SESSION_SECRET variable, or the generated key file under DATA_DIR. */
  sessionSecretSource: 'env' | 'file';
  secureCookies: boolean;
  trustProxy: boolean | number | string[];
  /** BASE_PATH normalised: '' at the root, else a leading slash and no trailing one (`/cunzheng`). */
  basePath: string;
  announcement: Announcement | null;
  maxUploadBytes: number;
  /** Largest form-encoded (and non-upload multipart) page POST body, bytes (FORM_BODY_LIMIT_BYTES). */
  formBodyLimitBytes: number;
  /**
   * Milliseconds the upstream may stay silent (UPSTREAM_TIMEOUT_MS): no answer headers, or no byte of an answer
   * body, for this long ends the request with the connection-failed answer. Sending an upload's bytes counts as
   * progress, so a long upload is never cut while it flows.
   */
  upstreamTimeoutMs: number;
  /** SHUTDOWN_TIMEOUT_MS: how long SIGTERM waits for in-flight requests and jobs before exiting 1 (default 10 s). */
  shutdownTimeoutMs: number;
  logLevel: (typeof LOG_LEVELS)[number];
  /** ACCESS_LOG (default 'all'): which answers get an access line (platform/core/access-log.ts). */
  accessLog: AccessLogMode;
  /**
   * EMBEDDED_PLATFORM (default 'worker'): with UPSTREAM_URL unset, run the platform in a worker thread of this
   * process or in the gateway's own thread (server/embedded-platform.ts).
   */
  embeddedPlatform: 'worker' | 'inline';
}

/** Thrown when the environment is invalid; `message` lists every problem, one per line. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Splits the SESSION_SECRET comma list, dropping blanks. */
function splitSecrets(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Reads `${dataDir}/keys/session.key`, creating it (32 random bytes, hex, mode 0600) when missing.
 * Created with O_EXCL so two processes starting at once agree on one key.
 */
export function readOrCreateSessionKey(dataDir: string): string {
  const keyDir = path.join(dataDir, 'keys');
  const keyFile = path.join(keyDir, 'session.key');
  mkdirSync(keyDir, { recursive: true, mode: 0o700 });
  try {
    const fd = openSync(keyFile, 'wx', 0o600);
    try {
      writeSync(fd, randomBytes(32).toString('hex') + '\n');
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const key = readFileSync(keyFile, 'utf8').trim();
  if (key.length < 32)
    throw new ConfigError(`${keyFile} is shorter than 32 characters; delete it to regenerate`);
  return key;
}

/**
 * Parses the gateway's environment. Throws ConfigError listing every invalid variable.
 * When SESSION_SECRET is unset, reads or creates `${DATA_DIR}/keys/session.key` (a side effect on disk, once).
 *
 * @param env usually `process.env`
 */
export function loadGatewayConfig(env: Record<string, string | undefined>): GatewayConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || 'env'}: ${i.message}`);
    throw new ConfigError(`Invalid gateway configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const fromEnv = e.SESSION_SECRET !== undefined;
  return {
    port: e.PORT,
    host: e.HOST,
    upstreamUrl: e.UPSTREAM_URL ? e.UPSTREAM_URL.replace(/\/+$/, '') : null,
    dataDir,
    sessionSecrets: fromEnv ? splitSecrets(e.SESSION_SECRET!) : [readOrCreateSessionKey(dataDir)],
    sessionSecretSource: fromEnv ? 'env' : 'file',
    secureCookies: e.SECURE_COOKIES,
    trustProxy: e.TRUST_PROXY,
    basePath: e.BASE_PATH,
    announcement:
      e.ANNOUNCEMENT_FROM && e.ANNOUNCEMENT_UNTIL && e.ANNOUNCEMENT_TEXT
        ? {
            from: new Date(e.ANNOUNCEMENT_FROM).toISOString(),
            until: new Date(e.ANNOUNCEMENT_UNTIL).toISOString(),
            text: e.ANNOUNCEMENT_TEXT,
          }
        : null,
    maxUploadBytes: e.MAX_UPLOAD_BYTES,
    formBodyLimitBytes: e.FORM_BODY_LIMIT_BYTES,
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    logLevel: e.LOG_LEVEL,
    accessLog: e.ACCESS_LOG,
    embeddedPlatform: e.EMBEDDED_PLATFORM,
  };
}
