/**
 * Variables both the gateway and the platform read (docs/decisions/050-configuration.md): one fragment each, composed
 * into server/config/server.ts and platform/config.ts, so that an embedded start parses them once and both parts agree on
 * their defaults. The witness composes the log fragment.
 */
import { DEFAULT_MAX_UPLOAD_BYTES } from '../contract/evidence.ts';
import type { Issuer } from '../contract/issuer.ts';
import {
  APP_ENV,
  envGroup,
  envVar,
  parseEnvironment,
  type EnvValues,
  type Environment,
} from './config-schema.ts';
import { flag, integer, oneOf, text, url, type Var } from './config-types.ts';
import { AccessLogSchema, type AccessLogMode } from './access-log.ts';
import { outboundProxyEnv, type ProxyEnv } from './outbound-proxy.ts';
import type { TracingConfig } from './tracing.ts';

/** Log levels pino accepts. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** How log lines are written: `pretty` (pino-pretty, one human line each) or `json` (one JSON object each). */
export type LogFormat = 'pretty' | 'json';

/** The runtime every part shares: the environment kind, the data directory, limits, trust and the internal key. */
export const RuntimeVars = envGroup({
  id: 'runtime',
  title: 'Runtime',
  summary:
    'What every part of one deployment shares: the kind of environment, where data lives, the upload limit, whose forwarded headers count, the internal key and the access log.',
  vars: {
    APP_ENV,
    DATA_DIR: envVar(text({ default: './data' }), {
      description: 'directory of the SQLite file, evidence files, keys, caches and the SMS outbox',
    }),
    MAX_UPLOAD_BYTES: envVar(integer({ min: 1, default: DEFAULT_MAX_UPLOAD_BYTES }), {
      description: 'largest evidence upload, bytes (2 GiB)',
    }),
    TRUST_PROXY: envVar(text(), {
      description:
        'whose X-Forwarded-* headers count: true, false, a hop count, or a comma list of addresses/CIDRs',
      defaultText: 'gateway: false; platform: loopback',
    }),
    INTERNAL_API_KEY: envVar(text({ pattern: /^.{32,}$/s, patternError: 'must be at least 32 characters' }), {
      description: "key of the gateway's jobs and PDF signing on /api/internal/* (at least 32 characters)",
      secret: true,
      defaultText: 'generated in DATA_DIR/keys',
    }),
    ACCESS_LOG: envVar(AccessLogSchema as Var<AccessLogMode>, {
      description:
        'which answers get an access line: all, errors (status ≥ 400) or off; the embedded platform logs only its failures',
    }),
  },
});

/** Log level and format (every process). */
export const LogVars = envGroup({
  id: 'logs',
  title: 'Logs',
  summary:
    'One line per event on standard output; pretty on a terminal, JSON otherwise. Tokens, codes and signed URLs are redacted either way.',
  vars: {
    LOG_LEVEL: envVar(oneOf(LOG_LEVELS, { default: 'info', lower: true }), {
      description: `pino level: ${LOG_LEVELS.join(', ')}`,
    }),
    LOG_FORMAT: envVar(oneOf(['pretty', 'json'], { lower: true }), {
      description: 'pretty (one human line per event, pino-pretty) or json (one JSON object per line)',
      defaultText: 'pretty when standard output is a terminal, else json',
    }),
  },
});

/** The site's public address and who issues its documents. */
export const SiteVars = envGroup({
  id: 'site',
  title: 'Site and issuer',
  summary:
    'The public address printed in certificates and given to payment providers, and who issues the documents (contract/issuer.ts).',
  vars: {
    PUBLIC_URL: envVar(url({ example: 'https://cunzheng.example.com' }), {
      description:
        'public base URL: PDF QR codes, payment notify and return URLs, the ledger origin (set it in production)',
      defaultText:
        "embedded platform: http://localhost:${PORT}${BASE_PATH}; PDF QR codes: the request's origin",
    }),
    PLATFORM_OPERATOR: envVar(text({ default: '存证云', max: 64 }), {
      description:
        'the operator who issues and signs certificates (issuer block, seal, signer certificate name)',
    }),
    NOTARY_OFFICE: envVar(text({ default: '合作公证机构', max: 64 }), {
      description: 'the cooperating notary office named in the footer, the legal texts and the certificates',
    }),
    SUPPORT_CONTACT: envVar(text({ max: 200 }), {
      description: 'support hotline and e-mail shown on the privacy policy and the help centre',
    }),
  },
});

/** PUBLIC_URL without its trailing slash, or null when unset. */
export function publicUrlOf(values: EnvValues<typeof SiteVars.vars>): string | null {
  return values.PUBLIC_URL?.replace(/\/+$/, '') ?? null;
}

/** The issuer every certificate, legal page and help page prints. */
export function issuerOf(values: EnvValues<typeof SiteVars.vars>): Issuer {
  return {
    operator: values.PLATFORM_OPERATOR,
    notaryOffice: values.NOTARY_OFFICE,
    contact: values.SUPPORT_CONTACT ?? null,
  };
}

const proxyUrl = (description: string) => envVar(url({ example: 'http://proxy.corp:8080' }), { description });

/** The corporate egress proxy of outbound calls (lib/outbound-proxy.ts; decision 043). */
export const OutboundVars = envGroup({
  id: 'outbound',
  title: 'Outbound proxy',
  summary:
    'Calls to providers (Alipay, WeChat Pay, Tencent SMS, a TSA, witnesses) through a corporate proxy; loopback is never proxied. Upper case wins over lower case, as curl reads them.',
  vars: {
    HTTPS_PROXY: proxyUrl('proxy of https calls (CONNECT)'),
    https_proxy: proxyUrl('lower-case spelling of HTTPS_PROXY'),
    HTTP_PROXY: proxyUrl('proxy of http calls'),
    http_proxy: proxyUrl('lower-case spelling of HTTP_PROXY'),
    NO_PROXY: envVar(text(), { description: "hosts reached directly, comma-separated (curl's syntax)" }),
    no_proxy: envVar(text(), { description: 'lower-case spelling of NO_PROXY' }),
  },
});

/**
 * The outbound proxy settings, or null when no proxy is set; `direct` adds hosts reached without it (the gateway's
 * UPSTREAM_URL host).
 */
export function outboundProxyOf(
  values: EnvValues<typeof OutboundVars.vars>,
  direct: readonly string[] = [],
): ProxyEnv | null {
  return outboundProxyEnv(values, direct);
}

/** OpenTelemetry traces (lib/tracing.ts; decision 044), by the standard OTEL_* variables. */
export const TracingVars = envGroup({
  id: 'traces',
  title: 'Traces (OpenTelemetry)',
  summary:
    'Spans of gateway, platform and SQL statements sent as OTLP over HTTP/JSON; off unless an endpoint is set. The standard OTEL_* variables.',
  vars: {
    OTEL_EXPORTER_OTLP_ENDPOINT: envVar(url(), {
      description: 'collector base URL; traces go to <it>/v1/traces',
    }),
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: envVar(url(), {
      description: 'full traces URL, instead of OTEL_EXPORTER_OTLP_ENDPOINT',
    }),
    OTEL_SDK_DISABLED: envVar(flag(false), { description: 'true turns traces off' }),
    OTEL_TRACES_EXPORTER: envVar(text(), {
      description: 'none turns traces off (otlp is the only exporter)',
    }),
    OTEL_BSP_SCHEDULE_DELAY: envVar(integer({ min: 1 }), {
      description: 'milliseconds between span batches',
      defaultText: "5000 (the SDK's)",
    }),
  },
});

/** Where traces go and how often, or null when they are off. */
export function tracingOf(values: EnvValues<typeof TracingVars.vars>): TracingConfig | null {
  if (values.OTEL_SDK_DISABLED) return null;
  if (values.OTEL_TRACES_EXPORTER?.toLowerCase() === 'none') return null;
  const traces = values.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const base = values.OTEL_EXPORTER_OTLP_ENDPOINT;
  const endpoint = traces ?? (base ? `${base.replace(/\/+$/, '')}/v1/traces` : null);
  if (!endpoint) return null;
  return {
    url: endpoint,
    ...(values.OTEL_BSP_SCHEDULE_DELAY ? { scheduleDelayMs: values.OTEL_BSP_SCHEDULE_DELAY } : {}),
  };
}

/** The traces settings of `env`'s OTEL_* variables (a test's own). @throws ConfigError on a bad value */
export function tracingConfig(env: Environment): TracingConfig | null {
  return tracingOf(parseEnvironment([TracingVars], env).values);
}
