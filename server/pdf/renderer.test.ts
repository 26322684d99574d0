/**
 * The renderer's cache logic without a browser: a fake upstream (getView) and a pool stub that "prints" a counter
 * (with or without the ledger proof summary). Keys follow the view state, stale PDFs go, a PDF printed without a ledger proof is served
 * only for a while, concurrent callers share one render, and pruning drops the least recently served. Then, in the
 * real Chromium: pages reused between renders, and none of them reaching an origin other than the gateway's.
 */
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool } from './browser-pool.ts';
import { hasChromium } from '../../tests/support/pdf-whole.ts';
import {
  CertificateRenderer,
  EvidenceNotFoundError,
  PARTIAL_TTL_MS,
  printPaths,
  viewStateHash,
} from './renderer.ts';
import { chromiumPath } from '../../tests/support/environment.ts';

const BQ = 'BQ20260101AAAAAAAAAAAAAAAAAAAA';

describe('CertificateRenderer cache', () => {
  let upstream: FastifyInstance;
  let url: string;
  let dir: string;
  const state = { deletedAt: null as string | null, proof: true };
  let prints = 0;
  const pool = {
    run: async () => {
      prints++;
      await new Promise((r) => setTimeout(r, 30));
      // As the print view does: the ledger proof summary is on the page when the ledger has a proof.
      return { pdf: Buffer.from(`%PDF-1.4 print ${prints}`), proof: state.proof };
    },
  } as unknown as BrowserPool;
  const make = (o: { cacheMaxBytes?: number } = {}) =>
    new CertificateRenderer({
      upstreamUrl: url,
      cacheDir: dir,
      templateVersion: 'abcdefabcdefabcd',
      reuseCache: true,
      cacheMaxBytes: o.cacheMaxBytes ?? 1024 ** 3,
      pool,
      gatewayOrigin: () => 'http://127.0.0.1:1',
      navigationTimeoutMs: 1000,
      logger: pino({ level: 'silent' }),
    });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cz-renderer-'));
    upstream = Fastify({ logger: false });
    upstream.get<{ Querystring: { baoquan: string } }>('/api/share/getView', async (req) =>
      req.query.baoquan === BQ
        ? {
            code: 200,
            msg: 'ok',
            data: { baoquan: BQ, chainhash: 'c', isDownload: 1, deletedAt: state.deletedAt },
          }
        : { code: 404, msg: '证据不存在', data: null },
    );
    await upstream.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(upstream.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('renders once for concurrent callers, then serves the cache until the view state changes', async () => {
    const r = make();
    const before = prints;
    const many = await Promise.all([r.getPdf(BQ), r.getPdf(BQ), r.getPdf(BQ)]);
    expect(prints - before).toBe(1);
    expect(new Set(many.map((p) => p.file)).size).toBe(1);
    const again = await r.getPdf(BQ);
    expect([again.fromCache, prints - before]).toEqual([true, 1]);

    state.deletedAt = '2026-01-02';
    const changed = await r.getPdf(BQ);
    expect(changed.fromCache).toBe(false);
    expect(changed.etag).not.toBe(again.etag);
    // the PDF of the old state is gone
    await expect
      .poll(() => readdirSync(dir).filter((f) => f.startsWith(`${BQ}.zh.`)))
      .toEqual([path.basename(changed.file)]);
    state.deletedAt = null;
  });

  it('keeps a PDF printed without a ledger proof only for PARTIAL_TTL_MS', async () => {
    const r = make();
    state.proof = false;
    const en = await r.getPdf(BQ, 'en');
    expect(en.file).toMatch(/\.partial\.pdf$/);
    expect((await r.getPdf(BQ, 'en')).fromCache).toBe(true);
    const old = new Date(Date.now() - PARTIAL_TTL_MS - 1000);
    utimesSync(en.file, old, old);
    state.proof = true;
    const fresh = await r.getPdf(BQ, 'en');
    expect([fresh.fromCache, fresh.file.endsWith('.partial.pdf')]).toEqual([false, false]);
    await expect
      .poll(() => readdirSync(dir).filter((f) => f.startsWith(`${BQ}.en.`)))
      .toEqual([path.basename(fresh.file)]);
  });

  it('serves a complete PDF from memory once it has rendered or read it, a partial one from its file', async () => {
    const r = make();
    const rendered = await r.getPdf(BQ, 'zh');
    // another gateway process (or a restart) finds the file, reads it once, then holds it
    const other = make();
    const first = await other.getPdf(BQ, 'zh');
    expect([first.fromCache, first.bytes?.equals(rendered.bytes!)]).toEqual([true, true]);
    rmSync(rendered.file);
    const held = await other.getPdf(BQ, 'zh');
    expect([held.fromCache, held.bytes?.equals(rendered.bytes!)]).toEqual([true, true]);
    expect((await r.getPdf(BQ, 'zh')).bytes?.equals(rendered.bytes!)).toBe(true);

    state.proof = false;
    state.deletedAt = '2026-03-04'; // a state not printed yet
    const partial = await make().getPdf(BQ, 'en');
    const again = await other.getPdf(BQ, 'en');
    expect([partial.file.endsWith('.partial.pdf'), again.fromCache, again.bytes]).toEqual([
      true,
      true,
      undefined,
    ]);
    state.proof = true;
    state.deletedAt = null;
  });

  it('throws EvidenceNotFoundError for unknown or malformed numbers', async () => {
    const r = make();
    await expect(r.getPdf('BQ20260101ZZZZZZZZZZZZZZZZZZZZ')).rejects.toBeInstanceOf(EvidenceNotFoundError);
    await expect(r.getPdf('../etc/passwd')).rejects.toBeInstanceOf(EvidenceNotFoundError);
  });

  it('prunes the least recently served PDFs down to the size limit', async () => {
    const pruneDir = mkdtempSync(path.join(tmpdir(), 'cz-prune-'));
    const r = new CertificateRenderer({
      ...(make() as unknown as { opts: object }).opts,
      cacheDir: pruneDir,
      cacheMaxBytes: 2500,
    } as ConstructorParameters<typeof CertificateRenderer>[0]);
    for (let i = 0; i < 5; i++) {
      const file = path.join(pruneDir, `BQ${i}.zh.v.s.pdf`);
      writeFileSync(file, Buffer.alloc(1000));
      const t = new Date(Date.now() - (5 - i) * 60_000);
      utimesSync(file, t, t);
    }
    await r.prune();
    expect(readdirSync(pruneDir).sort()).toEqual(['BQ3.zh.v.s.pdf', 'BQ4.zh.v.s.pdf']);
    rmSync(pruneDir, { recursive: true, force: true });
  });
});

describe('renderer helpers', () => {
  it('printPaths tries the print view, then the certificate page', () => {
    expect(printPaths(BQ, 'zh')).toEqual([`/attestation/${BQ}/print`, `/attestation/${BQ}`]);
    expect(printPaths(BQ, 'en')).toEqual([`/English/attestation/${BQ}/print`, `/English/attestation/${BQ}`]);
  });

  it('viewStateHash follows chainhash, deletedAt and isDownload only', () => {
    const a = viewStateHash({ chainhash: 'c', deletedAt: null, isDownload: 1 });
    expect(viewStateHash({ chainhash: 'c', deletedAt: null, isDownload: 1 })).toBe(a);
    expect(viewStateHash({ chainhash: 'c', deletedAt: '2026-01-01', isDownload: 1 })).not.toBe(a);
    expect(viewStateHash({ chainhash: 'c', deletedAt: null, isDownload: 0 })).not.toBe(a);
    expect(a).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe.skipIf(!hasChromium())('CertificateRenderer in Chromium, pages reused', () => {
  let gateway: FastifyInstance;
  let outsider: FastifyInstance;
  let dir: string;
  let pool: BrowserPool;
  const hits = { outsider: 0, style: 0 };
  /** Whether the fake print view prints the ledger proof summary. */
  let printProof = true;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cz-renderer-chromium-'));
    outsider = Fastify({ logger: false });
    outsider.get('/*', async () => {
      hits.outsider++;
      return 'x';
    });
    await outsider.listen({ host: '127.0.0.1', port: 0 });
    const outsiderUrl = `http://127.0.0.1:${(outsider.server.address() as AddressInfo).port}`;
    // One loopback server plays the gateway (the print view and its style) and the upstream (view, proof).
    gateway = Fastify({ logger: false });
    gateway.get('/api/share/getView', async () => ({
      code: 200,
      msg: 'ok',
      data: { baoquan: BQ, chainhash: 'c', isDownload: 1, deletedAt: null },
    }));
    gateway.get('/style.css', async (_req, reply) => {
      hits.style++;
      return reply.type('text/css').send('p { color: #111; }');
    });
    gateway.get(`/attestation/${BQ}/print`, async (_req, reply) =>
      reply
        .type('text/html')
        .send(
          `<!doctype html><link rel="stylesheet" href="/style.css"><p>证书</p>` +
            (printProof ? '<dl data-ledger-proof=""><dt>叶子序号</dt><dd>1</dd></dl>' : '') +
            `<img src="${outsiderUrl}/beacon.png"><link rel="stylesheet" href="${outsiderUrl}/x.css">`,
        ),
    );
    await gateway.listen({ host: '127.0.0.1', port: 0 });
    pool = new BrowserPool({
      chromiumPath: chromiumPath(),
      poolSize: 1,
      queueMax: 10,
      timeoutMs: 20_000,
      logger: pino({ level: 'silent' }),
    });
  });
  afterAll(async () => {
    await pool.close();
    await gateway.close();
    await outsider.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints on one reused page and never lets the page reach another origin', async () => {
    const origin = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;
    const renderer = new CertificateRenderer({
      upstreamUrl: origin,
      cacheDir: dir,
      templateVersion: 'abcdefabcdefabcd',
      reuseCache: false,
      cacheMaxBytes: 1024 ** 3,
      pool,
      gatewayOrigin: () => origin,
      navigationTimeoutMs: 10_000,
      logger: pino({ level: 'silent' }),
    });
    for (let i = 0; i < 3; i++) {
      // The first print lacks the proof summary: that PDF is partial; the others hold it.
      printProof = i > 0;
      const pdf = await renderer.getPdf(BQ);
      expect(pdf.fromCache).toBe(false);
      expect(pdf.file.endsWith('.partial.pdf')).toBe(i === 0);
    }
    expect(pool.stats()).toMatchObject({ completed: 3, pagesOpened: 1 });
    expect(hits.style).toBeGreaterThanOrEqual(1);
    expect(hits.outsider).toBe(0);
  });
});
