/**
 * The certificate page's remaining calls on SQLite and PostgreSQL (spec 01 §2.3, §6, §7; decision 027):
 * share/downBaoquan (owner without a code, anyone else with the extraction code), share/getMpsInfo (public facts of
 * the mobile preview, no owner data) and data/downContract (one's own certificate PDF paths), with 4xx Chinese
 * answers for bad input.
 */
import { beforeAll, expect, it } from 'vitest';
import { AccountPaths, type UserInfo } from '../../contract/account.ts';
import { type DownloadData, EvidenceMsg, EvidencePaths } from '../../contract/evidence.ts';
import { type CertificateDownloadData, type MobilePreviewInfo } from '../../contract/evidence-share.ts';
import { Msg } from '../../contract/messages.ts';
import { DEMO_MOBILE } from '../account/users.ts';
import { evidenceCalls, evidenceUsers, PNG, sha256 } from '../../tests/support/evidence.ts';
import { forEachDialect, get, post } from '../../tests/support/platform.ts';

forEachDialect('share and certificate calls', (h) => {
  let demo: string;
  let other: string;
  let code: string;
  beforeAll(async () => {
    ({ demo, other } = await evidenceUsers(h));
    code = (await post<UserInfo>(h.app, AccountPaths.authInfo, {}, demo)).data.extractCode;
  });
  const { saveFile, saveHash } = evidenceCalls(h);
  /** Distinct client addresses so the extraction-code throttle of one test does not leak into another. */
  let ipSeq = 0;
  const share = (body: Record<string, unknown>, token?: string) =>
    h.app
      .inject({
        method: 'POST',
        url: EvidencePaths.shareDownload,
        payload: body,
        headers: {
          'x-forwarded-for': `203.0.113.${++ipSeq}`,
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      })
      .then((r) => ({
        headers: r.headers,
        body: r.json() as { code: number; msg: string; data: DownloadData },
      }));

  it('share/downBaoquan: the owner needs no code, others need the right extraction code', async () => {
    const s = await saveFile(demo, PNG, '分享.png');
    const owner = await share({ baoquan: s.baoquan }, demo);
    expect(owner.body.code).toBe(200);
    expect(owner.headers['cache-control']).toBe('no-store');
    expect(owner.body.data.downUrl).toMatch(new RegExp(`^/api/file/${s.baoquan}\\?exp=\\d+&sig=`));
    expect(owner.body.data.packageUrl).toMatch(new RegExp(`^/attestation/${s.baoquan}/package\\.zip\\?exp=`));
    // the signed URL really serves the bytes
    const bytes = await h.app.inject({ method: 'GET', url: owner.body.data.downUrl });
    expect(bytes.rawPayload.equals(PNG)).toBe(true);

    for (const token of [undefined, other]) {
      expect((await share({ baoquan: s.baoquan }, token)).body).toMatchObject({
        code: 400,
        msg: EvidenceMsg.extractCodeRequired,
        data: null,
      });
      expect((await share({ baoquan: s.baoquan, code: '   ' }, token)).body).toMatchObject({
        code: 400,
        msg: EvidenceMsg.extractCodeRequired,
      });
      expect((await share({ baoquan: s.baoquan, code: `${code}x` }, token)).body).toMatchObject({
        code: 400,
        msg: EvidenceMsg.extractCodeWrong,
      });
      const byCode = await share({ baoquan: s.baoquan, code }, token);
      expect(byCode.body.code).toBe(200);
      expect(byCode.body.data.packageUrl).toMatch(new RegExp(`^/attestation/${s.baoquan}/package\\.zip`));
    }
    // hash evidence: a package but no original
    const hs = await saveHash(demo, { hash: sha256(`share ${Date.now()}`), title: '哈希' });
    expect((await share({ baoquan: hs.data.baoquan }, demo)).body.data.downUrl).toBe('');
    // deleted data
    await get(h.app, EvidencePaths.delData, { dataId: s.id }, demo);
    expect((await share({ baoquan: s.baoquan }, demo)).body).toMatchObject({
      code: 404,
      msg: EvidenceMsg.evidenceDeleted,
    });
  });

  it('share/downBaoquan: bad input answers 4xx in Chinese', async () => {
    expect((await share({ baoquan: 'BQ20240101AAAAAAAAAAAAAAAAAAAA', code })).body).toMatchObject({
      code: 404,
      msg: EvidenceMsg.evidenceNotFound,
    });
    expect((await share({})).body).toMatchObject({ code: 400, msg: EvidenceMsg.evidenceNotFound });
    expect((await share({ baoquan: 'x'.repeat(65) })).body).toMatchObject({
      code: 400,
      msg: EvidenceMsg.evidenceNotFound,
    });
    const s = await saveFile(demo, PNG, 'c.png');
    expect((await share({ baoquan: s.baoquan, code: 'c'.repeat(31) })).body).toMatchObject({
      code: 400,
      msg: Msg.tooLong('提取码', 30),
    });
  });

  it('share/getMpsInfo: public facts of the mobile preview, no owner data', async () => {
    const s = await saveFile(demo, PNG, '手机.png');
    const r = await post<MobilePreviewInfo>(h.app, EvidencePaths.mobileInfo, { baoquan: s.baoquan });
    expect(r.code).toBe(200);
    expect(r.data).toEqual({
      baoquan: s.baoquan,
      title: '手机.png',
      kind: 'file',
      fileType: 2,
      fileName: '手机.png',
      fileSize: PNG.length,
      filehash: sha256(PNG),
      chainhash: s.chainhash,
      saveTime: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      deletedAt: null,
      isDownload: 1,
      certificateUrl: `/attestation/${s.baoquan}`,
      pdfUrl: `/attestation/${s.baoquan}.pdf`,
    });
    expect(JSON.stringify(r.data)).not.toContain(DEMO_MOBILE);
    await get(h.app, EvidencePaths.delData, { dataId: s.id }, demo);
    const gone = await post<MobilePreviewInfo>(h.app, EvidencePaths.mobileInfo, { baoquan: s.baoquan });
    expect(gone.data).toMatchObject({ isDownload: 0, deletedAt: expect.stringMatching(/^\d{4}-\d\d-\d\d$/) });
    expect(
      await post(h.app, EvidencePaths.mobileInfo, { baoquan: 'BQ20240101AAAAAAAAAAAAAAAAAAAA' }),
    ).toMatchObject({
      code: 404,
      msg: EvidenceMsg.evidenceNotFound,
    });
    expect(await post(h.app, EvidencePaths.mobileInfo, { baoquan: '' })).toMatchObject({
      code: 400,
      msg: EvidenceMsg.evidenceNotFound,
    });
  });

  it('data/downContract: own certificate PDF paths only, login required', async () => {
    const s = await saveFile(demo, PNG, '证书.png');
    const r = await post<CertificateDownloadData>(
      h.app,
      EvidencePaths.ownerCertificate,
      { dataId: s.id },
      demo,
    );
    expect(r).toMatchObject({
      code: 200,
      data: {
        baoquan: s.baoquan,
        downUrl: `/attestation/${s.baoquan}.pdf`,
        englishUrl: `/English/attestation/${s.baoquan}.pdf`,
      },
    });
    expect(await post(h.app, EvidencePaths.ownerCertificate, { dataId: s.id }, other)).toMatchObject({
      code: 404,
      msg: EvidenceMsg.evidenceNotFound,
    });
    expect((await post(h.app, EvidencePaths.ownerCertificate, { dataId: s.id })).code).toBe(408);
    for (const dataId of ['', 'abc', '-1', '1.5']) {
      expect(await post(h.app, EvidencePaths.ownerCertificate, { dataId }, demo)).toMatchObject({
        code: 400,
        msg: EvidenceMsg.evidenceNotFound,
      });
    }
    // a deleted evidence keeps its certificate (it says the data was deleted)
    await get(h.app, EvidencePaths.delData, { dataId: s.id }, demo);
    expect(
      (await post<CertificateDownloadData>(h.app, EvidencePaths.ownerCertificate, { dataId: s.id }, demo))
        .code,
    ).toBe(200);
  });
});
