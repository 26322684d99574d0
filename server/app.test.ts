/**
 * Gateway unit tests: a fake upstream on loopback and a hand-made React Router build stand in for the platform and
 * the UI (the real platform and pages are tested in platform/ and tests/e2e).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { brotliDecompressSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Msg } from '../contract/messages.ts';
import { buildServer } from './app.ts';
import { cspDirectives } from './http/security-headers.ts';
import { DOCUMENT_ONLY_HEADERS, JSON_CSP, VALIDATOR_HEADERS } from './pages/asset-headers.ts';
import { fakeServerBuild, startFakeUpstream, testConfig, type SeenRequest } from '../tests/support/server.ts';
import { TEST_SITE } from '../tests/support/site.ts';

/** Streams `total` bytes of a repeating pattern without holding them. */
function patternStream(total: number, chunkSize = 64 * 1024): { stream: Readable; sha256: () => string } {
  const chunk = Buffer.alloc(chunkSize);
  for (let i = 0; i < chunkSize; i++) chunk[i] = (i * 31 + 7) & 0xff;
  const hash = createHash('sha256');
  let sent = 0;
  const stream = new Readable({
    read() {
      if (sent >= total) return void this.push(null);
      const piece = chunk.subarray(0, Math.min(chunkSize, total - sent));
      sent += piece.length;
      hash.update(piece);
      this.push(piece);
    },
  });
  return { stream, sha256: () => hash.digest('hex') };
}

/** POSTs a stream through a real socket (inject would buffer it) and resolves with status, headers and JSON. */
function postStream(
  url: string,
  body: Readable,
  headers: Record<string, string>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; json: unknown }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, json: text ? JSON.parse(text) : null });
      });
    });
    req.on('error', reject);
    body.pipe(req);
  });
}

describe('gateway', () => {
  let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
  let gateway: FastifyInstance;
  let gatewayUrl: string;
  let buildDir: string;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    buildDir = mkdtempSync(path.join(tmpdir(), 'cz-build-'));
    mkdirSync(path.join(buildDir, 'client', 'assets'), { recursive: true });
    writeFileSync(
      path.join(buildDir, 'client', 'assets', 'app-abc123.js'),
      `console.log(${'"x",'.repeat(5000)}1)`,
    );
    writeFileSync(path.join(buildDir, 'client', 'favicon.ico'), Buffer.alloc(10));
    gateway = await buildServer(testConfig({ announcement: null, maxUploadBytes: 1234 }), {
      upstreamUrl: upstream.url,
      build: fakeServerBuild(),
      buildDirectory: buildDir,
      logger: false,
    });
    await gateway.listen({ host: '127.0.0.1', port: 0 });
    gatewayUrl = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await gateway?.close();
    await upstream?.app.close();
    rmSync(buildDir, { recursive: true, force: true });
  });

  it('answers /healthz while the process is alive', async () => {
    const res = await gateway.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('answers /readyz 200 when the upstream answers its health route', async () => {
    const res = await gateway.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
  });

  it('streams a request body and its headers to the upstream', async () => {
    const size = 32 * 1024 * 1024 + 17;
    const { stream, sha256 } = patternStream(size);
    const res = await postStream(`${gatewayUrl}/api/echo?page=2&keyword=%E8%AF%81`, stream, {
      'content-type': 'multipart/form-data; boundary=x',
      authorization: 'Bearer tok-123',
      'x-url-path': '/attestation-list/file',
      'x-forwarded-for': '6.6.6.6',
    });
    expect(res.status).toBe(200);
    const seen = (res.json as { data: SeenRequest }).data;
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe('/api/echo?page=2&keyword=%E8%AF%81');
    expect(seen.bytes).toBe(size);
    expect(seen.sha256).toBe(sha256());
    expect(seen.headers.authorization).toBe('Bearer tok-123');
    expect(seen.headers['x-url-path']).toBe('/attestation-list/file');
    expect(seen.headers['content-type']).toBe('multipart/form-data; boundary=x');
    // TRUST_PROXY is off: the client's own X-Forwarded-For is replaced by the peer address.
    expect(seen.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(seen.headers['x-forwarded-proto']).toBe('http');
  });

  it('passes a large body in bounded memory', async () => {
    const size = 256 * 1024 * 1024;
    const before = process.memoryUsage().rss;
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const { stream, sha256 } = patternStream(size);
    const res = await postStream(`${gatewayUrl}/api/echo`, stream, {
      'content-type': 'application/octet-stream',
    });
    clearInterval(timer);
    const seen = (res.json as { data: SeenRequest }).data;
    expect(seen.bytes).toBe(size);
    expect(seen.sha256).toBe(sha256());
    expect((peak - before) / 1024 / 1024).toBeLessThan(120);
  });

  it('refuses a JSON or form body over the platform limit by its Content-Length, without forwarding it', async () => {
    for (const type of ['application/json', 'application/x-www-form-urlencoded; charset=utf-8']) {
      const { stream } = patternStream(2 * 1024 * 1024);
      const res = await postStream(`${gatewayUrl}/api/echo`, stream, {
        'content-type': type,
        'content-length': String(2 * 1024 * 1024),
      });
      expect(res.json, type).toEqual({ code: 413, msg: Msg.bodyTooLarge, data: null });
      expect(res.headers.connection, type).toBe('close');
    }
    // At the limit it is the platform's to judge: forwarded.
    const { stream, sha256 } = patternStream(1024 * 1024);
    const res = await postStream(`${gatewayUrl}/api/echo`, stream, {
      'content-type': 'application/json',
      'content-length': String(1024 * 1024),
    });
    const seen = (res.json as { data: SeenRequest }).data;
    expect(seen.bytes).toBe(1024 * 1024);
    expect(seen.sha256).toBe(sha256());
  });

  it('does not compress /api responses', async () => {
    const res = await gateway.inject({
      method: 'GET',
      url: '/api/text',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload.length).toBeGreaterThan(90_000);
  });

  it('sends the CSP with a per-request script nonce that the page receives', async () => {
    const res = await gateway.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    const csp = String(res.headers['content-security-policy']);
    const nonce = /script-src 'self' 'nonce-([0-9a-f]+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(res.body).toContain(`<script nonce="${nonce}">`);
    for (const directive of [
      "default-src 'self'",
      "img-src 'self' data:",
      "form-action 'self'",
      "frame-ancestors 'none'",
      "object-src 'none'",
      "base-uri 'self'",
      "style-src-attr 'unsafe-inline'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    // The style nonce differs from the script nonce and ends the policy, as helmet wrote it.
    const styleNonce = /style-src 'self' 'unsafe-inline' 'nonce-([0-9a-f]{32})'$/.exec(csp)?.[1];
    expect(styleNonce).toBeTruthy();
    expect(styleNonce).not.toBe(nonce);
    expect(csp).not.toContain('cunzheng');
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    const again = await gateway.inject({ method: 'GET', url: '/' });
    expect(again.headers['content-security-policy']).not.toBe(csp);
  });

  it('never hands two answers the same nonce, across batches of drawn randomness', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 600; i++) {
      const csp = String(
        (await gateway.inject({ method: 'GET', url: '/healthz' })).headers['content-security-policy'],
      );
      for (const [, nonce] of csp.matchAll(/'nonce-([0-9a-f]{32})'/g)) seen.add(nonce!);
    }
    expect(seen.size).toBe(1200);
  });

  it('hands loaders the load context', async () => {
    const res = await gateway.inject({
      method: 'GET',
      url: '/ctx',
      headers: { 'x-request-id': 'ctx-test-1' },
    });
    expect(res.statusCode).toBe(200);
    const ctx = res.json();
    expect(ctx).toEqual({
      cspNonce: expect.stringMatching(/^[0-9a-f]{32}$/),
      requestId: 'ctx-test-1',
      upstreamUrl: upstream.url,
      sessionSecrets: ['test-secret-test-secret-test-secret-0000'],
      secureCookies: false,
      basePath: '',
      maxUploadBytes: 1234,
      formBodyLimitBytes: 64 * 1024,
      upstreamTimeoutMs: 30_000,
      announcement: null,
      site: TEST_SITE,
      // inject() comes from 127.0.0.1; with TRUST_PROXY off a client's own X-Forwarded-For is not believed.
      clientIp: '127.0.0.1',
    });
    expect(String(res.headers['content-security-policy'])).toContain(`'nonce-${ctx.cspNonce}'`);
  });

  it('sends a page whole: compressed, with its Content-Length instead of chunks, the document intact', async () => {
    const raw = await new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      http
        .get(`${gatewayUrl}/`, { headers: { 'accept-encoding': 'br' } }, (res) => {
          const parts: Buffer[] = [];
          res.on('data', (c: Buffer) => parts.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(parts) }));
        })
        .on('error', reject);
    });
    expect(raw.headers['content-encoding']).toBe('br');
    expect(raw.headers['transfer-encoding']).toBeUndefined();
    expect(raw.headers['content-length']).toBe(String(raw.body.length));
    const plain = await gateway.inject({ method: 'GET', url: '/' });
    const nonceless = (html: string) => html.replace(/nonce="[^"]+"/g, 'nonce=""'); // drawn per request
    expect(nonceless(brotliDecompressSync(raw.body).toString('utf8'))).toBe(nonceless(plain.body));
    expect(plain.body).toContain('</html>');
  });

  it('compresses pages and serves hashed assets as immutable', async () => {
    const page = await gateway.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip' } });
    expect(page.headers['content-encoding']).toBe('gzip');
    const asset = await gateway.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect(asset.headers['content-encoding']).toBe('gzip');
    // a script keeps nosniff and its resource policy, not the document's CSP and frame rules
    expect(asset.headers['x-content-type-options']).toBe('nosniff');
    expect(asset.headers['cross-origin-resource-policy']).toBe('same-origin');
    for (const h of DOCUMENT_ONLY_HEADERS) expect(asset.headers[h], h).toBeUndefined();
    // an immutable hashed name is never revalidated: no validators
    for (const h of VALIDATOR_HEADERS) expect(asset.headers[h], h).toBeUndefined();
    expect(page.headers['content-security-policy']).toBeTruthy();
    const icon = await gateway.inject({ method: 'GET', url: '/favicon.ico' });
    expect(icon.headers['cache-control']).not.toContain('immutable');
    // a file under a fixed name keeps what a browser revalidates it with
    expect(icon.headers['etag'] ?? icon.headers['last-modified']).toBeTruthy();
  });
});

describe('gateway with the upstream stopped', () => {
  let gateway: FastifyInstance;
  let gatewayUrl: string;

  beforeAll(async () => {
    const upstream = await startFakeUpstream();
    await upstream.app.close(); // the port is now closed: connections are refused
    gateway = await buildServer(testConfig(), { upstreamUrl: upstream.url, build: false, logger: false });
    await gateway.listen({ host: '127.0.0.1', port: 0 });
    gatewayUrl = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it('answers 502 with the connection-failed envelope', async () => {
    const get = await gateway.inject({ method: 'GET', url: '/api/share/getView?baoquan=x' });
    expect(get.statusCode).toBe(502);
    expect(get.headers['content-type']).toContain('application/json');
    expect(get.json()).toEqual({ code: 502, msg: Msg.connectionFailed, data: null });
    // A request with a body takes another path inside the proxy (its body stream errors first); same answer.
    const post = await fetch(`${gatewayUrl}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mobile: '13800138000', password: 'demo1234' }),
    });
    expect(post.status).toBe(502);
    expect(await post.json()).toEqual({ code: 502, msg: Msg.connectionFailed, data: null });
  });

  it('answers 502 to a streamed upload without reading it all', async () => {
    const { stream } = patternStream(8 * 1024 * 1024);
    const res = await postStream(`${gatewayUrl}/api/data/save`, stream, {
      'content-type': 'multipart/form-data; boundary=x',
    }).catch((err: Error) => ({ status: -1, json: err.message }));
    // Either the 502 envelope arrives, or the socket closes while the client is still sending (also no crash).
    if (res.status !== -1) {
      expect(res.status).toBe(502);
      expect(res.json).toEqual({ code: 502, msg: Msg.connectionFailed, data: null });
    }
    const health = await gateway.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
  });

  it('answers /readyz 503', async () => {
    const res = await gateway.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'unavailable' });
  });
});

describe('gateway behind TLS and a trusted proxy', () => {
  it('upgrades insecure requests, sends HSTS and appends to X-Forwarded-For', async () => {
    const upstream = await startFakeUpstream();
    const gateway = await buildServer(testConfig({ secureCookies: true, trustProxy: true }), {
      upstreamUrl: upstream.url,
      build: false,
      logger: false,
    });
    try {
      const res = await gateway.inject({
        method: 'GET',
        url: '/api/echo',
        headers: { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' },
      });
      const seen = (res.json() as { data: SeenRequest }).data;
      expect(seen.headers['x-forwarded-for']).toBe('203.0.113.9, 127.0.0.1');
      expect(seen.headers['x-forwarded-proto']).toBe('https');
      expect(res.headers['strict-transport-security']).toContain('max-age=31536000');
      // a JSON envelope is no document: no document CSP or other document rules, only the policy an API answer
      // needs (OWASP REST: not framed, not sniffed); pages get the upgrading CSP
      for (const h of DOCUMENT_ONLY_HEADERS.filter((h) => h !== 'content-security-policy'))
        expect(res.headers[h], h).toBeUndefined();
      expect(res.headers['content-security-policy']).toBe(JSON_CSP);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(cspDirectives({ secure: true, development: false }).upgradeInsecureRequests).toEqual([]);
    } finally {
      await gateway.close();
      await upstream.app.close();
    }
  });
});
