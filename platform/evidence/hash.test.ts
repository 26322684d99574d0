/**
 * Hash evidence on the platform, on SQLite and PostgreSQL (spec 01 §2.3, §3; decision 006): the submitted SHA-256 is
 * recorded without any bytes, the type comes from the name, the certificate says only the hash was kept; validation;
 * the hash list and labels apart from the files.
 */
import { beforeAll, expect, it } from 'vitest';
import {
  type DownloadData,
  type EvidenceListData,
  EvidenceMsg,
  EvidencePaths,
  type LabelItem,
  type SaveEvidenceData,
} from '../../contract/evidence.ts';
import { Msg } from '../../contract/messages.ts';
import { evidenceCalls, evidenceUsers, PNG, sha256 } from '../../tests/support/evidence.ts';
import { forEachDialect, get, login, post, registerUser } from '../../tests/support/platform.ts';
import { HASH_ONLY_NOTICE } from './certificate.ts';

forEachDialect('hash evidence', (h) => {
  let demo: string;
  beforeAll(async () => {
    ({ demo } = await evidenceUsers(h));
  });
  const { view, stored, exists, saveFile, saveHash } = evidenceCalls(h);

  it('records the submitted hash (lower case), no bytes, type from the name, certificate says so', async () => {
    const hash = sha256('never uploaded').toUpperCase();
    const r = await saveHash(demo, {
      hash,
      title: '合同原件哈希',
      label: '哈希标签',
      fileName: '合同.PDF',
      fileSize: 123456,
    });
    expect(r).toMatchObject({ code: 200, msg: EvidenceMsg.preserved });
    expect(r.data.filehash).toBe(hash.toLowerCase());
    expect(r.data.chainhash).toMatch(/^[0-9a-f]{64}$/);
    expect(await exists(stored(r.data.baoquan))).toBe(false);
    const v = await view(r.data.baoquan, demo);
    expect(v.data).toMatchObject({
      kind: 'hash',
      fileType: 1,
      fileName: '合同.PDF',
      fileSize: 123456,
      filehash: hash.toLowerCase(),
      isDownload: 0,
      isSelf: 1,
      deletedAt: null,
      userData: null,
    });
    expect(v.data.html).toContain(HASH_ONLY_NOTICE);
    expect(v.data.html).toContain('文件名称不能证明文件内容');
    const row = await h.app.pdb.db
      .selectFrom('ledger_entries')
      .select('record_json')
      .where('evidence_id', '=', r.data.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.record_json)).toMatchObject({ kind: 'hash', sha256: hash.toLowerCase() });

    const bare = await saveHash(demo, { hash: sha256('x'), title: '无文件名' });
    expect((await view(bare.data.baoquan)).data).toMatchObject({ fileType: 5, fileName: '', fileSize: 0 });
    // form-encoded works too; the owner download gives a package but no original
    const form = await post<SaveEvidenceData>(
      h.app,
      EvidencePaths.saveHash,
      { hash: sha256('form'), title: '表单', fileName: 'photo.JPG' },
      demo,
      true,
    );
    expect((await view(form.data.baoquan)).data.fileType).toBe(2);
    const dl = await post<DownloadData>(h.app, EvidencePaths.ownerDownload, { dataId: form.data.id }, demo);
    expect(dl.data.downUrl).toBe('');
    expect(dl.data.packageUrl).toMatch(/^\/attestation\/BQ\w+\/package\.zip\?exp=\d+&sig=[0-9a-f]{64}$/);
  });

  it('validates the hash and title and needs login', async () => {
    expect(await saveHash(demo, { hash: 'abc', title: 't' })).toMatchObject({
      code: 400,
      msg: '请输入64位十六进制SHA-256哈希值',
    });
    expect(await saveHash(demo, { title: 't' })).toMatchObject({ code: 400, msg: Msg.required('哈希值') });
    expect(await saveHash(demo, { hash: sha256('a') })).toMatchObject({
      code: 400,
      msg: Msg.required('证据名称'),
    });
    expect(await saveHash(demo, { hash: sha256('a'), title: 'a<b' })).toMatchObject({
      code: 400,
      msg: Msg.specialChars('证据名称'),
    });
    expect((await saveHash('bad', { hash: sha256('a'), title: 't' })).code).toBe(408);
  });

  it('lists hash evidence apart: getHashSaveList / getHashLabelList; getList leaves it out', async () => {
    await registerUser(h.app, h.dataDir, '13900000301', 'abc12345');
    const t = await login(h.app, '13900000301', 'abc12345');
    const f = await saveFile(t, PNG, 'a.png', { label: '文件标签' });
    const h1 = (await saveHash(t, { hash: sha256('1'), title: 'h1', label: '哈希A' })).data;
    const h2 = (await saveHash(t, { hash: sha256('2'), title: 'h2 合同', label: '哈希B', fileName: 'x.mp4' }))
      .data;
    const files = await get<EvidenceListData>(h.app, EvidencePaths.list, {}, t);
    expect(files.data.list.map((r) => r.id)).toEqual([f.id]);
    const hashes = await get<EvidenceListData>(h.app, EvidencePaths.hashList, {}, t);
    expect(hashes.data.count).toBe(2);
    expect(hashes.data.list.map((r) => r.id).sort()).toEqual([h1.id, h2.id].sort());
    expect(hashes.data.list[0]).toMatchObject({ kind: 'hash', deletedAt: null });
    const filtered = await get<EvidenceListData>(h.app, EvidencePaths.hashList, { type: 4 }, t);
    expect(filtered.data.list.map((r) => r.id)).toEqual([h2.id]);
    const kw = await get<EvidenceListData>(h.app, EvidencePaths.hashList, { keyword: '合同' }, t);
    expect(kw.data.list.map((r) => r.id)).toEqual([h2.id]);
    expect((await get<LabelItem[]>(h.app, EvidencePaths.hashLabels, {}, t)).data).toEqual([
      { label: '哈希A' },
      { label: '哈希B' },
    ]);
    expect((await get<LabelItem[]>(h.app, EvidencePaths.labels, {}, t)).data).toEqual([
      { label: '文件标签' },
    ]);
    expect((await get(h.app, EvidencePaths.hashList, {})).code).toBe(408);
  });
});
