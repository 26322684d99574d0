/**
 * The background worker's configuration (docs/decisions/064-background-worker.md; decision 050): the `worker` group
 * (whether `npm start` supervises a worker child, the worker's CPU priority, the gateway its Chromium prints from)
 * and the worker process's whole schema, {@link WORKER_GROUPS}: the gateway's groups (it prints the gateway's pages
 * and signs and caches PDFs as the gateway does, so it reads the same variables), PDF, capture, outbound proxy and
 * traces. The worker never reads the platform's variables: it holds no database URL or storage credentials, only the
 * internal key, since its Chromium opens pages of any site.
 */
import path from 'node:path';
import {
  deepFreeze,
  envGroup,
  envVar,
  metaOf,
  parseEnvironment,
  type EnvValues,
  type Environment,
} from '../../lib/config-schema.ts';
import { ConfigError } from '../../lib/config-error.ts';
import {
  OutboundVars,
  outboundProxyOf,
  TracingVars,
  tracingOf,
  type LogFormat,
  type LogLevel,
} from '../../lib/config-shared.ts';
import { integer, oneOf, url } from '../../lib/config-types.ts';
import type { ProxyEnv } from '../../lib/outbound-proxy.ts';
import type { TracingConfig } from '../../lib/tracing.ts';
import type { SiteFacts } from '../../contract/issuer.ts';
import { captureOf, CaptureVars, type CaptureConfig } from '../capture/config.ts';
import { GATEWAY_GROUPS, siteFactsOf } from '../config/gateway.ts';
import { pdfOf, PdfVars, type PdfConfig } from '../pdf/config.ts';

/** BACKGROUND_WORKER, WORKER_NICE, GATEWAY_URL. */
export const WorkerVars = envGroup({
  id: 'worker',
  title: 'Background worker',
  summary:
    'The process that does Chromium work in the background — certificate PDFs rendered ahead, web and process captures — at a lower CPU priority than the servers (`npm run start:worker`, server/worker/; decision 064).',
  vars: {
    BACKGROUND_WORKER: envVar(oneOf(['child', 'off'], { default: 'child', lower: true }), {
      description:
        'gateway: child runs the background worker as a child process it supervises; off runs none (start `npm run start:worker` separately)',
    }),
    WORKER_NICE: envVar(integer({ name: 'WORKER_NICE', min: 0, max: 19, default: 10 }), {
      description:
        "worker: the nice value it lowers its threads to before it starts Chromium, whose processes inherit it (0: the servers' priority)",
    }),
    GATEWAY_URL: envVar(url({ example: 'http://gateway:3000/cunzheng' }), {
      description:
        'worker: a gateway whose certificate print views its Chromium opens, with BASE_PATH; required by `npm run start:worker`',
      defaultText: "the supervising gateway's own URL",
    }),
  },
});

/** The groups the worker process reads, in the docs' order. */
export const WORKER_GROUPS = [
  ...GATEWAY_GROUPS,
  PdfVars,
  CaptureVars,
  OutboundVars,
  TracingVars,
  WorkerVars,
] as const;

/** What `npm start` does about the worker (BACKGROUND_WORKER). */
export type BackgroundWorkerMode = 'child' | 'off';

/** The worker group as the gateway reads it. */
export function backgroundWorkerOf(e: EnvValues<typeof WorkerVars.vars>): {
  mode: BackgroundWorkerMode;
  nice: number;
} {
  return { mode: e.BACKGROUND_WORKER, nice: e.WORKER_NICE };
}

/** Everything the worker runs with. Times in milliseconds, sizes in bytes. */
export interface WorkerConfig {
  /** The platform the worker claims jobs from and signs with (UPSTREAM_URL), no trailing slash. */
  upstreamUrl: string;
  /** The gateway its Chromium opens print views from, BASE_PATH included, no trailing slash (GATEWAY_URL). */
  gatewayUrl: string;
  /** INTERNAL_API_KEY: the worker's calls to /api/internal/*. */
  internalKey: string;
  /** DATA_DIR, absolute: the PDF cache's default home. */
  dataDir: string;
  /** WORKER_NICE. */
  nice: number;
  pdf: PdfConfig;
  capture: CaptureConfig;
  /** PUBLIC_URL and the issuer the PDFs print and sign with (as the gateway's). */
  site: SiteFacts;
  logLevel: LogLevel;
  logFormat: LogFormat | undefined;
  outboundProxy: ProxyEnv | null;
  tracing: TracingConfig | null;
}

/**
 * Parses the worker's environment `env` (the process's in server/worker/main.ts; a test's).
 * @throws ConfigError listing every problem, and when UPSTREAM_URL, GATEWAY_URL or INTERNAL_API_KEY is missing
 */
export function loadWorkerConfig(env: Environment): WorkerConfig {
  const e = parseEnvironment(WORKER_GROUPS, env).values;
  const missing = [
    e.UPSTREAM_URL ? null : 'UPSTREAM_URL: required by the worker (the platform it claims jobs from)',
    e.GATEWAY_URL ? null : 'GATEWAY_URL: required by the worker (the gateway whose print views it opens)',
    e.INTERNAL_API_KEY ? null : 'INTERNAL_API_KEY: required by the worker (its calls to /api/internal/*)',
  ].filter((p) => p !== null);
  if (missing.length > 0) throw new ConfigError(missing.join('\n'));
  const upstreamUrl = e.UPSTREAM_URL!.replace(/\/+$/, '');
  return deepFreeze({
    upstreamUrl,
    gatewayUrl: e.GATEWAY_URL!.replace(/\/+$/, ''),
    internalKey: e.INTERNAL_API_KEY!,
    dataDir: path.resolve(e.DATA_DIR),
    nice: e.WORKER_NICE,
    pdf: pdfOf(e),
    capture: captureOf(e),
    site: siteFactsOf(e),
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    outboundProxy: outboundProxyOf(e, [URL.parse(upstreamUrl)?.hostname ?? '']),
    tracing: tracingOf(e),
  });
}

/** Variables of the worker's schema it does not need and must not hold. */
const WITHHELD = new Set(['SESSION_SECRET', 'SESSION_SECRET_FILE']);

/**
 * The worker schema's variables (and `NAME_FILE` of its secrets) set in `env`, less those it must not hold: what the
 * gateway keeps of its environment for the child (server/config/server.ts).
 */
export function workerVariables(env: Environment): Record<string, string> {
  const out: Record<string, string> = {};
  const copy = (name: string) => {
    const v = env[name];
    if (v !== undefined && !WITHHELD.has(name)) out[name] = v;
  };
  for (const group of WORKER_GROUPS) {
    for (const [name, schema] of Object.entries(group.vars)) {
      copy(name);
      if (metaOf(name, schema).secret) copy(`${name}_FILE`);
    }
  }
  return out;
}
