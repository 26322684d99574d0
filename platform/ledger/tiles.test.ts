/**
 * The ledger as C2SP tlog-tiles (decision 035), on SQLite and PostgreSQL, read by an independent tiles client
 * (tests/support/tiles-client.ts, written from the C2SP and RFC texts, importing nothing of ours): at 70,000 leaves —
 * the size tlog-tiles itself uses as its example — the tiles are the ones the specification lists, the checkpoint
 * verifies with the published verifier key and its root is the one the tiles give, inclusion proofs computed from
 * tiles verify and equal those of the explorer (`/api/ledger/entry`, whose proof function the evidence packages
 * share), consistency proofs from tiles equal the API's, entry bundles hash to the level-0 tiles, and anything that
 * is not a tile (or not yet one) is a 404.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  LedgerPaths,
  type ConsistencyProofData,
  type LedgerEntryView,
  type LedgerPublicKey,
} from '../../contract/ledger.ts';
import { fillLedger, randomInts } from '../../bench/support/ledger-fill.ts';
import { forEachDialect, get, type PlatformHarness } from '../../tests/support/platform.ts';
import {
  entryLeafHash,
  TileReader,
  verifyCheckpointNote,
  verifyInclusionProof,
  type VerifiedCheckpoint,
} from '../../tests/support/tiles-client.ts';
import { parseTilePath, tilePath } from './tiles.ts';

const SIZE = 70_000;

/** Writes `n` bench leaves straight into the suite's empty ledger (bench/support/ledger-fill.ts). */
function fill(h: PlatformHarness, n: number): Promise<void> {
  const db = h.config.database;
  return fillLedger(h.app.pdb, n, db.dialect === 'sqlite' ? db.file : undefined);
}

describe('tile paths', () => {
  it('round-trip canonical paths and refuse every other spelling', () => {
    expect(tilePath({ kind: 'hashes', level: 0, index: 1_234_067, width: 256 })).toBe('0/x001/x234/067');
    expect(tilePath({ kind: 'hashes', level: 2, index: 0, width: 1 })).toBe('2/000.p/1');
    expect(tilePath({ kind: 'entries', index: 273, width: 112 })).toBe('entries/273.p/112');
    for (const p of ['0/x001/x234/067', '1/001.p/17', 'entries/000', '63/999', 'entries/x001/000.p/255']) {
      expect(tilePath(parseTilePath(p)!)).toBe(p);
    }
    for (const p of [
      '',
      '0',
      '0/',
      '00/000',
      '64/000',
      '0/67',
      '0/0067',
      '0/x000/067',
      '0/001/002',
      '0/x1/002',
      '0/000.p/0',
      '0/000.p/256',
      '0/000.p/012',
      '0/000.p',
      '0/000.p/5/6',
      'entry/000',
      '-1/000',
      '0/../000',
    ]) {
      expect(parseTilePath(p), p).toBeNull();
    }
  });
});

forEachDialect(
  'ledger tiles',
  (h) => {
    let checkpoint: VerifiedCheckpoint;
    let reader: TileReader;
    const fetchTile = async (path: string) => {
      const res = await h.app.inject({ method: 'GET', url: `${LedgerPaths.tile}/${path}` });
      if (res.statusCode === 404) return null;
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/octet-stream');
      expect(res.headers['cache-control']).toContain('immutable');
      return res.rawPayload;
    };
    beforeAll(async () => {
      await fill(h, SIZE);
      const key = (await get<LedgerPublicKey>(h.app, LedgerPaths.publicKey)).data;
      const note = (await h.app.inject({ method: 'GET', url: LedgerPaths.checkpoint })).body;
      checkpoint = verifyCheckpointNote(note, key.noteKey!);
      reader = new TileReader(checkpoint.size, fetchTile);
    }, 120_000);

    it('serves the tiles tlog-tiles lists for a tree of 70,000, and no others', async () => {
      expect(checkpoint.size).toBe(SIZE);
      const bytes = async (p: string) => (await fetchTile(p))?.length ?? null;
      // 273 full level-0 tiles, a partial one of width 112, one full level-1 tile, a partial level-1 tile of width
      // 17 and a partial level-2 tile of width 1
      expect(await bytes('0/000')).toBe(8192);
      expect(await bytes('0/272')).toBe(8192);
      expect(await bytes('0/273.p/112')).toBe(112 * 32);
      expect(await bytes('1/000')).toBe(8192);
      expect(await bytes('1/001.p/17')).toBe(17 * 32);
      expect(await bytes('2/000.p/1')).toBe(32);
      // a partial tile of a smaller tree is the start of the same row
      expect((await fetchTile('0/273.p/5'))!).toEqual((await fetchTile('0/273.p/112'))!.subarray(0, 5 * 32));
      for (const missing of [
        '0/273',
        '0/273.p/113',
        '0/274.p/1',
        '1/001',
        '1/001.p/18',
        '2/000',
        '3/000.p/1',
      ]) {
        expect(await bytes(missing), missing).toBeNull();
      }
      for (const bad of ['0/0', '0/x000/001', 'x/000', '0/000.p/256']) {
        const res = await h.app.inject({ method: 'GET', url: `${LedgerPaths.tile}/${bad}` });
        expect(res.statusCode, bad).toBe(404);
        expect(res.headers['cache-control']).toBe('no-cache');
      }
    });

    it('the checkpoint root is the root the tiles give', async () => {
      expect((await reader.mth(0, SIZE)).equals(checkpoint.root)).toBe(true);
    });

    it('inclusion proofs from tiles verify against the checkpoint and equal the explorer’s', async () => {
      const rand = randomInts(17);
      const indexes = [
        0,
        1,
        255,
        256,
        65_535,
        65_536,
        69_887,
        69_888,
        SIZE - 1,
        ...Array.from({ length: 8 }, () => rand(SIZE)),
      ];
      for (const index of indexes) {
        const leaf = await reader.subtree(0, index);
        const proof = await reader.inclusionProof(index);
        expect(verifyInclusionProof(leaf, index, SIZE, proof, checkpoint.root), `leaf ${index}`).toBe(true);
        const view = (await get<LedgerEntryView>(h.app, `${LedgerPaths.entry}?hash=${leaf.toString('hex')}`))
          .data;
        expect(view.leafIndex).toBe(index);
        expect(view.sth.treeSize).toBe(SIZE);
        expect(view.recordCanonical).not.toBeNull(); // LEDGER_PUBLIC_ENTRIES=1: the records are public here
        expect(view.inclusionProof).toEqual(proof.map((p) => p.toString('hex')));
        // a proof of another leaf, or with a node changed, does not verify
        const other = await reader.subtree(0, (index + 1) % SIZE);
        expect(verifyInclusionProof(other, index, SIZE, proof, checkpoint.root)).toBe(false);
        const bent = proof.map((p, i) => (i === proof.length - 1 ? Buffer.from(p).fill(7, 0, 1) : p));
        expect(verifyInclusionProof(leaf, index, SIZE, bent, checkpoint.root)).toBe(false);
      }
    });

    it('consistency proofs and older roots from tiles equal the API’s', async () => {
      for (const first of [1, 2, 255, 256, 257, 4096, 65_536, 69_999]) {
        const api = (
          await get<ConsistencyProofData>(h.app, `${LedgerPaths.consistency}?first=${first}&second=${SIZE}`)
        ).data;
        expect(api.proof, `from ${first}`).toEqual(
          (await reader.consistencyProof(first)).map((p) => p.toString('hex')),
        );
      }
    });

    it('entry bundles hash to the level-0 tiles', async () => {
      for (const [bundle, tile] of [
        ['entries/000', '0/000'],
        ['entries/273.p/112', '0/273.p/112'],
      ] as const) {
        const entries = (await fetchTile(bundle))!;
        const hashes = (await fetchTile(tile))!;
        let offset = 0;
        let i = 0;
        while (offset < entries.length) {
          const length = entries.readUInt16BE(offset);
          const entry = entries.subarray(offset + 2, offset + 2 + length);
          expect(entryLeafHash(entry).equals(hashes.subarray(i * 32, i * 32 + 32)), `${bundle} #${i}`).toBe(
            true,
          );
          offset += 2 + length;
          i++;
        }
        expect(i * 32).toBe(hashes.length);
      }
    });
  },
  { LEDGER_PUBLIC_ENTRIES: '1' },
);

forEachDialect('ledger entry bundles, by default', (h) => {
  it('are not public: the records are the users’ business; hash tiles are', async () => {
    await fill(h, 300);
    expect((await h.app.inject({ method: 'GET', url: `${LedgerPaths.tile}/entries/000` })).statusCode).toBe(
      404,
    );
    const tile = await h.app.inject({ method: 'GET', url: `${LedgerPaths.tile}/0/000` });
    expect(tile.statusCode).toBe(200);
    // nor is a record found by a leaf hash read from a public tile
    const view = await get<LedgerEntryView>(h.app, LedgerPaths.entry, {
      hash: tile.rawPayload.subarray(32, 64).toString('hex'),
    });
    expect(view.code).toBe(200);
    expect(view.data.leafIndex).toBe(1);
    expect([view.data.record, view.data.recordCanonical]).toEqual([null, null]);
  });
});
