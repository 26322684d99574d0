import { createHash, randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { AccountPaths, type UserInfo } from '../../contract/account.ts';
import {
  type DownloadData,
  type EvidenceListData,
  EvidenceMsg,
  EvidencePaths,
  type EvidenceView,
  type LabelItem,
  type SaveEvidenceData,
} from '../../contract/evidence.ts';
import { Msg } from '../../contract/messages.ts';
import { DEMO_MOBILE } from '../account/users.ts';
import {
  call,
  forEachDialect,
  get,
  login,
  multipart,
  post,
  registerUser,
  upload,
} from '../../tests/support/platform.ts';
import { BAOQUAN_RE, storageKeyFor } from './baoquan.ts';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** A real 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.concat([
  Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n', 'latin1'),
  randomBytes(256),
]);
const TEXT = Buffer.from('电子数据保全测试文本。\nplain text line 2\n', 'utf8');
/** Random bytes behind a fixed prefix that matches no signature; the 0xff makes it invalid UTF-8. */
const RANDOM = Buffer.concat([Buffer.from('CZRANDOM\xff', 'latin1'), randomBytes(4096)]);
const WAV = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([36, 8, 0, 0]),
  Buffer.from('WAVEfmt '),
  Buffer.from([16, 0, 0, 0, 1, 0, 1, 0, 0x44, 0xac, 0, 0, 0x88, 0x58, 1, 0, 2, 0, 16, 0]),
  Buffer.from('data'),
  Buffer.from([0, 8, 0, 0]),
  Buffer.alloc(2048),
]);
const MP4 = Buffer.concat([
  Buffer.from([0, 0, 0, 0x18]),
  Buffer.from('ftypisom'),
  Buffer.from([0, 0, 2, 0]),
  Buffer.from('isomiso2'),
  Buffer.alloc(1024),
]);

forEachDialect('evidence', (h) => {
  let demo: string;
  let other: string;
  beforeAll(async () => {
    demo = await login(h.app, DEMO_MOBILE, 'demo1234');
    await registerUser(h.app, h.dataDir, '13900000100', 'abc12345');
    other = await login(h.app, '13900000100', 'abc12345');
  });

  async function save(token: string, data: Buffer, filename: string, fields: Record<string, string> = {}) {
    const r = await upload<SaveEvidenceData>(h.app, token, data, filename, fields);
    expect(r.msg).toBe(EvidenceMsg.preserved);
    expect(r.code).toBe(200);
    return r.data;
  }
  async function view(baoquan: string, token?: string) {
    return get<EvidenceView>(h.app, EvidencePaths.view, { baoquan }, token);
  }

  it('saves a file: unguessable number, SHA-256 of the bytes, 64-hex chain hash, bytes in storage', async () => {
    const saved = await save(demo, PNG, 'pixel.png', { title: '像素图', label: '图片证据' });
    expect(saved.baoquan).toMatch(BAOQUAN_RE);
    expect(saved.filehash).toBe(sha256(PNG));
    expect(saved.chainhash).toMatch(/^[0-9a-f]{64}$/);
    expect(saved.id).toBeGreaterThan(0);
    const stored = await fsp.readFile(path.join(h.dataDir, 'evidence', storageKeyFor(saved.baoquan)));
    expect(stored.equals(PNG)).toBe(true);
    expect(await fsp.readdir(path.join(h.dataDir, 'tmp'))).toEqual([]);
  });

  it('detects the type from the bytes, not the name', async () => {
    const cases: [Buffer, string, number][] = [
      [PNG, 'not-an-image.bin', 2],
      [PDF, 'contract.dat', 1],
      [TEXT, 'notes', 1],
      [RANDOM, 'random.png', 5],
      [WAV, 'sound', 3],
      [MP4, 'clip', 4],
    ];
    for (const [data, name, type] of cases) {
      const saved = await save(demo, data, name);
      const v = await view(saved.baoquan, demo);
      expect({ name, type: v.data.fileType }).toEqual({ name, type });
      expect(v.data.fileSize).toBe(data.length);
      expect(v.data.title).toBe(name); // title defaults to the file name
    }
  });

  it('refuses a save without login, without a file, with an empty file or a forbidden title', async () => {
    expect(await upload(h.app, 'bad-token', TEXT, 'a.txt')).toMatchObject({
      code: 408,
      msg: Msg.sessionExpired,
    });
    const noFile = multipart({ title: 'x' });
    expect(
      await call(h.app, { method: 'POST', url: EvidencePaths.save, token: demo, ...noFile }),
    ).toMatchObject({
      code: 400,
      msg: EvidenceMsg.fileRequired,
    });
    expect(await upload(h.app, demo, Buffer.alloc(0), 'empty.txt')).toMatchObject({
      code: 400,
      msg: Msg.fileEmpty,
    });
    expect(await upload(h.app, demo, TEXT, 'a.txt', { title: 'a<b' })).toMatchObject({
      code: 400,
      msg: Msg.specialChars('证据名称'),
    });
    expect(await post(h.app, EvidencePaths.save, { title: 'json' }, demo)).toMatchObject({ code: 400 });
    expect(await fsp.readdir(path.join(h.dataDir, 'tmp'))).toEqual([]);
  });

  it('lists only the caller’s evidence, newest first, with type, label, keyword, time and paging filters', async () => {
    await registerUser(h.app, h.dataDir, '13900000101', 'abc12345');
    const t = await login(h.app, '13900000101', 'abc12345');
    const a = await save(t, TEXT, '合同A.txt', { title: '租赁合同', label: '合同' });
    const b = await save(t, PNG, 'photo1.png', { title: '现场照片', label: '照片' });
    const c = await save(t, PDF, 'Invoice_2024.pdf', { title: '发票', label: '合同' });
    const d = await save(t, RANDOM, 'blob.bin', { label: '' });
    // Spread the save times over four days (unix seconds) to test the range filter.
    const day = 86400;
    const base = 1_700_000_000;
    for (const [i, s] of [a, b, c, d].entries()) {
      await h.app.pdb.db
        .updateTable('evidences')
        .set({ created_at: base + i * day })
        .where('id', '=', s.id)
        .execute();
    }
    const list = (q: Record<string, unknown>) => get<EvidenceListData>(h.app, EvidencePaths.list, q, t);

    const all = await list({});
    expect(all.code).toBe(200);
    expect(all.data.count).toBe(4);
    expect(all.data.list.map((r) => r.id)).toEqual([d.id, c.id, b.id, a.id]);
    expect(all.data.list[3]).toEqual({
      id: a.id,
      baoquan: a.baoquan,
      title: '租赁合同',
      fileType: 1,
      label: '合同',
      saveTime: '2023-11-15 06:13:20', // 1_700_000_000 in Beijing time
      kind: 'file',
      deletedAt: null,
    });

    expect((await list({ type: 1 })).data.list.map((r) => r.id)).toEqual([c.id, a.id]);
    expect((await list({ type: 2 })).data.list.map((r) => r.id)).toEqual([b.id]);
    expect((await list({ type: 0, label: '合同' })).data.list.map((r) => r.id)).toEqual([c.id, a.id]);
    expect((await list({ keyword: 'invoice' })).data.list.map((r) => r.id)).toEqual([c.id]); // file name, any case
    expect((await list({ keyword: '照片' })).data.list.map((r) => r.id)).toEqual([b.id]); // title
    expect((await list({ keyword: '%' })).data.count).toBe(0); // wildcards match literally
    expect((await list({ keyword: 'blob_bin' })).data.count).toBe(0);
    const range = await list({ startTime: base + day, endTime: base + 2 * day });
    expect(range.data.list.map((r) => r.id)).toEqual([c.id, b.id]); // both ends inclusive
    const page2 = await list({ limit: 3, page: 2 });
    expect(page2.data).toMatchObject({ count: 4 });
    expect(page2.data.list.map((r) => r.id)).toEqual([a.id]);
    expect((await list({ page: 3, limit: 3 })).data.list).toEqual([]);
    expect((await list({ type: 9 })).code).toBe(400);

    const labels = await get<LabelItem[]>(h.app, EvidencePaths.labels, {}, t);
    expect(labels.data).toEqual(
      [{ label: '合同' }, { label: '照片' }].sort((x, y) => (x.label < y.label ? -1 : 1)),
    );
    expect((await get(h.app, EvidencePaths.list, {})).code).toBe(408);
  });

  it('the certificate view: owner vs anonymous vs another user, escaped HTML, 404 for unknown numbers', async () => {
    const saved = await save(demo, TEXT, '<b>&证据.txt', { title: '借条 & 收据', label: '借条' });
    const own = await view(saved.baoquan, demo);
    expect(own.code).toBe(200);
    expect(own.data).toMatchObject({
      baoquan: saved.baoquan,
      title: '借条 & 收据',
      fileName: '<b>&证据.txt',
      fileType: 1,
      fileSize: TEXT.length,
      chainhash: saved.chainhash,
      filehash: sha256(TEXT),
      isSelf: 1,
      isDownload: 1,
      isApp: 0,
      appType: '',
      configName: '',
      configCore: '',
      userData: null,
      id: saved.id,
      kind: 'file',
      deletedAt: null,
    });
    expect(own.data.leafIndex).toBeGreaterThanOrEqual(0);
    expect(own.data.saveTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const html = own.data.html;
    for (const s of [
      '电子数据保全证书',
      '保全编号',
      '证据名称',
      '文件名称',
      '文件大小',
      '文件类型',
      '保全时间',
      '保全人',
    ]) {
      expect(html).toContain(s);
    }
    expect(html).toContain('文件SHA256');
    expect(html).toContain('链上交易哈希');
    expect(html).toContain('138****8000');
    expect(html).not.toContain(DEMO_MOBILE);
    expect(html).toContain('&lt;b&gt;&amp;证据.txt');
    expect(html).toContain('借条 &amp; 收据');
    expect(html).not.toContain('<b>');
    expect(html).toContain(sha256(TEXT));
    expect(html).toContain(saved.chainhash);
    expect(html).toContain('文档');

    const anon = await view(saved.baoquan);
    expect(anon.data).toMatchObject({ isSelf: 0, id: null, isDownload: 1, html });
    const stranger = await view(saved.baoquan, other);
    expect(stranger.data).toMatchObject({ isSelf: 0, id: null });
    const expired = await view(saved.baoquan, 'no-such-token');
    expect(expired).toMatchObject({ code: 200, data: { isSelf: 0 } });

    expect(await view('BQ20240101AAAAAAAAAAAAAAAAAAAA')).toMatchObject({
      code: 404,
      msg: EvidenceMsg.evidenceNotFound,
    });
    expect(await get(h.app, EvidencePaths.view, {})).toMatchObject({ code: 400 });

    // missing bytes: isDownload 0, downloads refused with the spec's message
    await fsp.rm(path.join(h.dataDir, 'evidence', storageKeyFor(saved.baoquan)));
    expect((await view(saved.baoquan)).data.isDownload).toBe(0);
    expect(await post(h.app, EvidencePaths.ownerDownload, { dataId: saved.id }, demo)).toMatchObject({
      code: 404,
      msg: EvidenceMsg.evidenceMissing,
    });
  });

  async function fetchFile(url: string) {
    return h.app.inject({ method: 'GET', url });
  }

  it('owner download: signed URL streams the exact bytes with a RFC 5987 file name', async () => {
    // Behind the no-signature prefix: bare random bytes are now and then sniffed as MP3 (a frame-sync start).
    const data = Buffer.concat([RANDOM.subarray(0, 9), randomBytes(300_000)]);
    const saved = await save(demo, data, '合同 扫描件(1).bin');
    const r = await post<DownloadData>(h.app, EvidencePaths.ownerDownload, { dataId: saved.id }, demo);
    expect(r.code).toBe(200);
    expect(r.data.downUrl).toMatch(new RegExp(`^/api/file/${saved.baoquan}\\?exp=\\d+&sig=[0-9a-f]{64}$`));
    const res = await fetchFile(r.data.downUrl);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(data)).toBe(true);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-length']).toBe(String(data.length));
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="__ ___(1).bin"; filename*=UTF-8''${encodeURIComponent('合同 扫描件').replace('(', '%28')}%281%29.bin`,
    );
    // form-encoded body works too
    expect(
      (await post(h.app, EvidencePaths.ownerDownload, { dataId: String(saved.id) }, demo, true)).code,
    ).toBe(200);
  });

  it('owner download: another user’s evidence reads as not found; needs login', async () => {
    const saved = await save(demo, TEXT, 'mine.txt');
    expect(await post(h.app, EvidencePaths.ownerDownload, { dataId: saved.id }, other)).toMatchObject({
      code: 404,
      msg: EvidenceMsg.evidenceNotFound,
    });
    expect((await post(h.app, EvidencePaths.ownerDownload, { dataId: saved.id })).code).toBe(408);
  });

  it('extraction-code download: right code round-trips the bytes, wrong code is refused and throttled', async () => {
    const data = Buffer.from('证据原件'.repeat(1000));
    const saved = await save(demo, data, 'original.txt');
    const info = await post<UserInfo>(h.app, AccountPaths.authInfo, {}, demo);
    const code = info.data.extractCode;
    const wrong = await post(h.app, EvidencePaths.codeDownload, { code: 'WRONG123', baoquan: saved.baoquan });
    expect(wrong).toMatchObject({ status: 200, code: 400, msg: EvidenceMsg.extractCodeWrong, data: null });
    expect(await post(h.app, EvidencePaths.codeDownload, { code: '', baoquan: saved.baoquan })).toMatchObject(
      {
        code: 400,
        msg: EvidenceMsg.extractCodeRequired,
      },
    );
    // another user's code does not open the demo's evidence
    const otherCode = (await post<UserInfo>(h.app, AccountPaths.authInfo, {}, other)).data.extractCode;
    expect(
      (await post(h.app, EvidencePaths.codeDownload, { code: otherCode, baoquan: saved.baoquan })).code,
    ).toBe(400);

    const r = await post<DownloadData>(
      h.app,
      EvidencePaths.codeDownload,
      { code, baoquan: saved.baoquan },
      undefined,
      true,
    );
    expect(r.code).toBe(200);
    const res = await fetchFile(r.data.downUrl);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(data)).toBe(true);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);

    expect(
      await post(h.app, EvidencePaths.codeDownload, { code, baoquan: 'BQ20240101AAAAAAAAAAAAAAAAAAAA' }),
    ).toMatchObject({
      code: 404,
    });
    // after 10 wrong codes from one IP for one number, even the right code waits
    for (let i = 0; i < 10; i++)
      await post(h.app, EvidencePaths.codeDownload, { code: `BAD${i}`, baoquan: saved.baoquan });
    expect(await post(h.app, EvidencePaths.codeDownload, { code, baoquan: saved.baoquan })).toMatchObject({
      code: 429,
      msg: Msg.tooManyRequests,
    });
  });

  it('tampered, foreign or expired download URLs answer 403', async () => {
    const a = await save(demo, TEXT, 'a.txt');
    const b = await save(demo, PNG, 'b.png');
    const { downUrl } = (await post<DownloadData>(h.app, EvidencePaths.ownerDownload, { dataId: a.id }, demo))
      .data;
    const url = new URL(downUrl, 'http://x');
    const exp = Number(url.searchParams.get('exp'));
    const sig = url.searchParams.get('sig')!;
    const flipped = sig.slice(0, -1) + (sig.endsWith('0') ? '1' : '0');
    const bad = [
      `/api/file/${a.baoquan}?exp=${exp}&sig=${flipped}`,
      `/api/file/${a.baoquan}?exp=${exp + 1000}&sig=${sig}`,
      `/api/file/${b.baoquan}?exp=${exp}&sig=${sig}`,
      `/api/file/${a.baoquan}?exp=${exp}`,
      `/api/file/${a.baoquan}`,
      // correctly signed but already expired
      `/api/file/${a.baoquan}?exp=${exp - 10_000}&sig=${h.app.downloads.signature(a.baoquan, exp - 10_000)}`,
    ];
    for (const u of bad) {
      const res = await fetchFile(u);
      expect({ u, status: res.statusCode }).toEqual({ u, status: 403 });
      expect(res.json()).toEqual({ code: 403, msg: EvidenceMsg.downloadLinkInvalid, data: null });
    }
    expect((await fetchFile(downUrl)).statusCode).toBe(200);
  });

  it('keeps the download key at DATA_DIR/keys/download.key with mode 0600', async () => {
    const st = await fsp.stat(path.join(h.dataDir, 'keys', 'download.key'));
    expect(st.mode & 0o777).toBe(0o600);
  });
});
