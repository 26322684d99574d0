/**
 * Labels and deletion on the platform, on SQLite and PostgreSQL (spec 01 §2.4; decision 006): label changes of
 * one's own evidence; deleting the stored data (bytes gone, row and ledger entry kept, the certificate says so,
 * downloads refused) and the start-up sweep that finishes a deletion a crash interrupted.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { AccountPaths, type UserInfo } from '../../contract/account.ts';
import {
  type DelDataData,
  type DownloadData,
  type EvidenceListData,
  EvidenceMsg,
  EvidencePaths,
} from '../../contract/evidence.ts';
import { Msg } from '../../contract/messages.ts';
import { evidenceCalls, evidenceUsers, PNG } from '../../tests/support/evidence.ts';
import { forEachDialect, get, post } from '../../tests/support/platform.ts';
import { sweepDeletedData } from './lifecycle.ts';

forEachDialect('labels and deletion', (h) => {
  let demo: string;
  let other: string;
  beforeAll(async () => {
    ({ demo, other } = await evidenceUsers(h));
  });
  const { view, stored, exists, saveFile } = evidenceCalls(h);

  it('labelSave changes and clears the label of one’s own evidence only', async () => {
    const s = await saveFile(demo, PNG, 'l.png', { label: '旧' });
    const r = await post(h.app, EvidencePaths.labelSave, { dataId: s.id, label: '新标签' }, demo, true);
    expect(r).toMatchObject({ code: 200, msg: Msg.modified, data: { id: s.id, label: '新标签' } });
    const labelOf = async () =>
      (
        await h.app.pdb.db
          .selectFrom('evidences')
          .select('label')
          .where('id', '=', s.id)
          .executeTakeFirstOrThrow()
      ).label;
    expect(await labelOf()).toBe('新标签');
    expect(await post(h.app, EvidencePaths.labelSave, { dataId: s.id, label: 'x' }, other)).toMatchObject({
      code: 404,
      msg: EvidenceMsg.evidenceNotFound,
    });
    expect(await post(h.app, EvidencePaths.labelSave, { dataId: s.id, label: '{bad}' }, demo)).toMatchObject({
      code: 400,
      msg: Msg.specialChars('标签'),
    });
    expect(
      await post(h.app, EvidencePaths.labelSave, { dataId: s.id, label: '长'.repeat(31) }, demo),
    ).toMatchObject({ code: 400, msg: Msg.tooLong('标签', 30) });
    expect(await labelOf()).toBe('新标签');
    expect((await post(h.app, EvidencePaths.labelSave, { dataId: s.id, label: '' }, demo)).code).toBe(200);
    expect(await labelOf()).toBe('');
    expect((await post(h.app, EvidencePaths.labelSave, { dataId: s.id, label: 'x' })).code).toBe(408);
  });

  it('delData: bytes gone, row and ledger entry stay, certificate says so, downloads refused', async () => {
    const data = randomBytes(2048);
    const s = await saveFile(demo, data, 'to-delete.bin', { label: '删除' });
    const before = await post<DownloadData>(h.app, EvidencePaths.ownerDownload, { dataId: s.id }, demo);
    expect(await exists(stored(s.baoquan))).toBe(true);

    expect(await get(h.app, EvidencePaths.delData, { dataId: s.id }, other)).toMatchObject({
      code: 404,
      msg: EvidenceMsg.evidenceNotFound,
    });
    expect(await exists(stored(s.baoquan))).toBe(true);

    const del = await get<DelDataData>(h.app, EvidencePaths.delData, { dataId: s.id }, demo);
    expect(del).toMatchObject({ code: 200, msg: EvidenceMsg.evidenceDataDeleted, data: { id: s.id } });
    expect(del.data.deletedAt).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(await exists(stored(s.baoquan))).toBe(false);
    const row = await h.app.pdb.db
      .selectFrom('evidences')
      .select(['deleted_at', 'purged_at'])
      .where('id', '=', s.id)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    expect(row.purged_at).not.toBeNull();
    const entry = await h.app.pdb.db
      .selectFrom('ledger_entries')
      .select('entry_hash')
      .where('evidence_id', '=', s.id)
      .executeTakeFirst();
    expect(entry?.entry_hash).toBe(s.chainhash);
    // again (POST this time) is fine and keeps the date
    const again = await post<DelDataData>(h.app, EvidencePaths.delData, { dataId: s.id }, demo, true);
    expect(again.data.deletedAt).toBe(del.data.deletedAt);

    const v = await view(s.baoquan, demo);
    expect(v.data).toMatchObject({ isDownload: 0, deletedAt: del.data.deletedAt, chainhash: s.chainhash });
    expect(v.data.html).toContain(
      `该证据数据已由所有人于 ${del.data.deletedAt} 删除，保全记录仍保留在存证账本中`,
    );
    const list = await get<EvidenceListData>(h.app, EvidencePaths.list, { label: '删除' }, demo);
    expect(list.data.list).toEqual([expect.objectContaining({ id: s.id, deletedAt: del.data.deletedAt })]);

    expect(await post(h.app, EvidencePaths.ownerDownload, { dataId: s.id }, demo)).toMatchObject({
      code: 404,
      msg: EvidenceMsg.evidenceDeleted,
    });
    const code = (await post<UserInfo>(h.app, AccountPaths.authInfo, {}, demo)).data.extractCode;
    expect(await post(h.app, EvidencePaths.codeDownload, { code, baoquan: s.baoquan })).toMatchObject({
      code: 404,
      msg: EvidenceMsg.evidenceDeleted,
    });
    const file = await h.app.inject({ method: 'GET', url: before.data.downUrl });
    expect(file.statusCode).toBe(404);
    const pkg = new URL(before.data.packageUrl, 'http://x');
    const auth = await h.app.inject({
      method: 'GET',
      url: `/api/file/${s.baoquan}/authorize?exp=${pkg.searchParams.get('exp')}&sig=${pkg.searchParams.get('sig')}&purpose=package`,
    });
    expect(auth.statusCode).toBe(403);
    expect(auth.json()).toMatchObject({ code: 403, msg: EvidenceMsg.evidenceDeleted });
    expect(await post(h.app, EvidencePaths.downloadBatch, { dataIdStr: String(s.id) }, demo)).toMatchObject({
      code: 400,
      msg: EvidenceMsg.noDownloadFiles,
    });
    expect((await get(h.app, EvidencePaths.delData, { dataId: s.id })).code).toBe(408);
    expect((await get(h.app, EvidencePaths.delData, { dataId: 'x' }, demo)).code).toBe(400);
  });

  it('the start-up sweep removes the bytes of a deletion a crash interrupted', async () => {
    const s = await saveFile(demo, randomBytes(512), 'crash.bin');
    // the crash: deleted_at was committed, the file was not removed yet
    await h.app.pdb.db
      .updateTable('evidences')
      .set({ deleted_at: 1_700_000_000 })
      .where('id', '=', s.id)
      .execute();
    expect(await exists(stored(s.baoquan))).toBe(true);
    expect((await view(s.baoquan)).data.isDownload).toBe(0); // never served once marked deleted
    expect(await sweepDeletedData(h.app.pdb.db, h.app.storage, 1_700_000_100)).toBeGreaterThanOrEqual(1);
    expect(await exists(stored(s.baoquan))).toBe(false);
    expect(await sweepDeletedData(h.app.pdb.db, h.app.storage, 1_700_000_200)).toBe(0);
    expect((await view(s.baoquan)).data.deletedAt).toBe('2023-11-15');
  });
});
