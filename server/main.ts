/**
 * Process entry (`npm start` = `node --import tsx server/main.ts`): refuse a Node.js outside package.json's
 * `engines` (see `node-version.ts`), then start the embedded platform (unless UPSTREAM_URL is set) and the gateway,
 * and stop both on SIGTERM/SIGINT. Everything else lives in `start.ts` and `app.ts`, imported only after the check
 * so that an old Node.js fails with a readable line rather than inside a dependency.
 */
import { supportedNodeRange, unsupportedNodeMessage } from './node-version.ts';

const unsupported = unsupportedNodeMessage(process.version, supportedNodeRange(), process.execPath);
if (unsupported) {
  process.stderr.write(`${unsupported}\n`);
  process.exit(1);
}

const { pino } = await import('pino');
const { installShutdown, startServer } = await import('./start.ts');
const { installOutboundProxy } = await import('../platform/core/outbound-proxy.ts');

try {
  // HTTPS_PROXY/NO_PROXY for this thread's fetch calls (the platform's worker does the same for its own); the
  // platform itself is always reached directly
  const upstream = process.env.UPSTREAM_URL ? URL.parse(process.env.UPSTREAM_URL)?.hostname : undefined;
  installOutboundProxy(process.env, upstream ? [upstream] : []);
  // A platform worker that dies leaves a gateway answering 502 to every /api request: exit and let the
  // supervisor (systemd, the container runtime) start the whole process again.
  const running = await startServer(process.env, { onPlatformCrash: () => process.exit(1) });
  installShutdown(running, process, running.config.shutdownTimeoutMs);
} catch (err) {
  // the gateway's and the platform's configuration errors alike (server/config.ts, platform/config-error.ts)
  if (err instanceof Error && err.name === 'ConfigError') {
    // A readable list for the operator, not a JSON log line.
    process.stderr.write(`${err.message}\n`);
  } else {
    pino().fatal({ err }, 'start-up failed');
  }
  process.exit(1);
}
