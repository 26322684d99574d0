/**
 * The embedded platform's start (server/embedded-platform.ts, both shapes: platform/worker.ts in a worker thread,
 * or inline in the gateway's thread): the configuration read from `env`, the app built, listening on 127.0.0.1 at a
 * free port. The standalone entry (platform/main.ts) listens where PLATFORM_HOST/PLATFORM_PORT say instead.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildPlatform, type BuildPlatformOptions } from './app.ts';
import { loadPlatformConfig } from './config.ts';

/** A platform listening on loopback. */
export interface LoopbackPlatform {
  app: FastifyInstance;
  /** Its base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
}

/**
 * Builds the platform for `env` (embedded: its peer, the gateway, is trusted; platform/core/trust-proxy.ts) and
 * listens on 127.0.0.1 port 0; an app that cannot listen is closed again.
 * @throws ConfigError (platform/config.ts) on a refused configuration; whatever building or listening throws
 */
export async function startLoopbackPlatform(
  env: Record<string, string | undefined>,
  opts: BuildPlatformOptions,
): Promise<LoopbackPlatform> {
  const app = await buildPlatform(loadPlatformConfig(env), { ...opts, embedded: true });
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
  } catch (err) {
    await app.close();
    throw err;
  }
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}
