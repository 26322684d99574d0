/**
 * The ledger's reads at scale, for bench/support/ledger-compare.ts and bench/ledger.ts (decision 032): the signed
 * tree head with its C2SP checkpoint, inclusion and consistency proofs at random (every 100th verified with the pure
 * functions of platform/ledger/verify.ts against the STH's root), and C2SP tile reads (the partial tiles of a size,
 * full level-0 and level-1 tiles). Times in milliseconds.
 */
import type { Kysely } from 'kysely';
import type { PlatformDb } from '../../platform/db/database.ts';
import type { Database } from '../../platform/db/schema.ts';
import { consistencyProof, inclusionProof, rootHash } from '../../platform/ledger/ledger.ts';
import { LedgerSigner, TreeHeads } from '../../platform/ledger/signer.ts';
import { leafHash, verifyConsistency, verifyInclusion, verifySth } from '../../platform/ledger/verify.ts';
import type { SignedTreeHead } from '../../contract/ledger.ts';
import { randomInts } from './ledger-fill.ts';
import { readTile, TILE_WIDTH, tilePath, type TileRequest } from '../../platform/ledger/tiles.ts';

const elapsedMs = (since: number) => performance.now() - since;

/**
 * The signed tree head of the current tree (its key generated under `keyDir`), verified.
 * @returns it, the milliseconds of the first call (root from stored nodes + Ed25519) and of a second (cached)
 */
export async function measureSth(
  pdb: PlatformDb,
  keyDir: string,
): Promise<{ sth: SignedTreeHead; ms: number; cachedMs: number }> {
  const signer = await LedgerSigner.open(keyDir);
  const heads = new TreeHeads(pdb.db, signer);
  let start = performance.now();
  const sth = await heads.current();
  const ms = elapsedMs(start);
  start = performance.now();
  await heads.current();
  const cachedMs = elapsedMs(start);
  if (!verifySth(sth, signer.publicKey.pem)) throw new Error('STH does not verify');
  return { sth, ms, cachedMs };
}

/** Milliseconds per proof, and how many inclusion proofs were verified. */
export interface ProofSamples {
  inclusion: number[];
  consistency: number[];
  verified: number;
}

/**
 * Times `samples` inclusion proofs of random leaves and `samples` consistency proofs from random sizes, all in the
 * tree of the STH's size; every 100th proof of each kind is verified against the STH's root.
 * @throws when a verified proof fails
 */
export async function sampleProofs(
  db: Kysely<Database>,
  sth: SignedTreeHead,
  samples: number,
): Promise<ProofSamples> {
  const size = sth.treeSize;
  const rand = randomInts();
  const out: ProofSamples = { inclusion: [], consistency: [], verified: 0 };
  for (let k = 0; k < samples; k++) {
    const index = rand(size);
    const start = performance.now();
    const proof = await inclusionProof(db, index, size);
    out.inclusion.push(elapsedMs(start));
    if (k % 100 === 0) {
      const row = await db
        .selectFrom('ledger_leaves')
        .select('record_json')
        .where('leaf_index', '=', index)
        .executeTakeFirstOrThrow();
      if (!verifyInclusion(leafHash(row.record_json), index, size, proof, sth.rootHash))
        throw new Error(`inclusion proof of ${index} does not verify`);
      out.verified++;
    }
  }
  for (let k = 0; k < samples; k++) {
    const first = 1 + rand(size - 1);
    const start = performance.now();
    const proof = await consistencyProof(db, first, size);
    out.consistency.push(elapsedMs(start));
    if (k % 100 === 0 && !verifyConsistency(first, size, await rootHash(db, first), sth.rootHash, proof)) {
      throw new Error(`consistency proof ${first} → ${size} does not verify`);
    }
  }
  return out;
}

/**
 * Milliseconds to read `samples` random C2SP tiles of the tree of `size` leaves (platform/ledger/tiles.ts): full
 * level-0 and level-1 tiles at random, and the partial tiles of that size (what a tiles client fetches to prove an
 * entry). @throws when a tile that must exist is missing or has the wrong length
 */
export async function sampleTiles(db: Kysely<Database>, size: number, samples: number): Promise<number[]> {
  const rand = randomInts(size);
  const out: number[] = [];
  const read = async (t: TileRequest) => {
    const start = performance.now();
    const bytes = await readTile(db, t);
    out.push(elapsedMs(start));
    if (bytes?.length !== t.width * 32) throw new Error(`tile ${tilePath(t)} is missing or malformed`);
  };
  for (let level = 0; TILE_WIDTH ** level <= size; level++) {
    const width = Math.floor(size / TILE_WIDTH ** level) % TILE_WIDTH;
    if (width > 0)
      await read({ kind: 'hashes', level, index: Math.floor(size / TILE_WIDTH ** (level + 1)), width });
  }
  for (let k = 0; k < samples; k++) {
    const level = k % 2;
    const full = Math.floor(size / TILE_WIDTH ** (level + 1));
    if (full > 0) await read({ kind: 'hashes', level, index: rand(full), width: TILE_WIDTH });
  }
  return out;
}
