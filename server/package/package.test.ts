/**
 * The package routes against a fake upstream on loopback that signs like the platform (authorize, ledger proof,
 * original bytes), with a stub certificate: ZIP layout, store vs deflate, signatures, the batch rules, streaming of a
 * large original in constant memory, and a client that goes away. The whole-process run is package-whole.test.ts.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProofBundle } from '../../contract/ledger.ts';
import { BATCH_MAX_ITEMS, beijingStamp, packagePlugin, parseBatchItems } from './plugin.ts';
import { readZip, saveBody } from '../../tests/support/zip.ts';
import { safeEntryName } from './zip.ts';
import { testNumber } from '../../tests/support/environment.ts';

const MiB = 1024 * 1024;
/** Size of the large original (PACKAGE_BIG_BYTES=2147483648 runs the 2 GiB case of the issue). */
const BIG_BYTES = testNumber('PACKAGE_BIG_BYTES', 256 * MiB);
const KEY = randomBytes(32);
const now = () => Math.floor(Date.now() / 1000);
const packageSig = (b: string, exp: number) =>
  createHmac('sha256', KEY).update(`package|${b}|${exp}`).digest('hex');
const fileSig = (b: string, exp: number) =>
  createHmac('sha256', KEY).update(`download|${b}|${exp}`).digest('hex');

interface FakeEvidence {
  kind: 'file' | 'hash' | 'property';
  fileName: string | null;
  /** Small originals; `big` generates BIG_BYTES instead. */
  bytes?: Buffer;
  big?: boolean;
  deleted?: boolean;
}

const BLOCK = randomBytes(MiB);
/** The big original: BLOCK repeated, cut at BIG_BYTES; generated lazily with backpressure. */
function bigStream(): Readable {
  return Readable.from(
    (function* () {
      for (let sent = 0; sent < BIG_BYTES; sent += MiB)
        yield BLOCK.subarray(0, Math.min(MiB, BIG_BYTES - sent));
    })(),
  );
}
function bigSha256(): string {
  const h = createHash('sha256');
  for (let sent = 0; sent < BIG_BYTES; sent += MiB)
    h.update(BLOCK.subarray(0, Math.min(MiB, BIG_BYTES - sent)));
  return h.digest('hex');
}
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

const EVIDENCE: Record<string, FakeEvidence> = {
  BQ20260101AAAAAAAAAAAAAAAAAAAA: {
    kind: 'file',
    fileName: '租赁合同 扫描件.pdf',
    bytes: randomBytes(300_000),
  },
  BQ20260101BBBBBBBBBBBBBBBBBBBB: { kind: 'hash', fileName: null },
  BQ20260101CCCCCCCCCCCCCCCCCCCC: { kind: 'file', fileName: 'video.mp4', big: true },
  BQ20260101DDDDDDDDDDDDDDDDDDDD: {
    kind: 'property',
    fileName: 'data.csv',
    bytes: Buffer.from('姓名,金额\n张三,100\n'),
  },
  BQ20260101EEEEEEEEEEEEEEEEEEEE: {
    kind: 'file',
    fileName: 'photo.jpg',
    bytes: randomBytes(5000),
    deleted: true,
  },
};
const [FILE, HASH, BIG, PROPERTY, DELETED] = Object.keys(EVIDENCE) as [
  string,
  string,
  string,
  string,
  string,
];

function fakeProof(baoquan: string): ProofBundle {
  const ev = EVIDENCE[baoquan]!;
  return {
    version: 1,
    baoquan,
    fileName: ev.fileName,
    leafIndex: 3,
    leafHash: sha256(Buffer.from(baoquan)),
    record: { baoquan, sha256: 'x', size: 1, fileType: 1, ownerRef: 'o', savedAt: 1, kind: ev.kind },
    recordCanonical: '{}',
    inclusionProof: [],
    sth: { treeSize: 4, rootHash: 'r', timestamp: 1, keyId: 'k', signature: 's' },
    publicKey: { algorithm: 'Ed25519', keyId: 'k', pem: 'PEM' },
  };
}

/** What the fake upstream saw. */
const seen = { authorize: 0, originalsClosedEarly: 0 };

async function startFakeUpstream(): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify({ logger: false, forceCloseConnections: true });
  app.get<{ Params: { baoquan: string }; Querystring: Record<string, string> }>(
    '/api/file/:baoquan/authorize',
    async (request, reply) => {
      seen.authorize++;
      const { baoquan } = request.params;
      const { exp, sig, purpose } = request.query;
      const ev = EVIDENCE[baoquan];
      if (!ev) return { code: 404, msg: '证据不存在', data: null };
      if (purpose !== 'package' || !exp || sig !== packageSig(baoquan, Number(exp)) || Number(exp) < now()) {
        return reply.code(403).send({ code: 403, msg: '下载链接无效或已过期', data: null });
      }
      const fexp = now() + 600;
      const held = !ev.deleted && (ev.bytes || ev.big);
      return {
        code: 200,
        msg: 'ok',
        data: {
          baoquan,
          fileName: ev.fileName,
          kind: ev.kind,
          downUrl: held ? `/api/file/${baoquan}?exp=${fexp}&sig=${fileSig(baoquan, fexp)}` : null,
        },
      };
    },
  );
  app.get<{ Params: { baoquan: string }; Querystring: Record<string, string> }>(
    '/api/file/:baoquan',
    async (request, reply) => {
      const { baoquan } = request.params;
      const { exp, sig } = request.query;
      const ev = EVIDENCE[baoquan];
      if (!ev || sig !== fileSig(baoquan, Number(exp))) return reply.code(403).send({ code: 403 });
      const body = ev.big ? bigStream() : Readable.from([ev.bytes!]);
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) seen.originalsClosedEarly++;
      });
      return reply
        .type('application/octet-stream')
        .header('content-length', String(ev.big ? BIG_BYTES : ev.bytes!.length))
        .send(body);
    },
  );
  app.get<{ Querystring: { baoquan: string } }>('/api/ledger/proof', async (request) => {
    const ev = EVIDENCE[request.query.baoquan];
    return ev
      ? { code: 200, msg: 'ok', data: fakeProof(request.query.baoquan) }
      : { code: 404, msg: 'no', data: null };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

const signed = (b: string, exp = now() + 600) => ({ exp, sig: packageSig(b, exp) });
const packagePath = (b: string, s = signed(b)) => `/attestation/${b}/package.zip?exp=${s.exp}&sig=${s.sig}`;
const itemRef = (b: string, s = signed(b)) => `${b}.${s.exp}.${s.sig}`;

describe('evidence packages (fake upstream)', () => {
  let upstream: { app: FastifyInstance; url: string };
  let gateway: FastifyInstance;
  let base: string;
  let dir: string;
  const certificateOf = (b: string) => Buffer.from(`%PDF-1.4 certificate of ${b}\n${'x'.repeat(2000)}`);

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cz-package-'));
    upstream = await startFakeUpstream();
    // Node's fetch opens a spare connection while a body streams; a test must not wait for it on close.
    gateway = Fastify({ logger: false, forceCloseConnections: true });
    await gateway.register(packagePlugin, {
      upstreamUrl: upstream.url,
      certificate: async (b) => {
        const file = path.join(dir, `${b}.pdf`);
        writeFileSync(file, certificateOf(b));
        return { file };
      },
    });
    await gateway.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream?.app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** GETs `p` and, when it is a ZIP, saves and reads it. */
  async function download(p: string) {
    const res = await fetch(`${base}${p}`, { headers: { 'accept-encoding': 'gzip, br' } });
    if (res.status !== 200) return { res, entries: null, text: await res.text() };
    const file = path.join(dir, `${randomBytes(6).toString('hex')}.zip`);
    await saveBody(res, file);
    const entries = await readZip(file);
    rmSync(file);
    return { res, entries, text: null };
  }

  it('packs proof.json, certificate.pdf and the original (stored, same SHA-256) into one ZIP', async () => {
    const { res, entries } = await download(packagePath(FILE));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="${FILE}.zip"; filename*=UTF-8''${FILE}.zip`,
    );
    expect(entries!.map((e) => e.name)).toEqual([
      'proof.json',
      'certificate.pdf',
      'evidence/租赁合同 扫描件.pdf',
    ]);
    const [proof, pdf, original] = entries!;
    expect(JSON.parse(proof!.bytes!.toString('utf8'))).toEqual(fakeProof(FILE));
    expect(proof!.bytes!.toString('utf8')).toContain('\n  "baoquan"'); // pretty-printed
    expect(proof!.compressionMethod).toBe(8);
    expect(pdf!.bytes!.equals(certificateOf(FILE))).toBe(true);
    expect(pdf!.compressionMethod).toBe(8);
    expect(original!.sha256).toBe(sha256(EVIDENCE[FILE]!.bytes!));
    expect(original!.compressionMethod).toBe(0);
  });

  it('has no evidence/ entry for hash evidence or deleted data; deflates user data (CSV)', async () => {
    const hash = await download(packagePath(HASH));
    expect(hash.entries!.map((e) => e.name)).toEqual(['proof.json', 'certificate.pdf']);
    const deleted = await download(packagePath(DELETED));
    expect(deleted.entries!.map((e) => e.name)).toEqual(['proof.json', 'certificate.pdf']);
    const property = await download(packagePath(PROPERTY));
    const csv = property.entries!.find((e) => e.name === 'evidence/data.csv')!;
    expect(csv.bytes!.equals(EVIDENCE[PROPERTY]!.bytes!)).toBe(true);
    expect(csv.compressionMethod).toBe(8);
  });

  it('answers 403 下载链接无效或已过期 to a tampered, expired or incomplete package URL', async () => {
    const good = signed(FILE);
    const flipped = good.sig.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    const expired = signed(FILE, now() - 10);
    for (const p of [
      `/attestation/${FILE}/package.zip?exp=${good.exp}&sig=${flipped}`,
      `/attestation/${FILE}/package.zip?exp=${good.exp + 1}&sig=${good.sig}`,
      `/attestation/${HASH}/package.zip?exp=${good.exp}&sig=${good.sig}`,
      `/attestation/${FILE}/package.zip?exp=${expired.exp}&sig=${expired.sig}`,
      `/attestation/${FILE}/package.zip?exp=${good.exp}`,
      `/attestation/${FILE}/package.zip`,
    ]) {
      const { res, text } = await download(p);
      expect(res.status, p).toBe(403);
      expect(text).toBe('下载链接无效或已过期');
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    }
    const unknown = await download(packagePath('BQ20260101ZZZZZZZZZZZZZZZZZZZZ'));
    expect(unknown.res.status).toBe(404);
  });

  it('batch: one ZIP with a folder per evidence, every original intact, a dated Chinese file name', async () => {
    const items = [FILE, HASH, PROPERTY, FILE].map((b) => itemRef(b)).join(',');
    const { res, entries } = await download(`/attestation-list/download/batch.zip?items=${items}`);
    expect(res.status).toBe(200);
    const disposition = res.headers.get('content-disposition')!;
    expect(disposition).toMatch(/^attachment; filename="evidence-batch-\d{12}\.zip"; filename\*=UTF-8''/);
    const encoded = /filename\*=UTF-8''(.+)$/.exec(disposition)![1]!;
    expect(decodeURIComponent(encoded)).toMatch(/^证据批量下载-\d{12}\.zip$/);
    expect(entries!.map((e) => e.name)).toEqual([
      `${FILE}/proof.json`,
      `${FILE}/certificate.pdf`,
      `${FILE}/evidence/租赁合同 扫描件.pdf`,
      `${HASH}/proof.json`,
      `${HASH}/certificate.pdf`,
      `${PROPERTY}/proof.json`,
      `${PROPERTY}/certificate.pdf`,
      `${PROPERTY}/evidence/data.csv`,
    ]);
    expect(entries![2]!.sha256).toBe(sha256(EVIDENCE[FILE]!.bytes!));
    expect(entries![7]!.sha256).toBe(sha256(EVIDENCE[PROPERTY]!.bytes!));
    expect(entries![4]!.bytes!.equals(certificateOf(HASH))).toBe(true);
  });

  it('batch: refuses an empty list, more than 100 items, and any bad signature', async () => {
    const empty = await download('/attestation-list/download/batch.zip?items=');
    expect([empty.res.status, empty.text]).toEqual([400, '请选择需要下载的证据']);
    const many = Array.from({ length: BATCH_MAX_ITEMS + 1 }, (_, i) =>
      itemRef(`BQ20260101${String(i).padStart(20, 'F')}`),
    ).join(',');
    const tooMany = await download(`/attestation-list/download/batch.zip?items=${many}`);
    expect([tooMany.res.status, tooMany.text]).toEqual([400, `一次最多下载${BATCH_MAX_ITEMS}个证据`]);
    const before = seen.authorize;
    const good = signed(HASH);
    const tampered = `${itemRef(FILE)},${HASH}.${good.exp}.${good.sig.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'))}`;
    const bad = await download(`/attestation-list/download/batch.zip?items=${tampered}`);
    expect([bad.res.status, bad.text]).toEqual([403, '下载链接无效或已过期']);
    expect(seen.authorize - before).toBe(2);
    const malformed = await download(`/attestation-list/download/batch.zip?items=${FILE}.123`);
    expect(malformed.res.status).toBe(403);
  });

  it(`streams a ${Math.round(BIG_BYTES / MiB)} MiB original in constant memory with the same SHA-256`, async () => {
    const expected = bigSha256();
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    let result: Awaited<ReturnType<typeof download>>;
    try {
      result = await download(packagePath(BIG));
    } finally {
      clearInterval(sampler);
    }
    const original = result.entries!.find((e) => e.name === 'evidence/video.mp4')!;
    expect(original.size).toBe(BIG_BYTES);
    expect(original.sha256).toBe(expected);
    expect(original.compressionMethod).toBe(0);
    // Gateway, fake upstream and reader share this process; a buffered original would add BIG_BYTES.
    expect((peak - baseline) / MiB).toBeLessThan(Math.min(150, BIG_BYTES / MiB / 2));
  }, 300_000);

  it('stops downloading the original when the client goes away', async () => {
    const before = seen.originalsClosedEarly;
    const controller = new AbortController();
    const res = await fetch(`${base}${packagePath(BIG)}`, { signal: controller.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    for (let got = 0; got < 4 * MiB;) got += (await reader.read()).value?.length ?? 0;
    controller.abort();
    await expect.poll(() => seen.originalsClosedEarly - before, { timeout: 5000 }).toBe(1);
  });
});

describe('package helpers', () => {
  it('parseBatchItems drops duplicates and rejects malformed items', () => {
    const a = itemRef(FILE);
    expect(parseBatchItems(`${a},${a}`)).toHaveLength(1);
    expect(parseBatchItems(undefined)).toEqual({ error: '请选择需要下载的证据', status: 400 });
    expect(parseBatchItems('../x.1.abcdefabcdefabcdef')).toEqual({
      error: '下载链接无效或已过期',
      status: 403,
    });
    expect(parseBatchItems(`${a}.extra`)).toEqual({ error: '下载链接无效或已过期', status: 403 });
  });

  it('safeEntryName keeps names and defuses separators and dot segments', () => {
    expect(safeEntryName('合同 v2.pdf')).toBe('合同 v2.pdf');
    expect(safeEntryName('../../etc/passwd')).toBe('.._.._etc_passwd');
    expect(safeEntryName('..')).toBe('file');
    expect(safeEntryName('a\\b\u0000c')).toBe('a_b_c');
  });

  it('beijingStamp is yyyymmddHHMM at UTC+8', () => {
    expect(beijingStamp(new Date('2025-12-31T16:05:00Z'))).toBe('202601010005');
  });
});
