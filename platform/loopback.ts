/**
 * The embedded platform's start (server/embedded-platform.ts, both shapes: platform/worker.ts in a worker thread,
 * or inline in the gateway's thread): the app built for the configuration the gateway parsed (server/config/server.ts),
 * listening on 127.0.0.1 at a free port. The standalone entry (platform/main.ts) listens where PLATFORM_HOST/PLATFORM_PORT say instead.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildPlatform, type BuildPlatformOptions } from './app.ts';
import type { PlatformConfig } from './config.ts';

/** A platform listening on loopback. */
export interface LoopbackPlatform {
  app: FastifyInstance;
  /** Its base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
}

/**
 * Builds the platform for `config` (embedded: its peer, the gateway, is trusted; platform/core/trust-proxy.ts) and
 * listens on 127.0.0.1 port 0; an app that cannot listen is closed again.
 * @throws whatever building or listening throws
 */
export async function startLoopbackPlatform(
  config: PlatformConfig,
  opts: BuildPlatformOptions,
): Promise<LoopbackPlatform> {
  const app = await buildPlatform(config, { ...opts, embedded: true });
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
  } catch (err) {
    await app.close();
    throw err;
  }
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}
