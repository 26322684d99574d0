/**
 * Process entry (`npm start` = `node --import tsx server/main.ts`): start the embedded platform (unless UPSTREAM_URL
 * is set) and the gateway, and stop both on SIGTERM/SIGINT. Everything else lives in `start.ts` and `app.ts`.
 */
import { pino } from 'pino';
import { ConfigError } from './config.ts';
import { installShutdown, startServer } from './start.ts';

try {
  const running = await startServer(process.env);
  installShutdown(running);
} catch (err) {
  if (err instanceof ConfigError) {
    // A readable list for the operator, not a JSON log line.
    process.stderr.write(`${err.message}\n`);
  } else {
    pino().fatal({ err }, 'start-up failed');
  }
  process.exit(1);
}
