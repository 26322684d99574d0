/**
 * Starting and stopping the whole process: the embedded platform on a loopback port (unless UPSTREAM_URL is set),
 * then the gateway and, with BACKGROUND_WORKER=child, the background worker as a supervised child process (PDFs
 * rendered ahead, captures; server/worker/, decision 064); `closeAll()` stops them in the reverse order. Everything
 * runs with the configuration parsed once (server/config/server.ts). `server/main.ts`, the integration tests and the
 * benches use it.
 */
import { createServer, type AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { processEnvironment, type Environment } from '../lib/config-schema.ts';
import { createLogger, resolveLogFormat } from '../lib/logger.ts';
import { restrictNewFiles } from '../lib/private-files.ts';
import { startTracing } from '../lib/tracing.ts';
import { buildServer, type BuildServerOptions } from './app.ts';
import { loadServerConfig, type GatewayConfig, type ServerConfig } from './config/server.ts';
import {
  platformConfigFrom,
  startEmbeddedPlatform,
  type EmbeddedPlatform,
  type EmbeddedPlatformMode,
} from './embedded-platform.ts';
import { childEnvironment, superviseWorker, type WorkerSupervisor } from './worker/supervisor.ts';
import { loopbackOrigin } from './http/loopback.ts';
import { GatewayMetrics, platformMetricsText } from './observability/metrics.ts';

/** A started gateway (and embedded platform, if any). */
export interface RunningServer {
  config: GatewayConfig;
  /** Everything the process was started with (server/config/server.ts). */
  serverConfig: ServerConfig;
  gateway: FastifyInstance;
  /** How the embedded platform runs, or null when UPSTREAM_URL points elsewhere. */
  embedded: EmbeddedPlatformMode | null;
  /** The embedded platform's Fastify instance when it runs inline (EMBEDDED_PLATFORM=inline), else null. */
  platform: FastifyInstance | null;
  /** The gateway's base URL for this machine, e.g. `http://localhost:3000` (no trailing slash). */
  url: string;
  /** The upstream base URL the gateway proxies to. */
  upstreamUrl: string;
  logger: Logger;
  /** Where `/metrics` is served (METRICS_PORT), e.g. `http://127.0.0.1:9464/metrics`, or null. */
  metricsUrl: string | null;
  /** The supervised background worker (BACKGROUND_WORKER=child), or null. */
  worker: WorkerSupervisor | null;
  /** Closes the gateway (waiting for in-flight requests), then the embedded platform. Idempotent. */
  closeAll(): Promise<void>;
}

/** Options of {@link startServer} besides the configuration; the UI options pass through to `buildServer`. */
export type StartOptions = Pick<BuildServerOptions, 'build' | 'buildDirectory' | 'mode'> & {
  /** A logger to use instead of a new one at LOG_LEVEL in LOG_FORMAT (lib/logger.ts). */
  logger?: Logger;
  /** Overrides EMBEDDED_PLATFORM (tests that reach into the platform's database ask for `inline`). */
  embeddedPlatform?: EmbeddedPlatformMode;
  /** Called when a worker-mode embedded platform ends without being asked to (server/main.ts exits then). */
  onPlatformCrash?: (err: Error) => void;
};

/** Turns a listening address into a URL a browser on this machine can open (0.0.0.0 / :: → localhost). */
function urlOf(address: AddressInfo | string | null): string {
  if (!address || typeof address === 'string')
    throw new Error(`unexpected server address ${String(address)}`);
  const host = ['0.0.0.0', '::', '127.0.0.1', '::1'].includes(address.address)
    ? 'localhost'
    : address.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}

/**
 * A port free right now on `host` (listened on, noted, closed), for PORT 0: the gateway listens on it only after the
 * embedded platform has started, whose PUBLIC_URL already names it. Drawn below Linux's ephemeral range
 * (`net.ipv4.ip_local_port_range`, 32768–60999 by default), where no outgoing connection can take it meanwhile (a
 * port from port 0 could be, and the listen then failed with EADDRINUSE on a busy test run); port 0's choice after 50
 * draws that are all taken.
 */
async function freePort(host: string): Promise<number> {
  for (let draw = 0; draw <= 50; draw++) {
    const candidate = draw < 50 ? 20_000 + Math.floor(Math.random() * 12_000) : 0;
    const probe = createServer();
    const listening = await new Promise<boolean>((resolve, reject) => {
      probe.once('error', (err: NodeJS.ErrnoException) =>
        draw < 50 && (err.code === 'EADDRINUSE' || err.code === 'EACCES') ? resolve(false) : reject(err),
      );
      probe.listen(candidate, host, () => resolve(true));
    });
    if (!listening) continue;
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    return port;
  }
  throw new Error('unreachable: the last draw listens on port 0');
}

/**
 * Starts everything for the environment `env` (a test's or a bench's; `npm start` reads the process's once, in
 * server/main.ts, and calls {@link startConfiguredServer}).
 * @throws ConfigError on a bad environment (as a rejection); whatever {@link startConfiguredServer} throws
 */
export async function startServer(env: Environment, opts: StartOptions = {}): Promise<RunningServer> {
  return startConfiguredServer(loadServerConfig(env), opts);
}

/**
 * Starts everything per `config` (server/config/server.ts). With UPSTREAM_URL unset, starts the embedded platform
 * (`buildPlatform` on 127.0.0.1 port 0, in a worker thread or inline per EMBEDDED_PLATFORM; server/embedded-platform.ts)
 * and points the gateway at it. The embedded platform's PUBLIC_URL defaults to the gateway's own listen address
 * (`http://localhost:${PORT}${BASE_PATH}`; with PORT 0 a free port is chosen first), so payment return and notify
 * URLs and the face sandbox's return link follow the real port.
 *
 * @throws whatever the platform or the gateway throw while starting (the embedded platform is closed again before
 *   the error propagates).
 */
export async function startConfiguredServer(
  serverConfig: ServerConfig,
  opts: StartOptions = {},
): Promise<RunningServer> {
  // DATA_DIR holds personal data and keys: everything this process creates there is owner-only (0700/0600).
  restrictNewFiles();
  const config = serverConfig.gateway;
  const logFormat = resolveLogFormat(config.logFormat);
  // One logger for the process; `part` tells the gateway's lines from the embedded platform's.
  const root = opts.logger ?? createLogger({ level: config.logLevel, format: logFormat });
  const logger = root.child({ part: 'gateway' });
  // traces when OTEL_EXPORTER_OTLP_ENDPOINT is set (lib/tracing.ts); the platform's worker starts its own
  const stopTracing = await startTracing(serverConfig.tracing, 'cunzheng-gateway');

  let embedded: EmbeddedPlatform | null = null;
  let upstreamUrl = config.upstreamUrl;
  let port = config.port;
  if (serverConfig.platform) {
    // the site's public URL includes BASE_PATH: payment return/notify and face links come back through it
    if (config.site.publicUrl === null) port ||= await freePort(config.host);
    const platformConfig = platformConfigFrom(serverConfig.platform, {
      publicUrl: urlOf({ address: config.host, port, family: '' }) + config.basePath,
    });
    embedded = await startEmbeddedPlatform(platformConfig, {
      mode: opts.embeddedPlatform ?? config.embeddedPlatform,
      // The gateway's access line covers every request; the platform adds a line only for its failures.
      accessLog: config.accessLog === 'off' ? 'off' : 'errors',
      logLevel: config.logLevel,
      logFormat,
      logger: root.child({ part: 'platform' }),
      onCrash: opts.onPlatformCrash,
    });
    upstreamUrl = embedded.url;
    logger.info({ upstreamUrl, mode: embedded.mode }, 'embedded platform started');
  }
  const platform = embedded?.app ?? null;
  if (!upstreamUrl) throw new Error('no upstream: UPSTREAM_URL unset and no embedded platform');
  const upstream = upstreamUrl;

  // The platform's internal key, for the PDF signing and the background worker: the embedded
  // platform's, or INTERNAL_API_KEY.
  const internalKey = serverConfig.internalApiKey ?? embedded?.internalKey;
  let gateway: FastifyInstance;
  const { pdf, metrics: metricsConfig } = serverConfig;
  const metrics =
    metricsConfig.port === null
      ? undefined
      : new GatewayMetrics({
          pdfStats: () =>
            gateway?.hasDecorator('certificatePdf') ? gateway.certificatePdf.pool.stats() : undefined,
          ...(internalKey ? { platformText: () => platformMetricsText(upstream, internalKey) } : {}),
        });
  try {
    gateway = await buildServer(config, {
      ...opts,
      upstreamUrl: upstream,
      internalKey,
      ...(embedded ? { platformCall: embedded.call } : {}),
      loggerInstance: logger,
      rateLimit: serverConfig.rateLimit,
      pdf,
      ...(metrics ? { metrics } : {}),
    });
    await gateway.listen({ host: config.host, port });
  } catch (err) {
    await embedded?.close();
    await stopTracing?.();
    throw err;
  }

  // Face polling and payment reconciliation are jobs of the platform itself (platform/jobs, decision 045). Chromium
  // work in the background — captures (decision 037), certificates rendered ahead — is the worker's (decision 064).
  const worker =
    serverConfig.worker.mode === 'child' && internalKey
      ? superviseWorker(
          childEnvironment(serverConfig.worker.variables, processEnvironment(), {
            UPSTREAM_URL: upstream,
            GATEWAY_URL: loopbackOrigin(gateway.server.address()) + config.basePath,
            INTERNAL_API_KEY: internalKey,
          }),
          root.child({ part: 'worker' }),
          embedded !== null,
        )
      : null;

  const url = urlOf(gateway.server.address());
  const metricsServer = metrics ? await metrics.serve(metricsConfig.host, metricsConfig.port!) : null;
  const metricsUrl = metricsServer
    ? `http://${metricsConfig.host.includes(':') ? `[${metricsConfig.host}]` : metricsConfig.host}:${metricsServer.port}/metrics`
    : null;
  let closing: Promise<void> | null = null;
  const closeAll = () => {
    closing ??= (async () => {
      try {
        await worker?.stop();
        await new Promise((resolve) =>
          metricsServer ? metricsServer.server.close(resolve) : resolve(undefined),
        );
        await gateway.close();
      } finally {
        await embedded?.close();
        await stopTracing?.();
      }
    })();
    return closing;
  };
  logger.info(
    {
      url,
      upstreamUrl: upstream,
      embedded: embedded?.mode ?? false,
      sessionSecret: config.sessionSecretSource,
    },
    `Cunzheng listening at ${url}`,
  );
  return {
    config,
    serverConfig,
    gateway,
    embedded: embedded?.mode ?? null,
    platform,
    url,
    upstreamUrl: upstream,
    logger,
    metricsUrl,
    worker,
    closeAll,
  };
}

export { installShutdown, type ShutdownHost } from './shutdown.ts';
