/**
 * Evidence lists whose cost does not grow with the data, on SQLite and PostgreSQL (spec 01 §2.4; migration 0011,
 * decision 054): the totals and label lists kept by triggers agree with the rows, keyword search through the trigram
 * index finds what `like '%keyword%'` finds (Chinese, case, quotes, wildcards, short keywords), and the database
 * really answers a keyword search from the index.
 */
import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { type EvidenceListData, EvidencePaths, type LabelItem } from '../../contract/evidence.ts';
import { evidenceCalls, evidenceUsers, PNG } from '../../tests/support/evidence.ts';
import {
  forEachDialect,
  get,
  post,
  withScratchDatabase,
  insertBareUser,
} from '../../tests/support/platform.ts';
import { listEvidence, listLabels } from './list.ts';

forEachDialect('evidence search and totals', (h) => {
  let user: string;
  let other: string;
  beforeAll(async () => {
    ({ demo: user, other } = await evidenceUsers(h));
  });
  const { saveFile, saveHash } = evidenceCalls(h);
  const list = async (token: string, query: Record<string, unknown> = {}) =>
    (await get<EvidenceListData>(h.app, EvidencePaths.list, { limit: 20, page: 1, ...query }, token)).data;
  const labels = async (token: string, path: string = EvidencePaths.labels) =>
    (await get<LabelItem[]>(h.app, path, {}, token)).data.map((l) => l.label);

  it('keeps the totals and label lists as evidences are saved and relabelled', async () => {
    const before = await list(other);
    const a = await saveFile(other, PNG, 'a.png', { title: '合同照片一', label: '合同' });
    await saveFile(other, PNG, 'b.png', { title: '合同照片二', label: '合同' });
    await saveFile(other, PNG, 'c.png', { title: '发票', label: '财务' });
    await saveHash(other, { hash: 'ab'.repeat(32), title: '哈希', label: '只在哈希' });
    const after = await list(other);
    expect(after.count).toBe(before.count + 3);
    expect(after.count).toBe(after.list.length);
    expect(await labels(other)).toEqual(['合同', '财务']);
    expect(await labels(other, EvidencePaths.hashLabels)).toEqual(['只在哈希']);
    // one of two 合同 moves to 财务: both stay; the last 合同 moves: 合同 goes
    await post(h.app, EvidencePaths.labelSave, { dataId: a.id, label: '财务' }, other, true);
    expect(await labels(other)).toEqual(['合同', '财务']);
    const b = after.list.find((r) => r.title === '合同照片二')!;
    await post(h.app, EvidencePaths.labelSave, { dataId: b.id, label: '' }, other, true);
    expect(await labels(other)).toEqual(['财务']);
    // the kept tallies equal a count over the rows
    const rows = await h.app.pdb.db.selectFrom('evidences').select(['user_id', 'kind', 'label']).execute();
    const tallies = await h.app.pdb.db
      .selectFrom('evidence_labels')
      .select(['user_id', 'kind', 'label', 'n'])
      .execute();
    for (const t of tallies) {
      expect(
        rows.filter((r) => r.user_id === t.user_id && r.kind === t.kind && r.label === t.label).length,
      ).toBe(Number(t.n));
    }
    const counts = await h.app.pdb.db
      .selectFrom('evidence_counts')
      .select(['user_id', 'kind', 'n'])
      .execute();
    expect(counts.reduce((sum, c) => sum + Number(c.n), 0)).toBe(rows.length);
    // another user's list knows nothing of these
    expect((await list(user, { keyword: '合同照片' })).count).toBe(0);
  });

  it('keeps the tallies right for many rows inserted or relabelled in one statement', async () => {
    const { db } = h.app.pdb;
    const userId = await insertBareUser(db, '13900000197', '3');
    const row = (n: number, label: string, kind: 'file' | 'hash') => ({
      baoquan: `BQBULK${n}`,
      user_id: userId,
      title: `批量 ${n}`,
      label,
      file_name: `b${n}.png`,
      file_size: 1,
      file_type: 2,
      mime: 'image/png',
      sha256: 'c'.repeat(64),
      storage_key: '',
      status: 1,
      created_at: n,
      kind,
    });
    await db
      .insertInto('evidences')
      .values([
        row(1, '甲', 'file'),
        row(2, '甲', 'file'),
        row(3, '乙', 'file'),
        row(4, '', 'file'),
        row(5, '甲', 'hash'),
      ])
      .execute();
    const tallies = async () =>
      (
        await db
          .selectFrom('evidence_labels')
          .select(['kind', 'label', 'n'])
          .where('user_id', '=', userId)
          .orderBy('kind')
          .orderBy('label')
          .execute()
      ).map((t) => `${t.kind}:${t.label}=${Number(t.n)}`);
    expect(await tallies()).toEqual(['file:乙=1', 'file:甲=2', 'hash:甲=1']);
    const counts = await db
      .selectFrom('evidence_counts')
      .select(['kind', 'n'])
      .where('user_id', '=', userId)
      .orderBy('kind')
      .execute();
    expect(counts.map((c) => `${c.kind}=${Number(c.n)}`)).toEqual(['file=4', 'hash=1']);
    // one statement moves every 甲 of the file kind to 乙; another touches rows without changing a label
    await db
      .updateTable('evidences')
      .set({ label: '乙' })
      .where('user_id', '=', userId)
      .where('label', '=', '甲')
      .where('kind', '=', 'file')
      .execute();
    await db.updateTable('evidences').set({ deleted_at: 9 }).where('user_id', '=', userId).execute();
    expect(await tallies()).toEqual(['file:乙=3', 'hash:甲=1']);
  });

  it('finds by keyword in title or file name as a substring match, whatever its length', async () => {
    await saveFile(user, PNG, 'Scan_2026-Q1 final.png', { title: '租赁合同扫描件' });
    await saveFile(user, PNG, 'photo.png', { title: '100%_done 现场照片' });
    const titles = async (keyword: string) => (await list(user, { keyword })).list.map((r) => r.title).sort();
    expect(await titles('合同扫描')).toEqual(['租赁合同扫描件']); // Chinese, through the index
    expect(await titles('scan_2026')).toEqual(['租赁合同扫描件']); // file name, case-insensitive
    // quotes are text, not index query syntax
    const quoted = await get<EvidenceListData>(h.app, EvidencePaths.list, { keyword: 'Q1 "final' }, user);
    expect([quoted.code, quoted.data.count]).toEqual([200, 0]);
    expect(await titles('q1 final')).toEqual(['租赁合同扫描件']);
    expect(await titles('100%_')).toEqual(['100%_done 现场照片']); // wildcards are text
    expect(await titles('0%_')).toEqual(['100%_done 现场照片']);
    expect(await titles('合同')).toEqual(['租赁合同扫描件']); // two characters: below the index, same answer
    expect(await titles('照')).toEqual(['100%_done 现场照片']);
    expect(await titles('无此关键字')).toEqual([]);
    const found = await list(user, { keyword: '合同扫描' });
    expect(found.count).toBe(1);
  });

  it('answers a keyword search from the trigram index', async () => {
    const { db } = h.app.pdb;
    if (h.dialect === 'sqlite') {
      const plan = await sql<{ detail: string }>`explain query plan
        select id from evidences where user_id = 1 and id in
          (select rowid from evidences_fts where evidences_fts match ${'{title file_name} : "合同扫描"'})`.execute(
        db,
      );
      expect(plan.rows.map((r) => r.detail).join('\n')).toMatch(/VIRTUAL TABLE INDEX/);
    } else {
      await sql`set enable_seqscan = off`.execute(db);
      try {
        const plan = await sql<{ 'QUERY PLAN': string }>`explain
          select id from evidences where lower(title) like ${'%合同扫描%'}`.execute(db);
        expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/evidences_title_trgm/);
      } finally {
        await sql`reset enable_seqscan`.execute(db);
      }
    }
  });
});

forEachDialect('migration 0011 (evidence totals, labels and search index)', (h) => {
  it('fills the totals, labels and index from the rows already there; down removes them', async () => {
    await withScratchDatabase(h, async (pdb, migrator) => {
      expect((await migrator.migrateTo('0010_kyc_security_key')).error).toBeUndefined();
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const db = pdb.db as any;
      const user = { id: await insertBareUser(db, '13900000198', '3') };
      const row = (n: number, title: string, label: string, kind: string) => ({
        baoquan: `BQMIG${n}`,
        user_id: user.id,
        title,
        label,
        file_name: `f${n}.png`,
        file_size: 1,
        file_type: 2,
        mime: 'image/png',
        sha256: 'a'.repeat(64),
        storage_key: '',
        created_at: n,
        kind,
      });
      await db
        .insertInto('evidences')
        .values([
          row(1, '旧的合同照片', '合同', 'file'),
          row(2, '旧的发票', '', 'file'),
          row(3, '哈希', '合同', 'hash'),
        ])
        .execute();

      expect((await migrator.migrateTo('0011_evidence_search')).error).toBeUndefined();
      const app = { db: pdb.db, dialect: pdb.dialect };
      const all = await listEvidence(app, Number(user.id), { limit: 20, page: 1, type: 0 });
      expect(all.count).toBe(2);
      expect(
        (await listEvidence(app, Number(user.id), { limit: 20, page: 1, type: 0 }, ['hash'])).count,
      ).toBe(1);
      expect(await listLabels(pdb.db, Number(user.id))).toEqual([{ label: '合同' }]);
      const found = await listEvidence(app, Number(user.id), {
        limit: 20,
        page: 1,
        type: 0,
        keyword: '合同照片',
      });
      expect(found.list.map((r) => r.title)).toEqual(['旧的合同照片']);

      expect((await migrator.migrateDown()).error).toBeUndefined();
      await expect(pdb.db.selectFrom('evidence_counts').selectAll().execute()).rejects.toThrow();
    });
  });
});
