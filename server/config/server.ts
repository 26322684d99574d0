/**
 * The gateway process's configuration (`npm start`, server/main.ts; docs/decisions/050-configuration.md): every
 * variable it reads — its own (config-gateway.ts, pdf/config.ts, capture/config.ts, config-metrics.ts,
 * config-rate-limit.ts), the fragments it shares with the platform (lib/config-shared.ts) and, with UPSTREAM_URL
 * unset, the embedded platform's (platform/config.ts) — parsed once at the entry point into one frozen
 * {@link ServerConfig} that is passed down: to the plugins, to the embedded platform, and through the load context
 * to the pages (app/context.ts). A bad or missing value stops the start with one message listing every problem.
 */
import { ConfigError } from '../../lib/config-error.ts';
import {
  deepFreeze,
  parseEnvironment,
  processEnvironment,
  type Environment,
} from '../../lib/config-schema.ts';
import { OutboundVars, outboundProxyOf, TracingVars, tracingOf } from '../../lib/config-shared.ts';
import { PLATFORM_GROUPS, type PlatformSettings } from '../embedded-platform.ts';
import type { ProxyEnv } from '../../lib/outbound-proxy.ts';
import type { TracingConfig } from '../../lib/tracing.ts';
import { captureOf, CaptureVars, type CaptureConfig } from '../capture/config.ts';
import { GATEWAY_GROUPS, gatewayConfigOf, type GatewayConfig } from './gateway.ts';
import { metricsOf, MetricsVars, type MetricsConfig } from './metrics.ts';
import { rateLimitOf, RateLimitVars, type RateLimitSettings } from './rate-limit.ts';
import { pdfOf, PdfVars, type PdfConfig } from '../pdf/config.ts';
import {
  backgroundWorkerOf,
  workerVariables,
  WorkerVars,
  type BackgroundWorkerMode,
} from '../worker/config.ts';

export { ConfigError };
export {
  DEFAULT_FORM_BODY_LIMIT_BYTES,
  DEFAULT_UPSTREAM_TIMEOUT_MS,
  loadGatewayConfig,
  readOrCreateSessionKey,
  type Announcement,
  type GatewayConfig,
  type SiteFacts,
} from './gateway.ts';

/** The groups the gateway always reads, in the docs' order (the shared fragments first). */
export const SERVER_GROUPS = [
  ...GATEWAY_GROUPS,
  PdfVars,
  CaptureVars,
  MetricsVars,
  RateLimitVars,
  OutboundVars,
  TracingVars,
  WorkerVars,
] as const;

/** Everything the gateway process runs with. Sizes in bytes, times in milliseconds. */
export interface ServerConfig {
  gateway: GatewayConfig;
  pdf: PdfConfig;
  capture: CaptureConfig;
  metrics: MetricsConfig;
  rateLimit: RateLimitSettings;
  /** This thread's outbound proxy (UPSTREAM_URL's host reached directly), or null. */
  outboundProxy: ProxyEnv | null;
  /** Where the gateway's spans go, or null when traces are off. */
  tracing: TracingConfig | null;
  /** INTERNAL_API_KEY, or undefined (then the embedded platform's generated key). */
  internalApiKey: string | undefined;
  /**
   * BACKGROUND_WORKER, WORKER_NICE and the worker's variables of this environment (server/worker/supervisor.ts): what
   * `npm start` gives the background worker it supervises (decision 064).
   */
  worker: { mode: BackgroundWorkerMode; nice: number; variables: Readonly<Record<string, string>> };
  /**
   * The embedded platform's variables as parsed (UPSTREAM_URL unset), or null in front of another upstream: the
   * start derives its config once the listen port is known (PUBLIC_URL's default; platform/config.ts
   * `platformConfigFrom`).
   */
  platform: PlatformSettings | null;
}

/**
 * Parses the gateway's environment `env` (the process's, read by {@link readServerConfig}; a test's or a bench's).
 * With UPSTREAM_URL unset the embedded platform's variables are parsed in the same pass, so one message lists the
 * problems of both. When SESSION_SECRET is unset, reads or creates `${DATA_DIR}/keys/session.key`.
 * @throws ConfigError listing every problem, never a secret's value
 */
export function loadServerConfig(env: Environment): ServerConfig {
  const embedded = !env.UPSTREAM_URL?.trim();
  const groups = embedded ? [...SERVER_GROUPS, ...PLATFORM_GROUPS] : SERVER_GROUPS;
  const parsed = parseEnvironment(groups as typeof SERVER_GROUPS, env);
  const e = parsed.values;
  const gateway = gatewayConfigOf(e);
  const upstreamHost = gateway.upstreamUrl ? URL.parse(gateway.upstreamUrl)?.hostname : undefined;
  return deepFreeze({
    gateway,
    pdf: pdfOf(e),
    capture: captureOf(e),
    metrics: metricsOf(e),
    rateLimit: rateLimitOf(e),
    outboundProxy: outboundProxyOf(e, upstreamHost ? [upstreamHost] : []),
    tracing: tracingOf(e),
    internalApiKey: e.INTERNAL_API_KEY,
    worker: { ...backgroundWorkerOf(e), variables: workerVariables(env) },
    platform: embedded ? (parsed as unknown as PlatformSettings) : null,
  });
}

/** The gateway's configuration of this process's environment, read once. @throws ConfigError */
export function readServerConfig(): ServerConfig {
  return loadServerConfig(processEnvironment());
}
