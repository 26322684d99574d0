/**
 * Public verification calls on both dialects (spec 01 §7): bqno → viewToken → bqview, byHash, and the per-IP
 * rate limit (the gateway's X-Forwarded-For is trusted from loopback, which is where inject comes from).
 */
import { createHash } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { EvidencePaths, type SaveEvidenceData } from '../../contract/evidence.ts';
import { type CertificateDownloadData } from '../../contract/evidence-share.ts';
import { LedgerPaths, type LedgerPublicKey } from '../../contract/ledger.ts';
import { Msg } from '../../contract/messages.ts';
import { type PublicEvidence, VerifyMsg, VerifyPaths, type ViewTokenData } from '../../contract/verify.ts';
import { DEMO_MOBILE } from '../account/users.ts';
import { call, forEachDialect, get, login, upload } from '../../tests/support/platform.ts';
import { PUBLIC_LOOKUP_POLICY, VIEW_TOKEN_TTL_SECONDS } from './service.ts';

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

forEachDialect('public verification', (h) => {
  let demo: string;
  let ipSeq = 0;
  /** A fresh client address per test, so the rate-limit budgets do not mix. */
  const freshIp = () => `198.51.100.${++ipSeq}`;
  beforeAll(async () => {
    demo = await login(h.app, DEMO_MOBILE, 'demo1234');
  });
  const lookup = <T>(url: string, payload: Record<string, unknown>, ip: string) =>
    call<T>(h.app, { method: 'POST', url, payload, headers: { 'x-forwarded-for': ip } });

  it('bqno → viewToken → bqview shows the public face of the evidence, no owner data', async () => {
    const ip = freshIp();
    const data = Buffer.from(`公开核验 ${Date.now()}`);
    const saved = (await upload<SaveEvidenceData>(h.app, demo, data, '核验.txt', { title: '核验样本' })).data;
    const t = await lookup<ViewTokenData>(VerifyPaths.bqno, { no: saved.baoquan }, ip);
    expect(t.code).toBe(200);
    expect(t.data.viewToken).toMatch(/^\d+\.[0-9a-f]{64}$/);
    const exp = Number(t.data.viewToken.split('.')[0]);
    expect(exp - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(VIEW_TOKEN_TTL_SECONDS);
    const v = await lookup<PublicEvidence>(
      VerifyPaths.bqview,
      { viewToken: t.data.viewToken, no: saved.baoquan },
      ip,
    );
    expect(v).toMatchObject({ code: 200 });
    expect(v.data).toEqual({
      baoquan: saved.baoquan,
      title: '核验样本',
      kind: 'file',
      fileType: 1,
      filehash: sha256(data),
      chainhash: saved.chainhash,
      saveTime: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      deletedAt: null,
    });
    expect(JSON.stringify(v.data)).not.toContain(DEMO_MOBILE);
  });

  it('refuses unknown numbers, forged, foreign and expired tokens', async () => {
    const ip = freshIp();
    const a = (await upload<SaveEvidenceData>(h.app, demo, Buffer.from('a'), 'a.txt')).data;
    const b = (await upload<SaveEvidenceData>(h.app, demo, Buffer.from('b'), 'b.txt')).data;
    expect(await lookup(VerifyPaths.bqno, { no: 'BQ20240101AAAAAAAAAAAAAAAAAAAA' }, ip)).toMatchObject({
      code: 404,
      msg: VerifyMsg.evidenceNumberNotFound,
    });
    expect(await lookup(VerifyPaths.bqno, { no: '' }, ip)).toMatchObject({
      code: 400,
      msg: Msg.required('保全编号'),
    });
    const token = (await lookup<ViewTokenData>(VerifyPaths.bqno, { no: a.baoquan }, ip)).data.viewToken;
    const [exp, sig] = token.split('.') as [string, string];
    const flipped = `${exp}.${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}`;
    const now = Math.floor(Date.now() / 1000);
    const expired = h.app.downloads.viewToken(
      a.baoquan,
      now - VIEW_TOKEN_TTL_SECONDS - 5,
      VIEW_TOKEN_TTL_SECONDS,
    );
    for (const [viewToken, no] of [
      [flipped, a.baoquan],
      [token, b.baoquan], // a token of another number
      [`${Number(exp) + 60}.${sig}`, a.baoquan],
      [expired, a.baoquan],
      ['garbage', a.baoquan],
    ] as const) {
      expect(await lookup(VerifyPaths.bqview, { viewToken, no }, ip)).toMatchObject({
        code: 400,
        msg: VerifyMsg.viewTokenInvalid,
      });
    }
    expect((await lookup(VerifyPaths.bqview, { no: a.baoquan }, ip)).code).toBe(400);
  });

  it('byHash: every evidence with that SHA-256, newest first, at most 20; none → empty list', async () => {
    const ip = freshIp();
    const data = Buffer.from(`same bytes ${Date.now()}`);
    const first = (await upload<SaveEvidenceData>(h.app, demo, data, 'one.txt')).data;
    const hashOnly = (
      await call<SaveEvidenceData>(h.app, {
        method: 'POST',
        url: EvidencePaths.saveHash,
        token: demo,
        payload: { hash: sha256(data), title: '仅哈希' },
      })
    ).data;
    await h.app.pdb.db
      .updateTable('evidences')
      .set({ created_at: 1_700_000_000 })
      .where('id', '=', first.id)
      .execute();
    const r = await lookup<PublicEvidence[]>(VerifyPaths.byHash, { hash: sha256(data).toUpperCase() }, ip);
    expect(r.code).toBe(200);
    expect(r.data.map((e) => [e.baoquan, e.kind])).toEqual([
      [hashOnly.baoquan, 'hash'],
      [first.baoquan, 'file'],
    ]);
    const none = await lookup<PublicEvidence[]>(VerifyPaths.byHash, { hash: sha256('nothing here') }, ip);
    expect(none).toMatchObject({ code: 200, data: [] });
    expect(await lookup(VerifyPaths.byHash, { hash: 'xyz' }, ip)).toMatchObject({
      code: 400,
      msg: '请输入64位十六进制SHA-256哈希值',
    });
    // more than 20 matches: the newest 20
    const many = sha256(`many ${Date.now()}`);
    for (let i = 0; i < 22; i++) {
      await call(h.app, {
        method: 'POST',
        url: EvidencePaths.saveHash,
        token: demo,
        payload: { hash: many, title: `h${i}` },
      });
    }
    const capped = await lookup<PublicEvidence[]>(VerifyPaths.byHash, { hash: many }, freshIp());
    expect(capped.data).toHaveLength(20);
    // deleted evidence is still found, with its date
    await call(h.app, {
      method: 'POST',
      url: EvidencePaths.delData,
      token: demo,
      payload: { dataId: first.id },
    });
    const after = await lookup<PublicEvidence[]>(VerifyPaths.byHash, { hash: sha256(data) }, ip);
    expect(after.data[1]!.deletedAt).toMatch(/^\d{4}-\d\d-\d\d$/);
  });

  it(`rate-limits per client IP: ${PUBLIC_LOOKUP_POLICY.max} lookups a minute, then 429; other clients unaffected`, async () => {
    const ip = freshIp();
    const hash = sha256('rate');
    for (let i = 0; i < PUBLIC_LOOKUP_POLICY.max; i++) {
      const path = [VerifyPaths.byHash, VerifyPaths.bqno, VerifyPaths.bqview, VerifyPaths.packageKey][i % 4]!;
      const r = await lookup(path, { hash, no: 'BQ20240101AAAAAAAAAAAAAAAAAAAA', viewToken: 'x' }, ip);
      expect(r.code).not.toBe(429);
    }
    for (const path of [VerifyPaths.byHash, VerifyPaths.bqno, VerifyPaths.bqview, VerifyPaths.packageKey]) {
      expect(await lookup(path, { hash, no: 'x', viewToken: 'x' }, ip)).toMatchObject({
        code: 429,
        msg: Msg.tooManyRequests,
      });
    }
    expect((await lookup(VerifyPaths.byHash, { hash }, freshIp())).code).toBe(200);
    // the package check's key is the published ledger key
    const key = await lookup<LedgerPublicKey>(VerifyPaths.packageKey, {}, freshIp());
    expect(key.data).toEqual((await get<LedgerPublicKey>(h.app, LedgerPaths.publicKey)).data);
  });
  it('downCertificate: the certificate PDF paths for a live view token of that number only', async () => {
    const ip = freshIp();
    const a = (await upload<SaveEvidenceData>(h.app, demo, Buffer.from(`证书 ${Date.now()}`), 'c.txt')).data;
    const b = (await upload<SaveEvidenceData>(h.app, demo, Buffer.from(`另一 ${Date.now()}`), 'd.txt')).data;
    const token = (await lookup<ViewTokenData>(VerifyPaths.bqno, { no: a.baoquan }, ip)).data.viewToken;
    const r = await lookup<CertificateDownloadData>(
      VerifyPaths.downCertificate,
      { viewToken: token, no: a.baoquan },
      ip,
    );
    expect(r).toMatchObject({
      code: 200,
      data: {
        baoquan: a.baoquan,
        downUrl: `/attestation/${a.baoquan}.pdf`,
        englishUrl: `/English/attestation/${a.baoquan}.pdf`,
      },
    });
    expect(await lookup(VerifyPaths.downCertificate, { viewToken: token, no: b.baoquan }, ip)).toMatchObject({
      code: 400,
      msg: VerifyMsg.viewTokenInvalid,
      data: null,
    });
    expect(await lookup(VerifyPaths.downCertificate, { no: a.baoquan }, ip)).toMatchObject({
      code: 400,
      msg: VerifyMsg.viewTokenInvalid,
    });
    expect(await lookup(VerifyPaths.downCertificate, { viewToken: token }, ip)).toMatchObject({
      code: 400,
      msg: Msg.required('保全编号'),
    });
  });
});
