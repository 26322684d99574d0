/**
 * The ledger's C2SP checkpoints (decision 035), on SQLite and PostgreSQL: every signed tree head carries the same
 * head as a checkpoint note of the log's origin signed by the ledger key; the published note verifier key opens it
 * (contract/signed-note.ts, itself checked against the C2SP example); `/api/ledger/checkpoint` serves the note as
 * text; checkSth refuses a head whose checkpoint was changed, names another tree or another key, and still accepts a
 * head from before checkpoints (no `checkpoint` field).
 */
import { generateKeyPairSync } from 'node:crypto';
import { randomBytes } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { LedgerPaths, type LedgerPublicKey, type SignedTreeHead } from '../../contract/ledger.ts';
import { checkpointText, openCheckpoint, parseVerifierKey } from '../../contract/signed-note.ts';
import { signNote } from '../../contract/note-signing.ts';
import { userFactory } from '../../tests/support/account.ts';
import { forEachDialect, get, upload } from '../../tests/support/platform.ts';
import { checkSth } from './verify.ts';

forEachDialect('ledger checkpoints', (h) => {
  const newUser = userFactory(h);
  let sth: SignedTreeHead;
  let key: LedgerPublicKey;
  beforeAll(async () => {
    const u = await newUser();
    for (let i = 0; i < 3; i++) await upload(h.app, u.token, randomBytes(20), `c${i}.txt`);
    sth = (await get<SignedTreeHead>(h.app, LedgerPaths.sth)).data;
    key = (await get<LedgerPublicKey>(h.app, LedgerPaths.publicKey)).data;
  });

  it('signs each tree head as a checkpoint of the origin that the published verifier key opens', async () => {
    const origin = h.app.config.ledgerOrigin;
    expect(key.noteKey!.startsWith(`${origin}+`)).toBe(true);
    const verifier = parseVerifierKey(key.noteKey!)!;
    const opened = openCheckpoint(sth.checkpoint!, origin, [verifier]);
    expect(opened).toMatchObject({
      ok: true,
      checkpoint: { treeSize: sth.treeSize, rootHash: sth.rootHash },
    });
    expect(sth.checkpoint!.split('\n').slice(0, 3)).toEqual([
      origin,
      String(sth.treeSize),
      Buffer.from(sth.rootHash, 'hex').toString('base64'),
    ]);
    const served = await h.app.inject({ method: 'GET', url: LedgerPaths.checkpoint });
    expect(served.headers['content-type']).toMatch(/^text\/plain/);
    expect(openCheckpoint(served.body, origin, [verifier])).toMatchObject({ ok: true });
    expect(checkSth(sth, key.pem)).toMatchObject({ ok: true });
  });

  it('refuses a changed checkpoint, one of another tree or key, and accepts a head from before checkpoints', () => {
    const changed = {
      ...sth,
      checkpoint: sth.checkpoint!.replace(`\n${sth.treeSize}\n`, `\n${sth.treeSize + 1}\n`),
    };
    expect(checkSth(changed, key.pem)).toMatchObject({ ok: false });
    // a genuine note of the same key and origin naming another tree is not this head's
    const other = generateKeyPairSync('ed25519');
    const origin = h.app.config.ledgerOrigin;
    const foreign = signNote(
      checkpointText({ origin, treeSize: sth.treeSize, rootHash: sth.rootHash, extensions: [] }),
      origin,
      other.privateKey,
    );
    expect(checkSth({ ...sth, checkpoint: foreign }, key.pem)).toEqual({
      ok: false,
      reason: 'checkpoint: no signature of a known key',
    });
    const { checkpoint: _dropped, ...before } = sth;
    expect(checkSth(before, key.pem)).toMatchObject({ ok: true });
  });
});
