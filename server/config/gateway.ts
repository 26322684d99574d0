/**
 * The gateway's own variables and its {@link GatewayConfig} (docs/decisions/050-configuration.md), composed into the
 * gateway process's schema by server/config/server.ts with the shared fragments (lib/config-shared.ts).
 *
 * Several gateways behind one load balancer MUST share SESSION_SECRET: the cookie session is sealed with it, so a
 * gateway with another secret cannot read the sessions of the others. The generated `${DATA_DIR}/keys/session.key`
 * is only right for a single gateway (the embedded default).
 */
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { SiteFacts } from '../../contract/issuer.ts';
import { ConfigError } from '../../lib/config-error.ts';
import {
  envGroup,
  envVar,
  parseEnvironment,
  type EnvValues,
  type Environment,
} from '../../lib/config-schema.ts';
export type { SiteFacts } from '../../contract/issuer.ts';
import {
  issuerOf,
  LogVars,
  publicUrlOf,
  RuntimeVars,
  SiteVars,
  type LogFormat,
  type LogLevel,
} from '../../lib/config-shared.ts';
import { flag, integer, isoDateTime, oneOf, text, url } from '../../lib/config-types.ts';
import type { AccessLogMode } from '../../lib/access-log.ts';

/** Default FORM_BODY_LIMIT_BYTES: the largest form-encoded page POST the gateway reads (64 KiB). */
export const DEFAULT_FORM_BODY_LIMIT_BYTES = 64 * 1024;

/** Default UPSTREAM_TIMEOUT_MS: how long the upstream may stay silent before the gateway gives up (30 s). */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000;

/** Splits the SESSION_SECRET comma list, dropping blanks. */
function splitSecrets(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * BASE_PATH (docs/decisions/047-base-path.md): segments of unreserved URL characters only (RFC 3986 §2.3), so it
 * needs no escaping in URLs, cookies' Path or HTML; no `.` or `..` segment (the lookahead).
 */
const BASE_PATH_PATTERN = /^(?!(?:.*\/)?\.\.?(?:\/.*)?$)\/*(?:[A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~-]+)*)?\/*$/;

/** SESSION_SECRET: a comma list of secrets of at least 32 characters each, newest first. */
const sessionSecrets = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined) return undefined;
    const list = splitSecrets(v);
    if (list.length > 0 && list.every((x) => x.length >= 32)) return list;
    ctx.addIssue({
      code: 'custom',
      message: 'must be a comma list of secrets of at least 32 characters each (newest first)',
    });
    return z.NEVER;
  });

/** The gateway's settings: where it listens, its upstream, sessions, limits, the banner and the UI's extras. */
export const GatewayVars = envGroup({
  id: 'gateway',
  title: 'Gateway',
  summary:
    'The web front (`npm start`, server/): where it listens, the upstream API it proxies (the embedded platform unless UPSTREAM_URL is set), cookie sessions, request limits, the announcement banner.',
  vars: {
    PORT: envVar(integer({ min: 0, max: 65_535, default: 3000 }), {
      description: 'listen port (0: any free port)',
    }),
    HOST: envVar(text({ default: '0.0.0.0' }), { description: 'listen address' }),
    UPSTREAM_URL: envVar(url({ example: 'http://10.0.0.5:8080' }), {
      description: 'a separate platform API to proxy to; unset: the embedded platform in this process',
      defaultText: 'the embedded platform',
    }),
    EMBEDDED_PLATFORM: envVar(oneOf(['worker', 'inline'], { default: 'worker', lower: true }), {
      description: "the embedded platform in a worker thread, or inline in the gateway's thread",
    }),
    SESSION_SECRET: envVar(sessionSecrets, {
      description:
        'cookie session secrets, comma-separated, newest first (rotation); several gateways must share them',
      secret: true,
      defaultText: 'generated in DATA_DIR/keys/session.key',
    }),
    SECURE_COOKIES: envVar(flag(false), {
      description: '1 behind TLS: Secure cookies, HSTS, upgrade-insecure-requests',
    }),
    BASE_PATH: envVar(
      text({
        pattern: BASE_PATH_PATTERN,
        patternError: 'BASE_PATH must be a path such as /cunzheng/ (letters, digits, . _ ~ - and slashes)',
      }),
      {
        description: 'path prefix of the whole UI and API behind a corporate gateway, e.g. /cunzheng/',
        defaultText: '/',
      },
    ),
    FORM_BODY_LIMIT_BYTES: envVar(integer({ min: 1024, default: DEFAULT_FORM_BODY_LIMIT_BYTES }), {
      description: 'largest form-encoded page POST the gateway reads, bytes',
    }),
    UPSTREAM_TIMEOUT_MS: envVar(integer({ min: 100, default: DEFAULT_UPSTREAM_TIMEOUT_MS }), {
      description: 'how long the upstream may stay silent before pages and /api answer 连接失败 (504), ms',
    }),
    SHUTDOWN_TIMEOUT_MS: envVar(integer({ min: 100, default: 10_000 }), {
      description: 'how long SIGTERM/SIGINT waits for in-flight requests and jobs before exiting 1, ms',
    }),
    ANNOUNCEMENT_FROM: envVar(isoDateTime(), {
      description: 'start of the announcement banner (ISO datetime)',
    }),
    ANNOUNCEMENT_UNTIL: envVar(isoDateTime(), {
      description: 'end of the announcement banner (ISO datetime)',
    }),
    ANNOUNCEMENT_TEXT: envVar(text({ max: 500 }), { description: "the announcement banner's text" }),
    STORAGE_HOST_REWRITE: envVar(text(), {
      description: 'from=to,… host rewrite of decoded file URLs on the certificate pages (spec 01 §9)',
    }),
    NODE_ENV: envVar(text({ default: 'development' }), {
      description:
        'production serves the built UI (npm start sets it); anything else runs Vite in middleware mode',
    }),
  },
  checks: [
    {
      vars: ['ANNOUNCEMENT_FROM', 'ANNOUNCEMENT_UNTIL', 'ANNOUNCEMENT_TEXT'],
      problems: (v) => {
        const given = [v.ANNOUNCEMENT_FROM, v.ANNOUNCEMENT_UNTIL, v.ANNOUNCEMENT_TEXT].filter(
          (x) => x !== undefined,
        ).length;
        if (given !== 0 && given !== 3) {
          return [
            'ANNOUNCEMENT_FROM: ANNOUNCEMENT_FROM, ANNOUNCEMENT_UNTIL and ANNOUNCEMENT_TEXT go together: set all three or none',
          ];
        }
        return given === 3 && Date.parse(v.ANNOUNCEMENT_FROM!) >= Date.parse(v.ANNOUNCEMENT_UNTIL!)
          ? ['ANNOUNCEMENT_UNTIL: must be later than ANNOUNCEMENT_FROM']
          : [];
      },
    },
  ],
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
  logLevel: LogLevel;
  /** LOG_FORMAT: pretty or json; undefined: pretty when standard output is a terminal (lib/logger.ts). */
  logFormat: LogFormat | undefined;
  /** ACCESS_LOG (default 'all'): which answers get an access line (lib/access-log.ts). */
  accessLog: AccessLogMode;
  /**
   * EMBEDDED_PLATFORM (default 'worker'): with UPSTREAM_URL unset, run the platform in a worker thread of this
   * process or in the gateway's own thread (server/embedded-platform.ts).
   */
  embeddedPlatform: 'worker' | 'inline';
  /** NODE_ENV (default development): `production` serves the built UI, anything else runs Vite. */
  nodeEnv: string;
  /** What the pages print about the site (PUBLIC_URL, the issuer, STORAGE_HOST_REWRITE). */
  site: SiteFacts;
}

/**
 * Reads `${dataDir}/keys/session.key`, creating it (32 random bytes, hex, mode 0600) when missing.
 * Created with O_EXCL so two processes starting at once agree on one key.
 * @throws ConfigError when the file holds fewer than 32 characters
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
 * TRUST_PROXY as Fastify's `trustProxy` accepts it: `true`/`false`, a hop count, or a comma list of addresses/CIDRs.
 * Unset means false: X-Forwarded-* from clients are not believed.
 */
function trustProxyOf(value: string | undefined): boolean | number | string[] {
  if (value === undefined || value === 'false' || value === '0') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The groups {@link gatewayConfigOf} reads. */
export const GATEWAY_GROUPS = [RuntimeVars, LogVars, SiteVars, GatewayVars] as const;

type GatewayValues = EnvValues<typeof RuntimeVars.vars> &
  EnvValues<typeof LogVars.vars> &
  EnvValues<typeof SiteVars.vars> &
  EnvValues<typeof GatewayVars.vars>;

/**
 * The gateway configuration of parsed values. When SESSION_SECRET is unset, reads or creates
 * `${DATA_DIR}/keys/session.key` (a side effect on disk, once).
 */
export function gatewayConfigOf(e: GatewayValues): GatewayConfig {
  const dataDir = path.resolve(e.DATA_DIR);
  const fromEnv = e.SESSION_SECRET !== undefined;
  const basePath = (e.BASE_PATH ?? '').replace(/^\/+|\/+$/g, '');
  return {
    port: e.PORT,
    host: e.HOST,
    upstreamUrl: e.UPSTREAM_URL ? e.UPSTREAM_URL.replace(/\/+$/, '') : null,
    dataDir,
    sessionSecrets: e.SESSION_SECRET ?? [readOrCreateSessionKey(dataDir)],
    sessionSecretSource: fromEnv ? 'env' : 'file',
    secureCookies: e.SECURE_COOKIES,
    trustProxy: trustProxyOf(e.TRUST_PROXY),
    basePath: basePath ? `/${basePath}` : '',
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
    logFormat: e.LOG_FORMAT,
    accessLog: e.ACCESS_LOG,
    embeddedPlatform: e.EMBEDDED_PLATFORM,
    nodeEnv: e.NODE_ENV,
    site: siteFactsOf(e),
  };
}

/** PUBLIC_URL, the issuer and STORAGE_HOST_REWRITE of parsed values: what pages and PDFs print (the worker's too). */
export function siteFactsOf(e: GatewayValues): SiteFacts {
  return { publicUrl: publicUrlOf(e), issuer: issuerOf(e), storageHostRewrite: e.STORAGE_HOST_REWRITE ?? '' };
}

/** The gateway's own variables of `env` (a test's; the process reads server/config/server.ts). @throws ConfigError */
export function loadGatewayConfig(env: Environment): GatewayConfig {
  return gatewayConfigOf(parseEnvironment(GATEWAY_GROUPS, env).values);
}
