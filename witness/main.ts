/**
 * `npm run witness`: a local transparency-log witness over HTTP (witness/witness.ts; c2sp.org/tlog-witness):
 *   POST /add-checkpoint   the witness protocol (text body, at most 64 KiB);
 *   GET  /vkey             the witness's verifier key, what a log lists in LEDGER_WITNESSES and a verifier trusts.
 * Environment:
 *   WITNESS_LOGS  the note verifier keys of the logs to witness, comma- or newline-separated (required), e.g.
 *                 `$(curl -s http://localhost:3000/.well-known/cunzheng-ledger.vkey)`;
 *   WITNESS_NAME  its key name (default `witness.local/<host name>`);
 *   WITNESS_DIR   its key and state (default `./data/witness`);
 *   PORT, HOST    where it listens (default 127.0.0.1:3300).
 * It keeps its own state: point it at a directory no one else writes.
 */
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { parseVerifierKey, type NoteVerifier } from '../contract/signed-note.ts';
import { Witness } from './witness.ts';

/** Largest add-checkpoint body: 63 proof lines and a note with a few dozen signatures fit many times over. */
const BODY_LIMIT_BYTES = 64 * 1024;

/**
 * Starts the witness server. @returns the Fastify instance (listening) and the witness
 * @throws when WITNESS_LOGS is missing or holds a key that is not a note verifier key
 */
export async function startWitness(env: Record<string, string | undefined> = process.env) {
  const logs: NoteVerifier[] = [];
  for (const vkey of (env.WITNESS_LOGS ?? '')
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter(Boolean)) {
    const v = parseVerifierKey(vkey);
    if (!v) throw new Error(`WITNESS_LOGS: not a note verifier key: ${vkey}`);
    logs.push(v);
  }
  if (logs.length === 0) throw new Error('WITNESS_LOGS must name at least one log verifier key');
  const name = env.WITNESS_NAME?.trim() || `witness.local/${os.hostname()}`;
  const witness = await Witness.open(path.resolve(env.WITNESS_DIR ?? 'data/witness'), name, logs);
  const app = Fastify({ bodyLimit: BODY_LIMIT_BYTES, logger: { level: env.LOG_LEVEL ?? 'info' } });
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
  await app.listen({ port: Number(env.PORT ?? 3300), host: env.HOST ?? '127.0.0.1' });
  return { app, witness };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { app, witness } = await startWitness();
  app.log.info({ name: witness.name, vkey: witness.verifierKey }, 'witness ready');
  const stop = () => void app.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
