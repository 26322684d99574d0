/**
 * The background worker's entry (`npm run start:worker` = `node server/worker/main.ts`; the child `npm start`
 * supervises runs the same file; docs/decisions/064-background-worker.md): refuse a Node.js outside package.json's
 * `engines`, read the environment once (./config.ts) — a bad or missing value ends the start with one message on
 * standard error and exit code 1 — lower every thread to WORKER_NICE before anything starts a thread or Chromium,
 * then run the capture and render loops (./run.ts) until SIGTERM/SIGINT, which let the jobs going now end first,
 * or, as `npm start`'s child, until its gateway's channel closes.
 */
import { supportedNodeRange, unsupportedNodeMessage } from '../node-version.ts';

const unsupported = unsupportedNodeMessage(process.version, supportedNodeRange(), process.execPath);
if (unsupported) {
  process.stderr.write(`${unsupported}\n`);
  process.exit(1);
}

// A supervised child (./supervisor.ts) stops when its gateway is gone, however it went: the IPC channel closes.
// Listened for before the first await, so that a gateway killed while this child is still loading does not leave it
// running for good (decision 064); until the shutdown below is installed, SIGTERM ends the process at once.
const supervised = process.channel !== undefined;
if (supervised) process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));

const { ConfigError } = await import('../../lib/config-error.ts');
const { processEnvironment } = await import('../../lib/config-schema.ts');
const { loadWorkerConfig } = await import('./config.ts');

let config: ReturnType<typeof loadWorkerConfig>;
try {
  config = loadWorkerConfig(processEnvironment());
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
}

const { lowerPriority } = await import('./priority.ts');
lowerPriority(config.nice);

const path = await import('node:path');
const { createLogger } = await import('../../lib/logger.ts');
const { installProxy } = await import('../../lib/outbound-proxy.ts');
const { startTracing } = await import('../../lib/tracing.ts');
const { installShutdown } = await import('../shutdown.ts');
const { startWorker } = await import('./run.ts');
const { WAKE_MESSAGE } = await import('./renders.ts');
const { serverLoad } = await import('./server-load.ts');

const logger = createLogger({ level: config.logLevel, format: config.logFormat }).child({ part: 'worker' });
try {
  installProxy(config.outboundProxy);
  const stopTracing = await startTracing(config.tracing, 'cunzheng-worker');
  // supervised by a gateway (./supervisor.ts): it says when it is busy, and renders ahead wait (./server-load.ts)
  const load = supervised ? serverLoad() : undefined;
  const running = await startWorker(config, {
    logger,
    buildDirectory: path.resolve('build'),
    ...(load ? { serverLoad: load } : {}),
  });
  installShutdown(
    {
      logger,
      closeAll: async () => {
        await running.stop();
        await stopTracing?.();
      },
    },
    process,
  );
  if (supervised) {
    // the gateway's wake-up: evidence events were committed (./supervisor.ts)
    process.on('message', (m) => {
      if (m === WAKE_MESSAGE) running.renders?.wake();
      else load?.hear(m);
    });
  }
} catch (err) {
  logger.fatal({ err }, 'worker start-up failed');
  process.exit(1);
}
