/**
 * The Alipay sandbox as a server of its own (docs/decisions/010-kyc-foundations.md): keys and certifications under
 * `${dataDir}/alipay-sandbox/`, the sandbox gateway (`platform/kyc/alipay-sandbox.ts`) on loopback, and the SDK client
 * config that points at it.
 */
import path from 'node:path';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import type { AlipayClientConfig } from './alipay-face.ts';
import {
  SANDBOX_DIR,
  loadOrCreateSandboxKeys,
  sandboxClientConfig,
  type AlipaySandboxKeys,
} from './alipay-sandbox-keys.ts';
import { CertificationStore } from './alipay-sandbox-store.ts';
import {
  SANDBOX_STATE_FILE,
  SANDBOX_GATEWAY_PATH,
  type AlipaySandboxMethod,
  alipaySandboxPlugin,
} from './alipay-sandbox.ts';

// ---------------------------------------------------------------------------------------------------------------
// Standalone server
// ---------------------------------------------------------------------------------------------------------------

/** Options of {@link startAlipaySandbox}. */
export interface StartAlipaySandboxOptions {
  /** Data directory: keys and state go to `${dataDir}/alipay-sandbox/`. */
  dataDir: string;
  /** Address to listen on (default 127.0.0.1: the sandbox is for loopback). */
  host?: string;
  /** Port (default 0: any free port). */
  port?: number;
  /** Keep certifications only in memory instead of the state file (default false). */
  memoryOnly?: boolean;
  /** A pino logger for the sandbox's Fastify (default: none). */
  logger?: FastifyBaseLogger;
  /** See {@link AlipaySandboxPluginOptions.maxClockSkewMs}. */
  maxClockSkewMs?: number;
  /** The clock, ms since the epoch (tests). */
  now?: () => number;
  /** See {@link AlipaySandboxPluginOptions.methods}; `routes` registers their pages on the same server. */
  methods?: Readonly<Record<string, AlipaySandboxMethod>>;
  routes?: FastifyPluginAsync;
}

/** A running sandbox. */
export interface AlipaySandbox {
  /** Origin, e.g. http://127.0.0.1:41234 */
  url: string;
  /** The gateway URL for the SDK: `${url}/gateway.do`. */
  gateway: string;
  keys: AlipaySandboxKeys;
  store: CertificationStore;
  app: FastifyInstance;
  /** The SDK client config for this sandbox (see {@link sandboxClientConfig}). */
  clientConfig(): AlipayClientConfig;
  close(): Promise<void>;
}

/**
 * Starts the sandbox as its own Fastify server on loopback, with keys and state under `dataDir`.
 * @throws when the keys cannot be loaded or created, or the port cannot be bound
 */
export async function startAlipaySandbox(opts: StartAlipaySandboxOptions): Promise<AlipaySandbox> {
  const keys = await loadOrCreateSandboxKeys(opts.dataDir);
  const store = await CertificationStore.open(
    opts.memoryOnly ? null : path.join(opts.dataDir, SANDBOX_DIR, SANDBOX_STATE_FILE),
  );
  const app = Fastify(opts.logger ? { loggerInstance: opts.logger } : { logger: false });
  await app.register(alipaySandboxPlugin, {
    keys,
    store,
    ...(opts.maxClockSkewMs !== undefined ? { maxClockSkewMs: opts.maxClockSkewMs } : {}),
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.methods ? { methods: opts.methods } : {}),
  });
  if (opts.routes) await app.register(opts.routes);
  await app.listen({ host: opts.host ?? '127.0.0.1', port: opts.port ?? 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('sandbox: no TCP address');
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  const gateway = `${url}${SANDBOX_GATEWAY_PATH}`;
  return {
    url,
    gateway,
    keys,
    store,
    app,
    clientConfig: () => sandboxClientConfig(keys, gateway),
    close: () => app.close(),
  };
}
