/**
 * The ledger's public calls (contract `LedgerPaths`; docs/decisions/005-ledger.md), all `GET`, all in the
 * `{code, msg, data}` envelope, no login:
 * - `/api/ledger/sth` → SignedTreeHead of the current tree;
 * - `/api/ledger/publicKey` → LedgerPublicKey (Ed25519 SPKI PEM and its keyId);
 * - `/api/ledger/entry?hash=<leaf hash>[&baoquan=]` → LedgerEntryView (the explorer page /chain/tx/{hash}), its
 *   record only with the evidence's preservation number (or LEDGER_PUBLIC_ENTRIES=1); unknown or malformed hash →
 *   code 404 `LedgerMsg.entryNotFound`;
 * - `/api/ledger/proof?baoquan=` → ProofBundle (`proof.json` of the evidence package); unknown → code 404
 *   `EvidenceMsg.evidenceNotFound`;
 * - `/api/ledger/consistency?first=&second=` → ConsistencyProofData (RFC 9162 §2.1.4); sizes outside
 *   0 ≤ first ≤ second ≤ current size → code 400 `LedgerMsg.badTreeSize`;
 * - `/api/ledger/checkpoint` → the newest checkpoint, a C2SP signed note (text/plain);
 * - `/api/ledger/tile/…` → C2SP tlog-tiles resources (tiles.ts; raw bytes, immutable, 404 when absent).
 * The answers are built by service.ts.
 */
import type { FastifyInstance } from 'fastify';
import { ok } from '../../contract/envelope.ts';
import {
  ConsistencyQuery,
  LedgerEntryQuery,
  LedgerOpsPaths,
  LedgerPaths,
  LedgerProofQuery,
} from '../../contract/ledger.ts';
import { parseInput } from '../core/errors.ts';
import { buildProofBundle, consistency, ledgerEntry, witnessesView } from './service.ts';
import { publishedLedgerKey } from './signer.ts';
import { parseTilePath, readTile } from './tiles.ts';
import { LedgerWitnessing, parseWitnesses } from './witnessing.ts';
import { LedgerTimestamping } from './timestamping.ts';
import { requireRole } from '../ops/auth.ts';

/**
 * Registers the ledger calls (needs the services plugin). Loads or creates the ledger key under
 * `${config.dataDir}/keys/` first. @throws when the key cannot be read or written
 */
export async function ledgerRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.pdb;
  const heads = app.treeHeads;

  app.get(LedgerPaths.sth, async () => ok(await heads.current()));

  const published = publishedLedgerKey(heads.signer.publicKey, app.config);
  app.get(LedgerPaths.publicKey, async () => ok(published));

  // The newest checkpoint as the C2SP text itself (any note/tlog client reads it); never cached for long.
  app.get(LedgerPaths.checkpoint, async (_request, reply) => {
    const sth = await heads.current();
    reply.type('text/plain; charset=utf-8').header('cache-control', 'no-cache');
    return sth.checkpoint;
  });

  app.get(LedgerPaths.entry, async (request) => {
    const { hash, baoquan } = parseInput(LedgerEntryQuery, request.query);
    return ok(await ledgerEntry(db, heads, hash, { baoquan, publicEntries: app.config.ledgerPublicEntries }));
  });

  app.get(LedgerPaths.proof, async (request) => {
    const { baoquan } = parseInput(LedgerProofQuery, request.query);
    return ok(await buildProofBundle(db, heads, baoquan));
  });

  app.get(LedgerPaths.consistency, async (request) => {
    const { first, second } = parseInput(ConsistencyQuery, request.query);
    return ok(await consistency(db, first, second));
  });

  // Witness cosignatures: rounds on this instance, and the console's view of them.
  const witnessing = new LedgerWitnessing(db, heads, parseWitnesses(app.config.ledgerWitnesses), app.log);
  witnessing.start(app.config.ledgerWitnessIntervalSeconds);
  app.addHook('onClose', () => witnessing.stop());
  app.get(LedgerOpsPaths.witnesses, { preHandler: app.requireOperator }, async (request) => {
    requireRole(request, 'admin');
    return ok(await witnessesView(db, witnessing));
  });

  // RFC 3161 time stamps of checkpoints, when a TSA is configured
  const tsa = app.config.tsa;
  if (tsa) {
    const stamping = new LedgerTimestamping(db, heads, tsa, app.log);
    stamping.start(tsa.intervalSeconds);
    app.addHook('onClose', () => stamping.stop());
  }

  // C2SP tlog-tiles: immutable once they exist, so cacheable by anyone; a missing one may appear with the next append.
  app.get(`${LedgerPaths.tile}/*`, async (request, reply) => {
    const tile = parseTilePath((request.params as { '*': string })['*']);
    const bytes =
      tile && (tile.kind === 'hashes' || app.config.ledgerPublicEntries) ? await readTile(db, tile) : null;
    if (!bytes) {
      reply.code(404).type('text/plain; charset=utf-8').header('cache-control', 'no-cache');
      return 'not found\n';
    }
    reply.type('application/octet-stream').header('cache-control', 'public, max-age=31536000, immutable');
    return bytes;
  });
}
