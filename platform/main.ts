/**
 * Standalone platform entry: `npm run start:platform` (`node platform/main.ts`). Reads the environment once
 * (platform/config.ts; docs/decisions/050-configuration.md) — a bad or missing value ends the start with one message
 * on standard error listing every problem, and exit code 1 — then listens on PLATFORM_HOST (default 127.0.0.1) :
 * PLATFORM_PORT (default 3001); SIGTERM/SIGINT close it gracefully (in-flight requests finish, the DB closes).
 * The gateway's `npm start` embeds the platform through buildPlatform instead.
 */
import { ConfigError } from '../lib/config-error.ts';
import { readPlatformProcessConfig, type PlatformProcessConfig } from './config.ts';

let config: PlatformProcessConfig;
try {
  config = readPlatformProcessConfig();
} catch (err) {
  // A readable list for the operator, not a log line with a stack.
  if (!(err instanceof ConfigError)) throw err;
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
}

const { platform, listen } = config;
const [{ buildPlatform }, { createLogger }, { installProxy }, { startTracing }] = await Promise.all([
  import('./app.ts'),
  import('../lib/logger.ts'),
  import('../lib/outbound-proxy.ts'),
  import('../lib/tracing.ts'),
]);
installProxy(platform.outboundProxy);
const stopTracing = await startTracing(platform.tracing, 'cunzheng-platform');
const app = await buildPlatform(platform, {
  loggerInstance: createLogger({ level: platform.logLevel, format: platform.logFormat }),
});
await app.listen({ port: listen.port, host: listen.host });

let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    app
      .close()
      .then(() => stopTracing?.())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          app.log.error({ err }, 'error while closing');
          process.exit(1);
        },
      );
  });
}
