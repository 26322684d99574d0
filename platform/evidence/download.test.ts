/**
 * Package and batch downloads on the platform, on SQLite and PostgreSQL (spec 01 §2.4, §7; decisions 006, 007): the
 * package URL the gateway authorizes, refused when tampered, expired or of another purpose; batch downloads of one's
 * own evidence only, deleted ones skipped, with the spec's messages and limits.
 */
import { beforeAll, expect, it } from 'vitest';
import { AccountPaths, type UserInfo } from '../../contract/account.ts';
import {
  type BatchDownloadData,
  type DownloadData,
  EvidenceMsg,
  EvidencePaths,
  type PackageAuthorization,
} from '../../contract/evidence.ts';
import { evidenceCalls, evidenceUsers, PNG, sha256 } from '../../tests/support/evidence.ts';
import { forEachDialect, get, post } from '../../tests/support/platform.ts';

forEachDialect('package and batch downloads', (h) => {
  let demo: string;
  let other: string;
  beforeAll(async () => {
    ({ demo, other } = await evidenceUsers(h));
  });
  const { saveFile, saveHash, saveProperty } = evidenceCalls(h);

  const authorize = (baoquan: string, query: string) =>
    h.app.inject({ method: 'GET', url: `/api/file/${baoquan}/authorize?${query}` });

  it('downBaoquan and checkNo give a package URL the gateway can authorize; tampered or expired ones are refused', async () => {
    const s = await saveFile(demo, PNG, '图.png');
    const r = await post<DownloadData>(h.app, EvidencePaths.ownerDownload, { dataId: s.id }, demo);
    expect(r.data.downUrl).toMatch(/^\/api\/file\//);
    const u = new URL(r.data.packageUrl, 'http://x');
    expect(u.pathname).toBe(`/attestation/${s.baoquan}/package.zip`);
    const exp = u.searchParams.get('exp')!;
    const sig = u.searchParams.get('sig')!;
    const ok = await authorize(s.baoquan, `exp=${exp}&sig=${sig}&purpose=package`);
    expect(ok.statusCode).toBe(200);
    const body = ok.json() as { code: number; data: PackageAuthorization };
    expect(body.data).toMatchObject({
      baoquan: s.baoquan,
      fileName: '图.png',
      kind: 'file',
      title: '图.png',
    });
    const orig = await h.app.inject({ method: 'GET', url: body.data.downUrl! });
    expect(orig.rawPayload.equals(PNG)).toBe(true);

    const flipped = sig.slice(0, -1) + (sig.endsWith('0') ? '1' : '0');
    const other2 = await saveFile(demo, PNG, 'b.png');
    const past = Math.floor(Date.now() / 1000) - 10;
    const downloadSig = new URL(r.data.downUrl, 'http://x').searchParams.get('sig');
    for (const [bq, q] of [
      [s.baoquan, `exp=${exp}&sig=${flipped}&purpose=package`],
      [s.baoquan, `exp=${Number(exp) + 1}&sig=${sig}&purpose=package`],
      [other2.baoquan, `exp=${exp}&sig=${sig}&purpose=package`],
      [s.baoquan, `exp=${exp}&sig=${sig}`],
      [s.baoquan, `exp=${exp}&sig=${sig}&purpose=download`],
      [s.baoquan, `exp=${exp}&sig=${downloadSig}&purpose=package`],
      [s.baoquan, `exp=${past}&sig=${h.app.downloads.packageSignature(s.baoquan, past)}&purpose=package`],
    ] as const) {
      const res = await authorize(bq, q);
      expect({ q, status: res.statusCode }).toEqual({ q, status: 403 });
      expect(res.json()).toMatchObject({ code: 403, msg: EvidenceMsg.downloadLinkInvalid });
    }
    // a package signature does not open the file route either
    const asFile = await h.app.inject({
      method: 'GET',
      url: `/api/file/${s.baoquan}?exp=${exp}&sig=${sig}`,
    });
    expect(asFile.statusCode).toBe(403);

    const code = (await post<UserInfo>(h.app, AccountPaths.authInfo, {}, demo)).data.extractCode;
    const byCode = await post<DownloadData>(h.app, EvidencePaths.codeDownload, {
      code,
      baoquan: s.baoquan,
    });
    expect(byCode.data.packageUrl).toMatch(
      new RegExp(`^/attestation/${s.baoquan}/package\\.zip\\?exp=\\d+&sig=`),
    );

    // user data: the original is data.csv; hash evidence: no original
    const p = await saveProperty(demo, null, { fields: '["a"]', rows: '[["1"]]' });
    const pu = new URL(
      (await post<DownloadData>(h.app, EvidencePaths.ownerDownload, { dataId: p.data.id }, demo)).data
        .packageUrl,
      'http://x',
    );
    const pa = await authorize(p.data.baoquan, `${pu.searchParams}&purpose=package`);
    expect((pa.json() as { data: PackageAuthorization }).data).toMatchObject({
      fileName: 'data.csv',
      kind: 'property',
    });
    const hs = await saveHash(demo, { hash: sha256('pkg'), title: 'h' });
    const hu = new URL(
      (await post<DownloadData>(h.app, EvidencePaths.ownerDownload, { dataId: hs.data.id }, demo)).data
        .packageUrl,
      'http://x',
    );
    const ha = await authorize(hs.data.baoquan, `${hu.searchParams}&purpose=package`);
    expect((ha.json() as { data: PackageAuthorization }).data).toMatchObject({
      fileName: null,
      kind: 'hash',
      downUrl: null,
    });
  });

  it('downloadBatch: own ids only, deleted skipped, hash kept, messages and limits', async () => {
    const a = await saveFile(demo, PNG, 'a.png');
    const b = await saveFile(demo, Buffer.from('text'), 'b.txt');
    const hs = (await saveHash(demo, { hash: sha256('batch'), title: 'hb' })).data;
    const gone = await saveFile(demo, PNG, 'gone.png');
    await get(h.app, EvidencePaths.delData, { dataId: gone.id }, demo);
    const foreign = await saveFile(other, PNG, 'theirs.png');
    const r = await post<BatchDownloadData>(
      h.app,
      EvidencePaths.downloadBatch,
      { dataIdStr: `${b.id}, ${a.id},${foreign.id},${gone.id},${hs.id},999999999,abc,${a.id}` },
      demo,
      true,
    );
    expect(r.code).toBe(200);
    expect(r.data.list.map((x) => x.id)).toEqual([b.id, a.id, hs.id]);
    expect(r.data.list[0]).toMatchObject({ baoquan: b.baoquan, title: 'b.txt' });
    const u = new URL(r.data.batchUrl, 'http://x');
    expect(u.pathname).toBe('/attestation-list/download/batch.zip');
    const items = u.searchParams.get('items')!.split(',');
    expect(items).toHaveLength(3);
    for (const [i, item] of items.entries()) {
      const [bq, exp, sig] = item.split('.');
      expect(bq).toBe(r.data.list[i]!.baoquan);
      expect(r.data.list[i]!.packageUrl).toBe(`/attestation/${bq}/package.zip?exp=${exp}&sig=${sig}`);
      expect((await authorize(bq!, `exp=${exp}&sig=${sig}&purpose=package`)).statusCode).toBe(200);
    }

    expect(await post(h.app, EvidencePaths.downloadBatch, { dataIdStr: '' }, demo)).toMatchObject({
      code: 400,
      msg: EvidenceMsg.selectEvidenceToDownload,
    });
    expect(await post(h.app, EvidencePaths.downloadBatch, {}, demo)).toMatchObject({
      code: 400,
      msg: EvidenceMsg.selectEvidenceToDownload,
    });
    expect(
      await post(h.app, EvidencePaths.downloadBatch, { dataIdStr: `${foreign.id},${gone.id}` }, demo),
    ).toMatchObject({ code: 400, msg: EvidenceMsg.noDownloadFiles });
    const many = Array.from({ length: 101 }, (_, i) => i + 1).join(',');
    expect(await post(h.app, EvidencePaths.downloadBatch, { dataIdStr: many }, demo)).toMatchObject({
      code: 400,
      msg: EvidenceMsg.batchTooMany(100),
    });
    expect((await post(h.app, EvidencePaths.downloadBatch, { dataIdStr: String(a.id) })).code).toBe(408);
  });
});
