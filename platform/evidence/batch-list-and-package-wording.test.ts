/**
 * The batch download list and the package wording of the certificates, on SQLite and PostgreSQL (spec 01 §2.3, §2.4,
 * §3; decision 028): getList `v=download` lists file, app and user-data evidence (not hash) with the type and label
 * filters; every certificate says what its package holds, and a hash evidence's never promises an original file.
 */
import { beforeAll, expect, it } from 'vitest';
import {
  BATCH_LIST_V,
  type EvidenceListData,
  EvidencePaths,
  type LabelItem,
  packageContents,
} from '../../contract/evidence.ts';
import { pcmWav } from '../../tests/support/audio.ts';
import { evidenceCalls, evidenceUsers, PNG, sha256 } from '../../tests/support/evidence.ts';
import { forEachDialect, get, post } from '../../tests/support/platform.ts';

forEachDialect('batch download list and package wording', (h) => {
  let other: string;
  const ids: Record<string, { id: number; baoquan: string }> = {};
  beforeAll(async () => {
    ({ other } = await evidenceUsers(h));
    const { saveFile, saveHash, saveProperty, saveMusic } = evidenceCalls(h);
    ids.doc = await saveFile(other, Buffer.from('合同正文'), '合同.txt', { label: '合同' });
    ids.png = await saveFile(other, PNG, '现场.png', { label: '照片' });
    ids.app = await saveFile(other, PNG, '录屏.png', { label: '照片' });
    await h.app.pdb.db.updateTable('evidences').set({ kind: 'app' }).where('id', '=', ids.app.id).execute();
    const prop = await saveProperty(
      other,
      { data: Buffer.from('订单号,金额\nA1,1.00\n'), filename: '订单.csv' },
      { label: '数据' },
    );
    expect(prop.code).toBe(200);
    ids.prop = prop.data;
    const hash = await saveHash(other, {
      hash: sha256('某文件'),
      title: '哈希',
      label: '合同',
      fileName: 'a.pdf',
    });
    expect(hash.code).toBe(200);
    ids.hash = hash.data;
    const song = await saveMusic(
      other,
      { title: '歌', label: '照片', 'authors[0].role': '演唱', 'authors[0].name': '某人' },
      pcmWav(1),
      'song.wav',
    );
    expect(song.code).toBe(200);
    ids.song = song.data;
  });
  const list = (q: Record<string, string | number>) =>
    get<EvidenceListData>(h.app, EvidencePaths.list, { limit: 100, ...q }, other);
  const listed = async (q: Record<string, string | number>) =>
    (await list(q)).data.list.map((x) => x.id).sort((a, b) => a - b);
  const idsOf = (...names: string[]) => names.map((n) => ids[n]!.id).sort((a, b) => a - b);

  it('v=download lists file, app, user-data evidence and music works, never hash evidence', async () => {
    const r = await list({ v: BATCH_LIST_V });
    expect(r.code).toBe(200);
    expect(r.data.count).toBe(5);
    expect(r.data.list.map((x) => x.id).sort((a, b) => a - b)).toEqual(
      idsOf('doc', 'png', 'app', 'prop', 'song'),
    );
    expect(new Set(r.data.list.map((x) => x.kind))).toEqual(new Set(['file', 'app', 'property', 'music']));
    // the plain list is unchanged: file and app only
    expect(await listed({})).toEqual(idsOf('doc', 'png', 'app'));
  });

  it('filters the batch list by file type and by label', async () => {
    expect(await listed({ v: BATCH_LIST_V, type: 2 })).toEqual(idsOf('png', 'app'));
    // user data is a document (its data.csv)
    expect(await listed({ v: BATCH_LIST_V, type: 1 })).toEqual(idsOf('doc', 'prop'));
    expect(await listed({ v: BATCH_LIST_V, type: 4 })).toEqual([]);
    expect(await listed({ v: BATCH_LIST_V, label: '照片' })).toEqual(idsOf('png', 'app', 'song'));
    expect(await listed({ v: BATCH_LIST_V, type: 3 })).toEqual(idsOf('song'));
    expect(await listed({ v: BATCH_LIST_V, label: '数据' })).toEqual(idsOf('prop'));
    // the hash evidence labelled 合同 stays out
    expect(await listed({ v: BATCH_LIST_V, label: '合同' })).toEqual(idsOf('doc'));
    expect(await listed({ v: BATCH_LIST_V, label: '合同', type: 2 })).toEqual([]);
    // a bad type is refused in Chinese, not answered with everything
    const bad = await list({ v: BATCH_LIST_V, type: 9 });
    expect(bad.code).toBe(400);
    expect(bad.msg).toMatch(/[\u4e00-\u9fff]/);
  });

  it('the label list without v offers the labels of exactly those kinds', async () => {
    const r = await get<LabelItem[]>(h.app, EvidencePaths.labels, {}, other);
    expect(r.data.map((l) => l.label)).toEqual(['合同', '数据', '照片'].sort());
  });

  it('each list’s label list (v) offers its own kinds’ labels only, and the app list filters by file type', async () => {
    const labels = async (v: string) =>
      (await get<LabelItem[]>(h.app, EvidencePaths.labels, { v }, other)).data.map((l) => l.label);
    // the file list (getList without v) shows file and app evidence: not the user data's 数据, nor hash's own
    expect(await labels('file')).toEqual(['合同', '照片'].sort());
    expect(await labels('property')).toEqual(['数据']);
    expect(await labels('music')).toEqual(['照片']);
    // (v=app is not asked here: this suite makes its app evidence by changing a row's kind, which the label tally
    // of migration 0011 does not follow, as no writer ever does it)
    expect(await listed({ v: 'app', type: 2 })).toEqual(idsOf('app'));
    expect(await listed({ v: 'app', type: 1 })).toEqual([]);
  });

  it('a batch of user data and files signs one package each; the hash evidence is not offered but still packs', async () => {
    const r = await post<{ list: { id: number }[] }>(
      h.app,
      EvidencePaths.downloadBatch,
      { dataIdStr: [ids.prop!.id, ids.doc!.id].join(',') },
      other,
    );
    expect(r.code).toBe(200);
    expect(r.data.list.map((x) => x.id)).toEqual([ids.prop!.id, ids.doc!.id]);
  });

  it('each certificate says what its package holds; hash evidence promises no original', async () => {
    const { view } = evidenceCalls(h);
    const html = async (name: string) => (await view(ids[name]!.baoquan)).data.html;
    const hash = await html('hash');
    expect(hash).toContain('证据包内容');
    expect(hash).toContain(packageContents('hash'));
    expect(hash).toContain('不含原始文件');
    expect(hash).not.toContain('原始文件（evidence/');
    const prop = await html('prop');
    expect(prop).toContain(packageContents('property'));
    expect(prop).toContain('evidence/data.csv');
    expect(prop).not.toContain('原始文件');
    const doc = await html('doc');
    expect(doc).toContain(packageContents('file'));
    expect(await html('app')).toContain(packageContents('app'));
  });

  it('a deleted evidence’s certificate no longer describes a package', async () => {
    const { view } = evidenceCalls(h);
    const r = await post(h.app, EvidencePaths.delData, { dataId: ids.png!.id }, other);
    expect(r.code).toBe(200);
    const v = await view(ids.png!.baoquan);
    expect(v.data.deletedAt).not.toBeNull();
    expect(v.data.html).not.toContain('证据包内容');
  });
});
