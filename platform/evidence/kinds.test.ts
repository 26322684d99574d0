/**
 * Issue 3 evidence kinds on both dialects: hash evidence, user-data evidence (CSV in UTF-8 / BOM / GB18030, quoted
 * commas and newlines, XLSX, typed rows, limits and messages), labels, deletion (bytes gone, row and ledger entry
 * kept, certificate says so, downloads refused, start-up sweep), package and batch signatures.
 */
import { createHash, randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AccountPaths,
  EvidenceKindPaths,
  EvidencePaths,
  Msg,
  PropertyRowsLimits,
  type BatchDownloadData,
  type DelDataData,
  type DownloadData,
  type EvidenceListData,
  type EvidenceView,
  type LabelItem,
  type PackageAuthorization,
  type SaveEvidenceData,
  type UserInfo,
} from '../../contract/index.ts';
import { DEMO_MOBILE } from '../account/users.ts';
import { call, forEachDialect, get, login, multipart, post, registerUser, upload } from '../test-support.ts';
import { storageKeyFor } from './baoquan.ts';
import { HASH_ONLY_NOTICE } from './certificate.ts';
import { sweepDeletedData } from './lifecycle.ts';
import { csvField, cutChars } from './property.ts';

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
/** "姓名,城市,备注\r\n张三,北京,"含,逗号"\r\n李四,上海,普通\r\n" in GB18030 (as Excel on Chinese Windows saves it). */
const GB_CSV = Buffer.from(
  'd0d5c3fb2cb3c7cad02cb1b8d7a20d0ad5c5c8fd2cb1b1bea92c22baac2cb6babac5220d0ac0eecbc42cc9cfbaa32cc6d5cda80d0a',
  'hex',
);
const GB_EXPECTED = '姓名,城市,备注\r\n张三,北京,"含,逗号"\r\n李四,上海,普通\r\n';

describe('property helpers', () => {
  it('quotes CSV fields per RFC 4180 and cuts by characters', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(cutChars('一二三四五六七八九十十一', 10)).toBe('一二三四五六七八九十');
    expect(cutChars('😀'.repeat(12), 10)).toBe('😀'.repeat(10));
  });
});

forEachDialect('evidence kinds', (h) => {
  let demo: string;
  let other: string;
  beforeAll(async () => {
    demo = await login(h.app, DEMO_MOBILE, 'demo1234');
    await registerUser(h.app, h.dataDir, '13900000300', 'abc12345');
    other = await login(h.app, '13900000300', 'abc12345');
  });

  const view = (baoquan: string, token?: string) =>
    get<EvidenceView>(h.app, EvidencePaths.view, { baoquan }, token);
  const stored = (baoquan: string) => path.join(h.dataDir, 'evidence', storageKeyFor(baoquan));
  const exists = (p: string) =>
    fsp.stat(p).then(
      () => true,
      () => false,
    );
  async function saveFile(token: string, data: Buffer, name: string, fields: Record<string, string> = {}) {
    const r = await upload<SaveEvidenceData>(h.app, token, data, name, fields);
    expect(r.code).toBe(200);
    return r.data;
  }
  async function saveHash(token: string, body: Record<string, unknown>) {
    return post<SaveEvidenceData>(h.app, EvidenceKindPaths.saveHash, body, token);
  }
  function saveProperty(
    token: string,
    file: { data: Buffer; filename: string } | null,
    fields: Record<string, string> = {},
  ) {
    const body = multipart(fields, file ?? undefined);
    return call<SaveEvidenceData>(h.app, {
      method: 'POST',
      url: EvidenceKindPaths.saveProperty,
      token,
      ...body,
    });
  }

  describe('hash evidence', () => {
    it('records the submitted hash (lower case), no bytes, type from the name, certificate says so', async () => {
      const hash = sha256('never uploaded').toUpperCase();
      const r = await saveHash(demo, {
        hash,
        title: '合同原件哈希',
        label: '哈希标签',
        fileName: '合同.PDF',
        fileSize: 123456,
      });
      expect(r).toMatchObject({ code: 200, msg: Msg.evidenceSaved });
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
        EvidenceKindPaths.saveHash,
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
      const h2 = (
        await saveHash(t, { hash: sha256('2'), title: 'h2 合同', label: '哈希B', fileName: 'x.mp4' })
      ).data;
      const files = await get<EvidenceListData>(h.app, EvidencePaths.list, {}, t);
      expect(files.data.list.map((r) => r.id)).toEqual([f.id]);
      const hashes = await get<EvidenceListData>(h.app, EvidenceKindPaths.hashList, {}, t);
      expect(hashes.data.count).toBe(2);
      expect(hashes.data.list.map((r) => r.id).sort()).toEqual([h1.id, h2.id].sort());
      expect(hashes.data.list[0]).toMatchObject({ kind: 'hash', deletedAt: null });
      const filtered = await get<EvidenceListData>(h.app, EvidenceKindPaths.hashList, { type: 4 }, t);
      expect(filtered.data.list.map((r) => r.id)).toEqual([h2.id]);
      const kw = await get<EvidenceListData>(h.app, EvidenceKindPaths.hashList, { keyword: '合同' }, t);
      expect(kw.data.list.map((r) => r.id)).toEqual([h2.id]);
      expect((await get<LabelItem[]>(h.app, EvidenceKindPaths.hashLabels, {}, t)).data).toEqual([
        { label: '哈希A' },
        { label: '哈希B' },
      ]);
      expect((await get<LabelItem[]>(h.app, EvidencePaths.labels, {}, t)).data).toEqual([
        { label: '文件标签' },
      ]);
      expect((await get(h.app, EvidenceKindPaths.hashList, {})).code).toBe(408);
    });
  });

  describe('user-data evidence', () => {
    async function expectStored(r: { code: number | string; data: SaveEvidenceData }, csv: string) {
      expect(r.code).toBe(200);
      const bytes = await fsp.readFile(stored(r.data.baoquan));
      expect(bytes.toString('utf8')).toBe(csv);
      expect(bytes[0]).not.toBe(0xef); // no BOM
      expect(r.data.filehash).toBe(sha256(bytes));
      return bytes;
    }

    it('CSV in UTF-8 with quoted commas, quotes and newlines → normalised RFC 4180 CSV, summary, certificate', async () => {
      const csv =
        '订单号,金额,备注\n' + 'A1001,199.00,"含逗号,和""引号"""\n' + '\n' + 'A1002,58.50,"两\n行"\n';
      const r = await saveProperty(demo, { data: Buffer.from(csv), filename: '订单.csv' }, { label: '数据' });
      await expectStored(
        r,
        '订单号,金额,备注\r\nA1001,199.00,"含逗号,和""引号"""\r\nA1002,58.50,"两\n行"\r\n',
      );
      const v = await view(r.data.baoquan, demo);
      expect(v.data).toMatchObject({
        kind: 'property',
        title: '订单',
        fileName: 'data.csv',
        fileType: 1,
        isDownload: 1,
        userData: {
          line: 2,
          fields: [
            { fieldName: '订单号', exampleValue: 'A1001' },
            { fieldName: '金额', exampleValue: '199.00' },
            { fieldName: '备注', exampleValue: '含逗号,和"引号"' },
          ],
        },
      });
      expect(v.data.html).toContain('数据行数');
      expect(v.data.html).toContain('2 行');
      expect(v.data.html).toContain('订单号');
      expect(v.data.html).toContain('含逗号,和&quot;引号&quot;');
      const rec = await h.app.pdb.db
        .selectFrom('ledger_entries')
        .select('record_json')
        .where('evidence_id', '=', r.data.id)
        .executeTakeFirstOrThrow();
      expect(JSON.parse(rec.record_json)).toMatchObject({ kind: 'property', sha256: r.data.filehash });
      // the original download is data.csv
      const dl = await post<DownloadData>(h.app, EvidencePaths.ownerDownload, { dataId: r.data.id }, demo);
      const res = await h.app.inject({ method: 'GET', url: dl.data.downUrl });
      expect(res.headers['content-disposition']).toContain('filename="data.csv"');
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    });

    it('CSV with a UTF-8 BOM, and GB18030 CSV from Excel, give the same normalised UTF-8', async () => {
      const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(GB_EXPECTED)]);
      await expectStored(await saveProperty(demo, { data: bom, filename: 'bom.csv' }), GB_EXPECTED);
      const gb = await saveProperty(demo, { data: GB_CSV, filename: 'gbk.csv' });
      await expectStored(gb, GB_EXPECTED);
      expect((await view(gb.data.baoquan)).data.userData?.fields[0]).toEqual({
        fieldName: '姓名',
        exampleValue: '张三',
      });
    });

    it('example values are cut to 10 characters', async () => {
      const long = '一二三四五六七八九十十一十二';
      const r = await saveProperty(demo, { data: Buffer.from(`说明\n${long}\n`), filename: 'a.csv' });
      expect((await view(r.data.baoquan)).data.userData).toEqual({
        line: 1,
        fields: [{ fieldName: '说明', exampleValue: '一二三四五六七八九十' }],
      });
    });

    it('XLSX (first sheet; numbers, dates, formulas, rich text) built with exceljs', async () => {
      const wb = new ExcelJS.Workbook();
      const ws = wb.addWorksheet('数据');
      ws.addRow(['姓名', '金额', '日期', '合计', '说明']);
      ws.addRow(['张三', 12.5, new Date(Date.UTC(2024, 0, 2)), { formula: 'B2*2', result: 25 }, '含,逗号']);
      ws.addRow([
        '李四',
        3,
        new Date(Date.UTC(2024, 0, 3, 8, 30, 0)),
        { formula: 'B3*2', result: 6 },
        { richText: [{ text: '富' }, { text: '文本' }] },
      ]);
      ws.addRow([]);
      ws.addRow(['王五']); // short row: trailing cells empty
      ws.getColumn(3).numFmt = 'yyyy-mm-dd';
      wb.addWorksheet('第二页').addRow(['不应读取']);
      const data = Buffer.from(await wb.xlsx.writeBuffer());
      const r = await saveProperty(demo, { data, filename: '名单.xlsx' }, { title: 'Excel 数据' });
      await expectStored(
        r,
        '姓名,金额,日期,合计,说明\r\n' +
          '张三,12.5,2024-01-02,25,"含,逗号"\r\n' +
          '李四,3,2024-01-03 08:30:00,6,富文本\r\n' +
          '王五,,,,\r\n',
      );
      expect((await view(r.data.baoquan)).data.userData?.line).toBe(3);
    });

    it('fields and rows typed on the page: form-encoded, multipart and JSON', async () => {
      const fields = JSON.stringify(['商品', '数量']);
      const rows = JSON.stringify([
        ['苹果', '3'],
        ['香蕉, 进口', 5],
      ]);
      const expected = '商品,数量\r\n苹果,3\r\n"香蕉, 进口",5\r\n';
      const form = await post<SaveEvidenceData>(
        h.app,
        EvidenceKindPaths.saveProperty,
        { title: '清单', label: '手填', fields, rows },
        demo,
        true,
      );
      await expectStored(form, expected);
      expect((await view(form.data.baoquan)).data.title).toBe('清单');
      await expectStored(await saveProperty(demo, null, { title: '清单2', fields, rows }), expected);
      const json = await post<SaveEvidenceData>(
        h.app,
        EvidenceKindPaths.saveProperty,
        { fields: ['商品', '数量'], rows: [['苹果', '3']] },
        demo,
      );
      await expectStored(json, '商品,数量\r\n苹果,3\r\n');
      expect((await view(json.data.baoquan)).data.title).toBe('用户数据');
      // listed under v=property only
      const props = await get<EvidenceListData>(
        h.app,
        EvidencePaths.list,
        { v: 'property', limit: 100 },
        demo,
      );
      expect(props.data.list.map((x) => x.id)).toContain(json.data.id);
      expect(props.data.list.every((x) => x.kind === 'property')).toBe(true);
      const files = await get<EvidenceListData>(h.app, EvidencePaths.list, { limit: 100 }, demo);
      expect(files.data.list.map((x) => x.id)).not.toContain(json.data.id);
      const labels = await get<LabelItem[]>(h.app, EvidencePaths.labels, { v: 'property' }, demo);
      expect(labels.data).toContainEqual({ label: '手填' });
    });

    it('refuses bad input with clear messages and leaves nothing behind', async () => {
      const before = await h.app.pdb.db
        .selectFrom('evidences')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const csv = (text: string, filename = 'a.csv') =>
        saveProperty(demo, { data: Buffer.from(text), filename });
      const typed = (fields: unknown, rows: unknown) =>
        post(
          h.app,
          EvidenceKindPaths.saveProperty,
          { fields: JSON.stringify(fields), rows: JSON.stringify(rows) },
          demo,
          true,
        );
      const { maxFields, maxRows, maxCell } = PropertyRowsLimits;
      const cases: [Promise<{ code: number | string; msg: string }>, string][] = [
        [csv(''), Msg.fileEmpty],
        [csv('\n\n'), Msg.propertyNoFields],
        [csv('a,b\n'), Msg.propertyNoRows],
        [csv('a,b\n1,2\n3\n'), Msg.propertyRagged(3, 1, 2)],
        [csv('a,b\n1,2,3\n'), Msg.propertyRagged(2, 3, 2)],
        [csv('a,,c\n1,2,3\n'), Msg.propertyFieldNameEmpty(2)],
        [csv('a,a\n1,2\n'), Msg.propertyFieldDuplicate('a')],
        [csv('a,b\n"unclosed,2\n'), Msg.propertyBadCsv(2)],
        [
          csv(`${Array.from({ length: maxFields + 1 }, (_, i) => `f${i}`).join(',')}\n`),
          Msg.propertyTooManyFields(maxFields),
        ],
        [csv(`a\n${'x'.repeat(maxCell + 1)}\n`), Msg.propertyCellTooLong(2, 1, maxCell)],
        [csv(`a\n${'1\n'.repeat(maxRows + 1)}`), Msg.propertyTooManyRows(maxRows)],
        [saveProperty(demo, { data: PNG, filename: 'looks.csv' }), Msg.propertyBadFileType],
        [
          saveProperty(demo, {
            data: Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(600)]),
            filename: 'old.xls',
          }),
          Msg.propertyXlsUnsupported,
        ],
        [
          saveProperty(demo, {
            data: Buffer.concat([Buffer.from('504b0304', 'hex'), randomBytes(64)]),
            filename: 'broken.xlsx',
          }),
          Msg.propertyBadXlsx,
        ],
        [saveProperty(demo, null, { title: '空' }), Msg.propertyDataRequired],
        [typed(['a'], 'not-an-array'), Msg.propertyBadJson],
        [typed([], []), Msg.propertyNoFields],
        [typed(['a', 'b'], []), Msg.propertyNoRows],
        [typed(['a', 'b'], [['1']]), Msg.propertyRagged(2, 1, 2)],
        [
          post(h.app, EvidenceKindPaths.saveProperty, { fields: '["a"', rows: '[]' }, demo, true),
          Msg.propertyBadJson,
        ],
        [
          post(
            h.app,
            EvidenceKindPaths.saveProperty,
            { fields: '["a"]', rows: '[["1"]]', label: '<' },
            demo,
            true,
          ),
          Msg.specialChars('标签'),
        ],
      ];
      for (const [p, msg] of cases) expect(await p).toMatchObject({ code: 400, msg });
      expect(
        (await post(h.app, EvidenceKindPaths.saveProperty, { fields: '["a"]', rows: '[["1"]]' })).code,
      ).toBe(408);
      const after = await h.app.pdb.db
        .selectFrom('evidences')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
      expect(await fsp.readdir(path.join(h.dataDir, 'tmp'))).toEqual([]);
    });
  });

  describe('labels and deletion', () => {
    it('labelSave changes and clears the label of one’s own evidence only', async () => {
      const s = await saveFile(demo, PNG, 'l.png', { label: '旧' });
      const r = await post(h.app, EvidenceKindPaths.labelSave, { dataId: s.id, label: '新标签' }, demo, true);
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
      expect(
        await post(h.app, EvidenceKindPaths.labelSave, { dataId: s.id, label: 'x' }, other),
      ).toMatchObject({
        code: 404,
        msg: Msg.evidenceNotFound,
      });
      expect(
        await post(h.app, EvidenceKindPaths.labelSave, { dataId: s.id, label: '{bad}' }, demo),
      ).toMatchObject({ code: 400, msg: Msg.specialChars('标签') });
      expect(
        await post(h.app, EvidenceKindPaths.labelSave, { dataId: s.id, label: '长'.repeat(31) }, demo),
      ).toMatchObject({ code: 400, msg: Msg.tooLong('标签', 30) });
      expect(await labelOf()).toBe('新标签');
      expect((await post(h.app, EvidenceKindPaths.labelSave, { dataId: s.id, label: '' }, demo)).code).toBe(
        200,
      );
      expect(await labelOf()).toBe('');
      expect((await post(h.app, EvidenceKindPaths.labelSave, { dataId: s.id, label: 'x' })).code).toBe(408);
    });

    it('delData: bytes gone, row and ledger entry stay, certificate says so, downloads refused', async () => {
      const data = randomBytes(2048);
      const s = await saveFile(demo, data, 'to-delete.bin', { label: '删除' });
      const before = await post<DownloadData>(h.app, EvidencePaths.ownerDownload, { dataId: s.id }, demo);
      expect(await exists(stored(s.baoquan))).toBe(true);

      expect(await get(h.app, EvidenceKindPaths.delData, { dataId: s.id }, other)).toMatchObject({
        code: 404,
        msg: Msg.evidenceNotFound,
      });
      expect(await exists(stored(s.baoquan))).toBe(true);

      const del = await get<DelDataData>(h.app, EvidenceKindPaths.delData, { dataId: s.id }, demo);
      expect(del).toMatchObject({ code: 200, msg: Msg.evidenceDataDeleted, data: { id: s.id } });
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
      const again = await post<DelDataData>(h.app, EvidenceKindPaths.delData, { dataId: s.id }, demo, true);
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
        msg: Msg.evidenceDeleted,
      });
      const code = (await post<UserInfo>(h.app, AccountPaths.authInfo, {}, demo)).data.extractCode;
      expect(await post(h.app, EvidencePaths.codeDownload, { code, baoquan: s.baoquan })).toMatchObject({
        code: 404,
        msg: Msg.evidenceDeleted,
      });
      const file = await h.app.inject({ method: 'GET', url: before.data.downUrl });
      expect(file.statusCode).toBe(404);
      const pkg = new URL(before.data.packageUrl, 'http://x');
      const auth = await h.app.inject({
        method: 'GET',
        url: `/api/file/${s.baoquan}/authorize?exp=${pkg.searchParams.get('exp')}&sig=${pkg.searchParams.get('sig')}&purpose=package`,
      });
      expect(auth.statusCode).toBe(403);
      expect(auth.json()).toMatchObject({ code: 403, msg: Msg.evidenceDeleted });
      expect(
        await post(h.app, EvidenceKindPaths.downloadBatch, { dataIdStr: String(s.id) }, demo),
      ).toMatchObject({ code: 400, msg: Msg.noDownloadFiles });
      expect((await get(h.app, EvidenceKindPaths.delData, { dataId: s.id })).code).toBe(408);
      expect((await get(h.app, EvidenceKindPaths.delData, { dataId: 'x' }, demo)).code).toBe(400);
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

  it('app-captured evidence: isApp, device fields and the certificate rows (no creation call yet)', async () => {
    const s = await saveFile(demo, PNG, 'screen.png');
    await h.app.pdb.db
      .updateTable('evidences')
      .set({
        kind: 'app',
        app_type: '屏幕录制',
        config_name: '张三的手机',
        config_model_name: 'Mate 60',
        config_version: 'HarmonyOS 4.0',
        config_processor: 'Kirin 9000S',
        config_core: 'Linux 5.10',
      })
      .where('id', '=', s.id)
      .execute();
    const v = await view(s.baoquan);
    expect(v.data).toMatchObject({
      kind: 'app',
      isApp: 1,
      appType: '屏幕录制',
      configName: '张三的手机',
      configModelName: 'Mate 60',
      configVersion: 'HarmonyOS 4.0',
      configProcessor: 'Kirin 9000S',
      configCore: 'Linux 5.10',
      isDownload: 1,
    });
    for (const text of [
      '取证类型',
      '屏幕录制',
      '设备名称',
      '设备型号',
      'Mate 60',
      '系统版本',
      '处理器',
      '内核',
    ]) {
      expect(v.data.html).toContain(text);
    }
    // listed with the files
    const list = await get<EvidenceListData>(h.app, EvidencePaths.list, { limit: 100 }, demo);
    expect(list.data.list.find((x) => x.id === s.id)?.kind).toBe('app');
  });

  describe('package and batch downloads', () => {
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
        expect(res.json()).toMatchObject({ code: 403, msg: Msg.downloadLinkInvalid });
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
      await get(h.app, EvidenceKindPaths.delData, { dataId: gone.id }, demo);
      const foreign = await saveFile(other, PNG, 'theirs.png');
      const r = await post<BatchDownloadData>(
        h.app,
        EvidenceKindPaths.downloadBatch,
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

      expect(await post(h.app, EvidenceKindPaths.downloadBatch, { dataIdStr: '' }, demo)).toMatchObject({
        code: 400,
        msg: Msg.selectEvidenceToDownload,
      });
      expect(await post(h.app, EvidenceKindPaths.downloadBatch, {}, demo)).toMatchObject({
        code: 400,
        msg: Msg.selectEvidenceToDownload,
      });
      expect(
        await post(h.app, EvidenceKindPaths.downloadBatch, { dataIdStr: `${foreign.id},${gone.id}` }, demo),
      ).toMatchObject({ code: 400, msg: Msg.noDownloadFiles });
      const many = Array.from({ length: 101 }, (_, i) => i + 1).join(',');
      expect(await post(h.app, EvidenceKindPaths.downloadBatch, { dataIdStr: many }, demo)).toMatchObject({
        code: 400,
        msg: Msg.batchTooMany(100),
      });
      expect((await post(h.app, EvidenceKindPaths.downloadBatch, { dataIdStr: String(a.id) })).code).toBe(
        408,
      );
    });
  });
});
