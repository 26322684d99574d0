/**
 * Bad input against the real process (the embedded default, production UI build; docs/decisions/026-bad-input-and-keys.md):
 * - a garbage, truncated or malformed multipart body on an upload call (`/api/data/save`, the seal upload) answers
 *   code 400 上传中断，请重新上传 — never 500 — and leaves no evidence, no stored file and no temp file;
 * - a text value that is not UTF-8 (a GBK title, as multipart part, file name, percent-encoded form value or raw
 *   JSON bytes) answers 400 请使用UTF-8编码提交 and stores nothing, while the same title in UTF-8 is stored intact;
 * - an unsupported content type and malformed or empty JSON answer a 400 envelope in Chinese.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvidencePaths, type EvidenceListData } from '../../contract/evidence.ts';
import { Msg } from '../../contract/messages.ts';
import { SignaturePaths } from '../../contract/signature.ts';
import { apiLogin, filesUnder, startWhole, type Envelope, type Whole } from '../support/integration.ts';

/** 中文标题 in GBK: bytes that are not UTF-8. */
const GBK_TITLE = Buffer.from([0xd6, 0xd0, 0xce, 0xc4, 0xb1, 0xea, 0xcc, 0xe2]);
const UTF8_TITLE = '中文标题';

/** An HTTP answer with its body parsed as an envelope. */
interface Answered {
  status: number;
  env: Envelope;
}

/**
 * POSTs `body` exactly as given (a Content-Length of its size) and reads the answer. Node's own client, so nothing
 * re-encodes the bytes.
 */
function postRaw(url: string, headers: Record<string, string>, body: Buffer): Promise<Answered> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      agent: false,
      headers: { ...headers, 'content-length': String(body.length) },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          resolve({ status: res.statusCode ?? 0, env: JSON.parse(text) as Envelope });
        } catch {
          reject(new Error(`not an envelope (HTTP ${res.statusCode}): ${text.slice(0, 200)}`));
        }
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A multipart body of `parts` (raw bytes allowed everywhere) with `boundary`, closed unless `closed` is false. */
function multipartBody(
  boundary: string,
  parts: { name: string; fileName?: Buffer | string; value: Buffer | string }[],
  closed = true,
): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`));
    if (p.fileName !== undefined) {
      chunks.push(Buffer.from('; filename="'), Buffer.from(p.fileName), Buffer.from('"'));
      chunks.push(Buffer.from('\r\nContent-Type: application/octet-stream'));
    }
    chunks.push(Buffer.from('\r\n\r\n'), Buffer.from(p.value), Buffer.from('\r\n'));
  }
  if (closed) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** Asserts a refusal: HTTP 200, envelope code 400 with `msg`. */
function expectRefused(a: Answered, msg: string): void {
  expect([a.status, a.env.code, a.env.msg]).toEqual([200, 400, msg]);
  expect(a.env.data).toBeNull();
}

describe.sequential('bad input on the embedded default', () => {
  let whole: Whole;
  let token: string;
  let auth: Record<string, string>;

  beforeAll(async () => {
    whole = await startWhole();
    token = await apiLogin(whole.base);
    auth = { authorization: `Bearer ${token}` };
  });
  afterAll(async () => {
    await whole?.stop();
  });

  /** The evidence of the token: file evidence (getList) and hash evidence (hashList), with their titles. */
  async function evidenceTitles(): Promise<string[]> {
    const titles: string[] = [];
    for (const p of [EvidencePaths.list, EvidencePaths.hashList]) {
      const res = await fetch(`${whole.base}${p}?pageSize=100`, { headers: auth });
      const env = (await res.json()) as Envelope<EvidenceListData>;
      expect(env.code).toBe(200);
      titles.push(...env.data.list.map((e) => e.title));
    }
    return titles.sort();
  }

  /** Nothing was stored: the same evidence as `before`, no evidence or signature file, no temp file. */
  async function expectNothingStored(before: string[]): Promise<void> {
    expect(await evidenceTitles()).toEqual(before);
    expect(filesUnder(path.join(whole.dataDir, 'tmp'))).toEqual([]);
    expect(filesUnder(path.join(whole.dataDir, 'evidence'))).toEqual([]);
    expect(filesUnder(path.join(whole.dataDir, 'signatures'))).toEqual([]);
  }

  it('answers 上传中断 to garbage, truncated and malformed multipart uploads and keeps nothing', async () => {
    const before = await evidenceTitles();
    const b = `----cz${randomBytes(8).toString('hex')}`;
    const file = randomBytes(256 * 1024);
    const bodies: Record<string, Buffer> = {
      garbage: randomBytes(64 * 1024),
      'no boundary at all': Buffer.from('title=x&label=y'),
      'cut inside the file part': multipartBody(
        b,
        [
          { name: 'title', value: 'cut' },
          { name: 'file', fileName: 'cut.bin', value: file },
        ],
        false,
      ).subarray(0, 100 * 1024),
      'no closing boundary': multipartBody(
        b,
        [
          { name: 'title', value: 'unclosed' },
          { name: 'file', fileName: 'unclosed.bin', value: file },
        ],
        false,
      ),
    };
    for (const [what, body] of Object.entries(bodies)) {
      for (const url of [EvidencePaths.save, SignaturePaths.signatureUpload]) {
        const a = await postRaw(
          `${whole.base}${url}`,
          { ...auth, 'content-type': `multipart/form-data; boundary=${b}` },
          body,
        );
        expect([what, url, a.env.msg]).toEqual([what, url, Msg.uploadInterrupted]);
        expectRefused(a, Msg.uploadInterrupted);
      }
    }
    await expectNothingStored(before);
  });

  it('refuses a GBK title or file name in a multipart upload with 请使用UTF-8编码提交', async () => {
    const before = await evidenceTitles();
    const b = `----cz${randomBytes(8).toString('hex')}`;
    const type = { ...auth, 'content-type': `multipart/form-data; boundary=${b}` };
    const file = randomBytes(4096);
    const gbkTitle = multipartBody(b, [
      { name: 'title', value: GBK_TITLE },
      { name: 'file', fileName: 'a.bin', value: file },
    ]);
    expectRefused(await postRaw(`${whole.base}${EvidencePaths.save}`, type, gbkTitle), Msg.notUtf8);
    const gbkName = multipartBody(b, [
      { name: 'title', value: 'ok' },
      { name: 'file', fileName: Buffer.concat([GBK_TITLE, Buffer.from('.bin')]), value: file },
    ]);
    expectRefused(await postRaw(`${whole.base}${EvidencePaths.save}`, type, gbkName), Msg.notUtf8);
    await expectNothingStored(before);

    // the same title in UTF-8 is stored as sent
    const utf8 = multipartBody(b, [
      { name: 'title', value: UTF8_TITLE },
      { name: 'file', fileName: '中文.bin', value: file },
    ]);
    const saved = await postRaw(`${whole.base}${EvidencePaths.save}`, type, utf8);
    expect([saved.env.code, saved.env.msg]).toEqual([200, expect.any(String)]);
    expect(await evidenceTitles()).toEqual([...before, UTF8_TITLE].sort());
  });

  it('refuses a GBK title in form-encoded and JSON bodies, stores the UTF-8 one', async () => {
    const before = await evidenceTitles();
    const hash = randomBytes(32).toString('hex');
    const form = { ...auth, 'content-type': 'application/x-www-form-urlencoded' };
    const percentGbk = [...GBK_TITLE].map((x) => `%${x.toString(16).toUpperCase()}`).join('');
    const url = `${whole.base}${EvidencePaths.saveHash}`;
    expectRefused(await postRaw(url, form, Buffer.from(`hash=${hash}&title=${percentGbk}`)), Msg.notUtf8);
    expectRefused(
      await postRaw(url, form, Buffer.concat([Buffer.from(`hash=${hash}&title=`), GBK_TITLE])),
      Msg.notUtf8,
    );
    const json = { ...auth, 'content-type': 'application/json' };
    const rawJson = Buffer.concat([Buffer.from(`{"hash":"${hash}","title":"`), GBK_TITLE, Buffer.from('"}')]);
    expectRefused(await postRaw(url, json, rawJson), Msg.notUtf8);
    expect(await evidenceTitles()).toEqual(before);

    const ok = await postRaw(
      url,
      form,
      Buffer.from(new URLSearchParams({ hash, title: UTF8_TITLE, label: '标签' }).toString()),
    );
    expect(ok.env.code).toBe(200);
    const okJson = await postRaw(
      url,
      json,
      Buffer.from(JSON.stringify({ hash: randomBytes(32).toString('hex'), title: `${UTF8_TITLE}2` })),
    );
    expect(okJson.env.code).toBe(200);
    expect(await evidenceTitles()).toEqual([...before, UTF8_TITLE, `${UTF8_TITLE}2`].sort());
  });

  it('answers unsupported content types and malformed JSON with a Chinese 400 envelope', async () => {
    const login = `${whole.base}/api/login`;
    const cases: [Record<string, string>, Buffer, string][] = [
      [{ 'content-type': 'text/xml' }, Buffer.from('<login/>'), Msg.unsupportedMediaType],
      [{ 'content-type': 'application/octet-stream' }, randomBytes(64), Msg.unsupportedMediaType],
      [{ 'content-type': 'application/json' }, Buffer.from('{"mobile":'), Msg.invalidJson],
      [{ 'content-type': 'application/json' }, Buffer.from(''), Msg.invalidJson],
      [{ 'content-type': 'application/json' }, Buffer.from('{"__proto__":{"x":1}}'), Msg.invalidJson],
    ];
    for (const [headers, body, msg] of cases) {
      const a = await postRaw(login, headers, body);
      expect([headers['content-type'], a.env.msg]).toEqual([headers['content-type'], msg]);
      expectRefused(a, msg);
    }
    // an upload call given JSON instead of multipart
    const notMultipart = await postRaw(
      `${whole.base}${EvidencePaths.save}`,
      { ...auth, 'content-type': 'application/json' },
      Buffer.from('{"title":"x"}'),
    );
    expect(notMultipart.env.code).toBe(400);
    expect(notMultipart.env.msg).toMatch(/[\u4e00-\u9fff]/);
    // the process is unharmed
    const health = await fetch(`${whole.base}/healthz`);
    expect(health.status).toBe(200);
  });
});
