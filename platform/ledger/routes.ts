/**
 * The ledger's public calls (contract `LedgerPaths`; docs/decisions/005-ledger.md), all `GET`, all in the
 * `{code, msg, data}` envelope, no login:
 * - `/api/ledger/sth` → SignedTreeHead of the current tree;
 * - `/api/ledger/publicKey` → LedgerPublicKey (Ed25519 SPKI PEM and its keyId);
 * - `/api/ledger/entry?hash=<leaf hash>` → LedgerEntryView (the explorer page /chain/tx/{hash}); unknown or malformed
 *   hash → code 404 `LedgerMsg.entryNotFound`;
 * - `/api/ledger/proof?baoquan=` → ProofBundle (`proof.json` of the evidence package); unknown → code 404
 *   `EvidenceMsg.evidenceNotFound`;
 * - `/api/ledger/consistency?first=&second=` → ConsistencyProofData (RFC 9162 §2.1.4); sizes outside
 *   0 ≤ first ≤ second ≤ current size → code 400 `LedgerMsg.badTreeSize`.
 * The answers are built by service.ts.
 */
import type { FastifyInstance } from 'fastify';
import { ok } from '../../contract/envelope.ts';
import { ConsistencyQuery, LedgerEntryQuery, LedgerPaths, LedgerProofQuery } from '../../contract/ledger.ts';
import { parseInput } from '../core/errors.ts';
import { buildProofBundle, consistency, ledgerEntry } from './service.ts';
import { LedgerSigner, TreeHeads } from './signer.ts';

/**
 * Registers the ledger calls (needs the services plugin). Loads or creates the ledger key under
 * `${config.dataDir}/keys/` first. @throws when the key cannot be read or written
 */
export async function ledgerRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.pdb;
  const heads = new TreeHeads(db, await LedgerSigner.open(app.config.dataDir, app.config.ledgerOrigin));

  app.get(LedgerPaths.sth, async () => ok(await heads.current()));

  app.get(LedgerPaths.publicKey, async () => ok(heads.signer.publicKey));

  // The newest checkpoint as the C2SP text itself (any note/tlog client reads it); never cached for long.
  app.get(LedgerPaths.checkpoint, async (_request, reply) => {
    const sth = await heads.current();
    reply.type('text/plain; charset=utf-8').header('cache-control', 'no-cache');
    return sth.checkpoint;
  });

  app.get(LedgerPaths.entry, async (request) => {
    const { hash } = parseInput(LedgerEntryQuery, request.query);
    return ok(await ledgerEntry(db, heads, hash));
  });

  app.get(LedgerPaths.proof, async (request) => {
    const { baoquan } = parseInput(LedgerProofQuery, request.query);
    return ok(await buildProofBundle(db, heads, baoquan));
  });

  app.get(LedgerPaths.consistency, async (request) => {
    const { first, second } = parseInput(ConsistencyQuery, request.query);
    return ok(await consistency(db, first, second));
  });
}
