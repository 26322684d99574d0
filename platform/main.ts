/**
 * Standalone platform entry: `node --import tsx platform/main.ts`. Listens on PLATFORM_HOST (default 127.0.0.1) :
 * PLATFORM_PORT (default 3001); SIGTERM/SIGINT close it gracefully (in-flight requests finish, the DB closes).
 * The gateway's `npm start` embeds the platform through buildPlatform instead.
 */
import pino from 'pino';
import { buildPlatform } from './app.ts';
import { loadPlatformConfig } from './config.ts';
import { logDestination } from './core/log-destination.ts';
import { installOutboundProxy } from './core/outbound-proxy.ts';
import { startTracing } from './core/tracing.ts';
import { withSecretFiles } from './secret-files.ts';

// one synchronous stream on standard output for the start-up log and the platform's own
const logStream = logDestination();
const bootLog = pino({ name: 'platform' }, logStream);
let config;
try {
  config = loadPlatformConfig(withSecretFiles(process.env));
  installOutboundProxy(process.env);
} catch (err) {
  bootLog.fatal((err as Error).message);
  process.exit(1);
}
const port = Number(process.env.PLATFORM_PORT ?? 3001);
const host = process.env.PLATFORM_HOST ?? '127.0.0.1';
const stopTracing = await startTracing(process.env, 'cunzheng-platform'); // when OTEL_* asks (core/tracing.ts)
const app = await buildPlatform(config, { logger: { level: config.logLevel, stream: logStream } });
await app.listen({ port, host });

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
