/**
 * The ledger and the local witness together (decision 035), on SQLite and PostgreSQL: rounds get the checkpoint
 * cosigned (first from size 0, then with consistency proofs), evidence packages carry the cosigned checkpoint and a
 * proof in it, and when the stored tree is rewritten (a node changed in the database: a fork of history) the
 * witness refuses to cosign it and the operator console's call shows the refusal.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openCosignatures, parseCosignerKey } from '../../contract/cosignature.ts';
import {
  LedgerOpsPaths,
  LedgerPaths,
  type LedgerPublicKey,
  type LedgerWitnessesData,
  type ProofBundle,
} from '../../contract/ledger.ts';
import type { SaveEvidenceData } from '../../contract/evidence.ts';
import { openCheckpoint, parseVerifierKey } from '../../contract/signed-note.ts';
import { userFactory } from '../../tests/support/account.ts';
import { operatorToken } from '../../tests/support/invoice.ts';
import { forEachDialect, get, upload } from '../../tests/support/platform.ts';
import { startWitness } from '../../witness/main.ts';
import { LedgerSigner, TreeHeads } from './signer.ts';
import { verifyInclusion } from './verify.ts';
import { LedgerWitnessing, parseWitnesses } from './witnessing.ts';
import { loadWitnessConfig } from '../../witness/config.ts';

forEachDialect('ledger witnesses', (h) => {
  const newUser = userFactory(h);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cz-witness-'));
  let witnessApp: FastifyInstance;
  let witnessKey: string;
  let url: string;
  let token: string;
  let admin: string;
  const round = async () => {
    // a fresh signer view each round, as a restarted platform would have
    const heads = new TreeHeads(h.app.pdb.db, await LedgerSigner.open(h.dataDir, h.app.config.ledgerOrigin));
    await new LedgerWitnessing(
      h.app.pdb.db,
      heads,
      parseWitnesses([{ url, key: witnessKey }]),
      h.app.log,
    ).round();
  };
  const view = async () => (await get<LedgerWitnessesData>(h.app, LedgerOpsPaths.witnesses, {}, admin)).data;

  beforeAll(async () => {
    const log = (await get<LedgerPublicKey>(h.app, LedgerPaths.publicKey)).data;
    ({ app: witnessApp } = await startWitness(
      loadWitnessConfig({
        WITNESS_LOGS: log.noteKey!,
        WITNESS_NAME: 'witness.test/w1',
        WITNESS_DIR: dir,
        PORT: '0',
        LOG_LEVEL: 'silent',
      }),
    ));
    url = `http://127.0.0.1:${(witnessApp.server.address() as { port: number }).port}`;
    witnessKey = (await (await fetch(`${url}/vkey`)).text()).trim();
    token = (await newUser()).token;
    admin = await operatorToken(h, `ledger-admin-${h.dialect}`, 'admin');
  });
  afterAll(async () => {
    await witnessApp.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('gets checkpoints cosigned and puts the cosigned checkpoint in evidence packages', async () => {
    const saved = [];
    for (let i = 0; i < 3; i++)
      saved.push((await upload<SaveEvidenceData>(h.app, token, randomBytes(50), `w${i}.bin`)).data);
    await round();
    let v = await view();
    expect(v.witnesses).toMatchObject([{ name: 'witness.test/w1', url, status: 'ok', size: v.treeSize }]);
    for (let i = 0; i < 2; i++)
      saved.push((await upload<SaveEvidenceData>(h.app, token, randomBytes(50), `x${i}.bin`)).data);
    await round();
    v = await view();
    expect(v.witnesses[0]).toMatchObject({ status: 'ok', size: v.treeSize });
    expect(v.events.map((e) => e.status)).toEqual(['ok']);

    const bundle = (await get<ProofBundle>(h.app, `${LedgerPaths.proof}?baoquan=${saved[0]!.baoquan}`)).data;
    const witnessed = bundle.witnessed!;
    expect(witnessed.treeSize).toBe(v.treeSize);
    const log = parseVerifierKey(bundle.publicKey.noteKey!)!;
    const opened = openCheckpoint(witnessed.note, log.name, [log]);
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    expect(opened.checkpoint.treeSize).toBe(witnessed.treeSize);
    expect(
      verifyInclusion(
        bundle.leafHash,
        bundle.leafIndex,
        witnessed.treeSize,
        witnessed.inclusionProof,
        opened.checkpoint.rootHash,
      ),
    ).toBe(true);
    const { verified } = openCosignatures(witnessed.note, [parseCosignerKey(witnessKey)!]);
    expect(verified.map((c) => c.name)).toEqual(['witness.test/w1']);
  });

  it('a rewritten history is refused by the witness, and the console shows the refusal', async () => {
    const before = await view();
    // rewrite a stored subtree hash: the same tree size now has another root (a fork)
    await h.app.pdb.db
      .updateTable('ledger_nodes')
      .set({ hash: 'ab'.repeat(32) })
      .where('level', '=', 2)
      .where('idx', '=', 0)
      .execute();
    await round();
    const after = await view();
    expect(after.witnesses[0]).toMatchObject({ status: 'refused', size: before.witnesses[0]!.size });
    expect(after.witnesses[0]!.detail).toMatch(/^HTTP 422：fork/);
    expect(after.events[0]).toMatchObject({
      witness: 'witness.test/w1',
      status: 'refused',
      treeSize: before.treeSize,
    });
    // asking again does not make the witness cosign it, nor add an event per round while it refuses for that reason
    await round();
    const again = await view();
    expect(again.witnesses[0]!.status).toBe('refused');
    expect(again.events.length).toBe(after.events.length);
    // the console call is the admin's
    const other = await operatorToken(h, `ledger-reviewer-${h.dialect}`, 'reviewer');
    const res = await h.app.inject({
      method: 'GET',
      url: LedgerOpsPaths.witnesses,
      headers: { authorization: `Bearer ${other}` },
    });
    expect(res.statusCode).toBe(403);
  });
});
