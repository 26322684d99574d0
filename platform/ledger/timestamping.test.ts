/**
 * RFC 3161 time stamps of checkpoints (decision 035) on SQLite and PostgreSQL, against a local TSA (OpenSSL's
 * `ts -reply`): a round stamps the newest checkpoint, the stored token is accepted by `openssl ts -verify` against the
 * TSA's CA for the stored note, a round without growth asks nothing, evidence packages carry the stamp, and a TSA
 * that answers rubbish or a token of a CA we do not trust leaves nothing stored.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SaveEvidenceData } from '../../contract/evidence.ts';
import { LedgerPaths, type ProofBundle } from '../../contract/ledger.ts';
import { userFactory } from '../../tests/support/account.ts';
import { startLocalTsa, type LocalTsa } from '../../tests/support/local-tsa.ts';
import { forEachDialect, get, upload } from '../../tests/support/platform.ts';
import { LedgerSigner, TreeHeads } from './signer.ts';
import { LedgerTimestamping } from './timestamping.ts';
import { verifyInclusion } from './verify.ts';

forEachDialect('ledger time stamps', (h) => {
  const newUser = userFactory(h);
  let tsa: LocalTsa;
  let token: string;
  const round = async (url: string, trustedPem: string | null) => {
    const heads = new TreeHeads(h.app.pdb.db, await LedgerSigner.open(h.dataDir, h.app.config.ledgerOrigin));
    await new LedgerTimestamping(h.app.pdb.db, heads, { url, trustedPem }, h.app.log).round();
  };
  const stamps = () =>
    h.app.pdb.db.selectFrom('ledger_timestamps').selectAll().orderBy('tree_size').execute();

  beforeAll(async () => {
    tsa = await startLocalTsa();
    token = (await newUser()).token;
  });
  afterAll(async () => {
    await tsa.close();
  });

  it('stamps the newest checkpoint; openssl ts -verify accepts the stored token for the stored note', async () => {
    const saved = (await upload<SaveEvidenceData>(h.app, token, randomBytes(40), 'a.bin')).data;
    await upload(h.app, token, randomBytes(40), 'b.bin');
    await round(tsa.url, tsa.caPem);
    const [row] = await stamps();
    expect(row).toBeDefined();
    const note = path.join(tsa.dir, 'note.txt');
    const der = path.join(tsa.dir, 'token.der');
    fs.writeFileSync(note, row!.note, 'utf8');
    fs.writeFileSync(der, Buffer.from(row!.token, 'base64'));
    const out = execFileSync(
      'openssl',
      ['ts', '-verify', '-data', note, '-in', der, '-token_in', '-CAfile', tsa.caFile],
      {
        stdio: 'pipe',
      },
    ).toString();
    expect(out).toContain('Verification: OK');
    expect(row!.tsa).toBe('Cunzheng Test TSA');
    expect(Math.abs(Number(row!.gen_time) - Date.now() / 1000)).toBeLessThan(60);

    // nothing new to stamp: the TSA is not asked
    const asked = tsa.answered;
    await round(tsa.url, tsa.caPem);
    expect(tsa.answered).toBe(asked);

    const bundle = (await get<ProofBundle>(h.app, `${LedgerPaths.proof}?baoquan=${saved.baoquan}`)).data;
    expect(bundle.timestamp).toMatchObject({
      note: row!.note,
      token: row!.token,
      treeSize: Number(row!.tree_size),
    });
    const root = Buffer.from(row!.note.split('\n')[2]!, 'base64').toString('hex');
    expect(
      verifyInclusion(
        bundle.leafHash,
        bundle.leafIndex,
        bundle.timestamp!.treeSize,
        bundle.timestamp!.inclusionProof,
        root,
      ),
    ).toBe(true);
  });

  it('keeps nothing from a TSA that answers rubbish, or whose certificate does not chain to the trusted one', async () => {
    await upload(h.app, token, randomBytes(40), 'c.bin');
    const before = (await stamps()).length;
    const rubbish = http.createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end('x'),
    );
    await new Promise<void>((r) => rubbish.listen(0, '127.0.0.1', r));
    try {
      await round(`http://127.0.0.1:${(rubbish.address() as { port: number }).port}/`, tsa.caPem);
    } finally {
      await new Promise((r) => rubbish.close(r));
    }
    const other = await startLocalTsa();
    try {
      await round(tsa.url, other.caPem);
    } finally {
      await other.close();
    }
    expect((await stamps()).length).toBe(before);
    await round(tsa.url, tsa.caPem);
    expect((await stamps()).length).toBe(before + 1);
  });
});
