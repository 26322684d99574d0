/**
 * User-data evidence on the platform, on SQLite and PostgreSQL (spec 01 §2.3, §3 `userData`; decision 006): CSV in
 * UTF-8 / BOM / GB18030 with quoted commas and newlines, XLSX, typed rows, normalised to RFC 4180 CSV; the limits and
 * their messages. Plus the pure CSV helpers.
 */
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type DownloadData,
  type EvidenceListData,
  EvidenceMsg,
  EvidencePaths,
  type LabelItem,
  PropertyRowsLimits,
  type SaveEvidenceData,
} from '../../contract/evidence.ts';
import { Msg } from '../../contract/messages.ts';
import { evidenceCalls, evidenceUsers, PNG, sha256 } from '../../tests/support/evidence.ts';
import { forEachDialect, get, post } from '../../tests/support/platform.ts';
import { csvField, cutChars } from './property.ts';

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

forEachDialect('user-data evidence', (h) => {
  let demo: string;
  beforeAll(async () => {
    ({ demo } = await evidenceUsers(h));
  });
  const { view, stored, saveProperty } = evidenceCalls(h);

  async function expectStored(r: { code: number | string; data: SaveEvidenceData }, csv: string) {
    expect(r.code).toBe(200);
    const bytes = await fsp.readFile(stored(r.data.baoquan));
    expect(bytes.toString('utf8')).toBe(csv);
    expect(bytes[0]).not.toBe(0xef); // no BOM
    expect(r.data.filehash).toBe(sha256(bytes));
    return bytes;
  }

  it('CSV in UTF-8 with quoted commas, quotes and newlines → normalised RFC 4180 CSV, summary, certificate', async () => {
    const csv = '订单号,金额,备注\n' + 'A1001,199.00,"含逗号,和""引号"""\n' + '\n' + 'A1002,58.50,"两\n行"\n';
    const r = await saveProperty(demo, { data: Buffer.from(csv), filename: '订单.csv' }, { label: '数据' });
    await expectStored(r, '订单号,金额,备注\r\nA1001,199.00,"含逗号,和""引号"""\r\nA1002,58.50,"两\n行"\r\n');
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
      EvidencePaths.saveProperty,
      { title: '清单', label: '手填', fields, rows },
      demo,
      true,
    );
    await expectStored(form, expected);
    expect((await view(form.data.baoquan)).data.title).toBe('清单');
    await expectStored(await saveProperty(demo, null, { title: '清单2', fields, rows }), expected);
    const json = await post<SaveEvidenceData>(
      h.app,
      EvidencePaths.saveProperty,
      { fields: ['商品', '数量'], rows: [['苹果', '3']] },
      demo,
    );
    await expectStored(json, '商品,数量\r\n苹果,3\r\n');
    expect((await view(json.data.baoquan)).data.title).toBe('用户数据');
    // listed under v=property only
    const props = await get<EvidenceListData>(h.app, EvidencePaths.list, { v: 'property', limit: 100 }, demo);
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
        EvidencePaths.saveProperty,
        { fields: JSON.stringify(fields), rows: JSON.stringify(rows) },
        demo,
        true,
      );
    const { maxFields, maxRows, maxCell } = PropertyRowsLimits;
    const cases: [Promise<{ code: number | string; msg: string }>, string][] = [
      [csv(''), Msg.fileEmpty],
      [csv('\n\n'), EvidenceMsg.propertyNoFields],
      [csv('a,b\n'), EvidenceMsg.propertyNoRows],
      [csv('a,b\n1,2\n3\n'), EvidenceMsg.propertyRagged(3, 1, 2)],
      [csv('a,b\n1,2,3\n'), EvidenceMsg.propertyRagged(2, 3, 2)],
      [csv('a,,c\n1,2,3\n'), EvidenceMsg.propertyFieldNameEmpty(2)],
      [csv('a,a\n1,2\n'), EvidenceMsg.propertyFieldDuplicate('a')],
      [csv('a,b\n"unclosed,2\n'), EvidenceMsg.propertyBadCsv(2)],
      [
        csv(`${Array.from({ length: maxFields + 1 }, (_, i) => `f${i}`).join(',')}\n`),
        EvidenceMsg.propertyTooManyFields(maxFields),
      ],
      [csv(`a\n${'x'.repeat(maxCell + 1)}\n`), EvidenceMsg.propertyCellTooLong(2, 1, maxCell)],
      [csv(`a\n${'1\n'.repeat(maxRows + 1)}`), EvidenceMsg.propertyTooManyRows(maxRows)],
      [saveProperty(demo, { data: PNG, filename: 'looks.csv' }), EvidenceMsg.propertyBadFileType],
      [
        saveProperty(demo, {
          data: Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(600)]),
          filename: 'old.xls',
        }),
        EvidenceMsg.propertyXlsUnsupported,
      ],
      [
        saveProperty(demo, {
          data: Buffer.concat([Buffer.from('504b0304', 'hex'), randomBytes(64)]),
          filename: 'broken.xlsx',
        }),
        EvidenceMsg.propertyBadXlsx,
      ],
      [saveProperty(demo, null, { title: '空' }), EvidenceMsg.propertyDataRequired],
      [typed(['a'], 'not-an-array'), EvidenceMsg.propertyBadJson],
      [typed([], []), EvidenceMsg.propertyNoFields],
      [typed(['a', 'b'], []), EvidenceMsg.propertyNoRows],
      [typed(['a', 'b'], [['1']]), EvidenceMsg.propertyRagged(2, 1, 2)],
      [
        post(h.app, EvidencePaths.saveProperty, { fields: '["a"', rows: '[]' }, demo, true),
        EvidenceMsg.propertyBadJson,
      ],
      [
        post(h.app, EvidencePaths.saveProperty, { fields: '["a"]', rows: '[["1"]]', label: '<' }, demo, true),
        Msg.specialChars('标签'),
      ],
    ];
    for (const [p, msg] of cases) expect(await p).toMatchObject({ code: 400, msg });
    expect((await post(h.app, EvidencePaths.saveProperty, { fields: '["a"]', rows: '[["1"]]' })).code).toBe(
      408,
    );
    const after = await h.app.pdb.db
      .selectFrom('evidences')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    expect(await fsp.readdir(path.join(h.dataDir, 'tmp'))).toEqual([]);
  });
});
