/**
 * `npm run witness`: a local transparency-log witness over HTTP (witness/witness.ts; c2sp.org/tlog-witness):
 *   POST /add-checkpoint   the witness protocol (text body, at most 64 KiB);
 *   GET  /vkey             the witness's verifier key, what a log lists in LEDGER_WITNESSES and a verifier trusts.
 * Environment (witness/config.ts, read once at start; a bad or missing value exits 1 with the list of problems):
 *   WITNESS_LOGS  the note verifier keys of the logs to witness, comma- or newline-separated (required), e.g.
 *                 `$(curl -s http://localhost:3000/.well-known/cunzheng-ledger.vkey)`;
 *   WITNESS_NAME  its key name (default `witness.local/<host name>`);
 *   WITNESS_DIR   its key and state (default `./data/witness`);
 *   PORT, HOST    where it listens (default 127.0.0.1:3300); LOG_LEVEL, LOG_FORMAT.
 * It keeps its own state: point it at a directory no one else writes.
 */
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { ConfigError } from '../lib/config-error.ts';
import { createLogger } from '../lib/logger.ts';
import { readWitnessConfig, type WitnessConfig } from './config.ts';
import { Witness } from './witness.ts';

/** Largest add-checkpoint body: 63 proof lines and a note with a few dozen signatures fit many times over. */
const BODY_LIMIT_BYTES = 64 * 1024;

/**
 * Starts the witness server for `config` (witness/config.ts). @returns the Fastify instance (listening) and the witness
 * @throws when its state cannot be opened or the port cannot be listened on
 */
export async function startWitness(config: WitnessConfig) {
  const witness = await Witness.open(config.dir, config.name, config.logs);
  const app = Fastify({
    bodyLimit: BODY_LIMIT_BYTES,
    loggerInstance: createLogger({ level: config.logLevel, format: config.logFormat }) as FastifyBaseLogger,
  });
  app.get('/vkey', async (_request, reply) => {
    reply.type('text/plain; charset=utf-8');
    return `${witness.verifierKey}\n`;
  });
  app.post('/add-checkpoint', async (request, reply) => {
    const body = typeof request.body === 'string' ? request.body : '';
    const answer = await witness.addCheckpoint(body);
    if (answer.status !== 200)
      request.log.warn({ status: answer.status, why: answer.body.trim() }, 'refused');
    reply.code(answer.status).type(answer.contentType);
    return answer.body;
  });
  await app.listen({ port: config.port, host: config.host });
  return { app, witness };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let config: WitnessConfig;
  try {
    config = readWitnessConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
  const { app, witness } = await startWitness(config);
  app.log.info({ name: witness.name, vkey: witness.verifierKey }, 'witness ready');
  const stop = () => void app.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
