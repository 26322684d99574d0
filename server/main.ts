/**
 * Process entry (`npm start` = `node server/main.ts`): refuse a Node.js outside package.json's `engines` (see
 * `node-version.ts`), read the environment once (server/config/server.ts; docs/decisions/050-configuration.md) — a bad or
 * missing value ends the start with one message on standard error listing every problem, and exit code 1 — then
 * start the embedded platform (unless UPSTREAM_URL is set) and the gateway, and stop both on SIGTERM/SIGINT.
 * Everything else lives in `start.ts` and `app.ts`, imported only after these checks so that an old Node.js or a bad
 * configuration fails with a readable line, and fast, rather than inside a dependency.
 */
import { supportedNodeRange, unsupportedNodeMessage } from './node-version.ts';

const unsupported = unsupportedNodeMessage(process.version, supportedNodeRange(), process.execPath);
if (unsupported) {
  process.stderr.write(`${unsupported}\n`);
  process.exit(1);
}

const { ConfigError, readServerConfig } = await import('./config/server.ts');

let config: Awaited<ReturnType<typeof readServerConfig>>;
try {
  config = readServerConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    // A readable list for the operator, not a log line with a stack.
    process.stderr.write(`${err.message}\n`);
  } else {
    // the generated session key under DATA_DIR could not be written or read
    const { pino } = await import('pino');
    pino().fatal({ err }, 'start-up failed');
  }
  process.exit(1);
}

const { installShutdown, startConfiguredServer } = await import('./start.ts');
const { installProxy } = await import('../lib/outbound-proxy.ts');
const { createLogger } = await import('../lib/logger.ts');

try {
  // HTTPS_PROXY/NO_PROXY for this thread's fetch calls (the platform's worker does the same for its own); the
  // platform itself is always reached directly
  installProxy(config.outboundProxy);
  // A platform worker that dies leaves a gateway answering 502 to every /api request: exit and let the
  // supervisor (systemd, the container runtime) start the whole process again.
  const running = await startConfiguredServer(config, { onPlatformCrash: () => process.exit(1) });
  installShutdown(running, process, running.config.shutdownTimeoutMs);
} catch (err) {
  if (err instanceof ConfigError) {
    // a key file under DATA_DIR that cannot be used (server/config/gateway.ts): the operator's to fix
    process.stderr.write(`${err.message}\n`);
  } else {
    createLogger({ level: 'fatal', format: config.gateway.logFormat }).fatal({ err }, 'start-up failed');
  }
  process.exit(1);
}
