/**
 * The local witness over HTTP (c2sp.org/tlog-witness): it cosigns a log's first checkpoint and then only consistent
 * ones, and refuses everything the protocol says to refuse — in particular a forked log (two checkpoints of the same
 * size with different roots, both signed by the log's key), which it refuses with 422, records in refusals.jsonl and
 * never cosigns, also after a restart. Trees and consistency proofs come from the independent tiles client.
 */
import { createHash, generateKeyPairSync, createPublicKey, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCosignatures, parseCosignerKey } from '../contract/cosignature.ts';
import { checkpointText, verifierKey } from '../contract/signed-note.ts';
import { rawEd25519, signNote } from '../contract/note-signing.ts';
import { TileReader } from '../tests/support/tiles-client.ts';
import { startWitness } from './main.ts';
import { loadWitnessConfig } from './config.ts';

const ORIGIN = 'test.example/ledger';

/** A log of `n` leaves in memory (n < 256: one partial level-0 tile). */
function tree(leaves: Buffer[], n: number): TileReader {
  return new TileReader(n, async (p) => (p === `0/000.p/${n}` ? Buffer.concat(leaves.slice(0, n)) : null));
}

const leafOf = (i: number, fork = '') => createHash('sha256').update(`\0leaf ${i}${fork}`).digest();

async function checkpoint(key: KeyObject, leaves: Buffer[], n: number): Promise<string> {
  const root =
    n === 0 ? createHash('sha256').digest('hex') : (await tree(leaves, n).mth(0, n)).toString('hex');
  return signNote(
    checkpointText({ origin: ORIGIN, treeSize: n, rootHash: root, extensions: [] }),
    ORIGIN,
    key,
  );
}

async function body(oldSize: number, key: KeyObject, leaves: Buffer[], n: number, proof?: Buffer[]) {
  const p = proof ?? (oldSize > 0 && oldSize < n ? await tree(leaves, n).consistencyProof(oldSize) : []);
  return `old ${oldSize}\n${p.map((h) => `${h.toString('base64')}\n`).join('')}\n${await checkpoint(key, leaves, n)}`;
}

describe('local witness (npm run witness)', () => {
  const logKey = generateKeyPairSync('ed25519').privateKey;
  const logVkey = verifierKey(ORIGIN, rawEd25519(createPublicKey(logKey)));
  const leaves = Array.from({ length: 200 }, (_, i) => leafOf(i));
  const forked = leaves.map((l, i) => (i === 17 ? leafOf(i, ' rewritten') : l));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cz-witness-'));
  let app: FastifyInstance;
  let base: string;
  let witnessVkey: string;
  const start = async () => {
    ({ app } = await startWitness(
      loadWitnessConfig({
        WITNESS_LOGS: logVkey,
        WITNESS_NAME: 'witness.test/w1',
        WITNESS_DIR: dir,
        PORT: '0',
        LOG_LEVEL: 'silent',
      }),
    ));
    const address = app.server.address() as { port: number };
    base = `http://127.0.0.1:${address.port}`;
  };
  const post = async (text: string) => {
    const res = await fetch(`${base}/add-checkpoint`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: text,
    });
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  };
  beforeAll(async () => {
    await start();
    witnessVkey = (await (await fetch(`${base}/vkey`)).text()).trim();
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('cosigns the first checkpoint and then consistent ones, with cosignatures its verifier key opens', async () => {
    const witness = parseCosignerKey(witnessVkey)!;
    expect(witness.name).toBe('witness.test/w1');
    for (const [old, n] of [
      [0, 10],
      [10, 10],
      [10, 64],
      [64, 100],
    ] as const) {
      const res = await post(await body(old, logKey, leaves, n));
      expect(res.status, `${old} → ${n}`).toBe(200);
      expect(res.text).toMatch(/^— witness\.test\/w1 [A-Za-z0-9+/]+=*\n$/);
      const cosigned = `${await checkpoint(logKey, leaves, n)}${res.text}`;
      const { verified, failed } = openCosignatures(cosigned, [witness]);
      expect(failed).toEqual([]);
      expect(verified.map((v) => v.name)).toEqual(['witness.test/w1']);
      expect(Math.abs(verified[0]!.timestamp - Date.now() / 1000)).toBeLessThan(60);
      // the cosignature is over that checkpoint only
      expect(
        openCosignatures(`${await checkpoint(logKey, leaves, n + 1)}${res.text}`, [witness]).verified,
      ).toEqual([]);
    }
  });

  it('refuses a forked log: the same size with another root, also with a valid log signature and after a restart', async () => {
    const fork = await post(await body(100, logKey, forked, 100));
    expect(fork.status).toBe(422);
    expect(fork.text).toContain('fork');
    // a larger tree that does not extend the cosigned one: its proof cannot verify
    const proof = await tree(forked, 150).consistencyProof(100);
    expect((await post(await body(100, logKey, forked, 150, proof))).status).toBe(422);
    const refusals = fs.readFileSync(path.join(dir, 'refusals.jsonl'), 'utf8').trim().split('\n');
    expect(refusals.map((l) => (JSON.parse(l) as { cosigned: { size: number } }).cosigned.size)).toEqual([
      100, 100,
    ]);
    await app.close();
    await start();
    expect((await post(await body(100, logKey, forked, 100))).status).toBe(422);
    // the genuine log goes on
    expect((await post(await body(100, logKey, leaves, 150))).status).toBe(200);
  });

  it('answers 409 with its size when the old size is not the one it cosigned', async () => {
    const res = await post(await body(0, logKey, leaves, 160));
    expect(res.status).toBe(409);
    expect(res.type).toBe('text/x.tlog.size');
    expect(res.text).toBe('150\n');
  });

  it('refuses unknown logs, foreign or broken signatures, bad proofs and malformed bodies', async () => {
    const stranger = generateKeyPairSync('ed25519').privateKey;
    expect((await post(await body(150, stranger, leaves, 160))).status).toBe(403);
    const good = await body(150, logKey, leaves, 160);
    // a character inside the signature bytes, past the key ID: the log's key signed something else
    const sigAt = good.lastIndexOf(' ') + 30;
    const broken = `${good.slice(0, sigAt)}${good[sigAt] === 'A' ? 'B' : 'A'}${good.slice(sigAt + 1)}`;
    const refused = await post(broken);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('does not verify');
    const other = signNote(
      checkpointText({
        origin: 'other.example/log',
        treeSize: 1,
        rootHash: leafOf(0).toString('hex'),
        extensions: [],
      }),
      'other.example/log',
      logKey,
    );
    expect((await post(`old 0\n\n${other}`)).status).toBe(404);
    expect((await post(await body(170, logKey, leaves, 160))).status).toBe(400);
    const wrongProof = (await tree(leaves, 160).consistencyProof(150)).map((h, i) =>
      i === 0 ? leafOf(999) : h,
    );
    expect((await post(await body(150, logKey, leaves, 160, wrongProof))).status).toBe(422);
    for (const bad of [
      '',
      'old 150\n',
      'old 0150\n\nx',
      `old 150\nnot-base64\n\n${await checkpoint(logKey, leaves, 160)}`,
    ]) {
      expect((await post(bad)).status, JSON.stringify(bad.slice(0, 20))).toBe(400);
    }
    // none of these moved the witness
    expect((await post(await body(150, logKey, leaves, 160))).status).toBe(200);
  });
});
