/**
 * Hardening of the gateway against bodies and upstreams (docs/decisions/024-gateway-bodies.md), against the real
 * process (embedded platform + gateway + the built UI) on loopback:
 * - page POSTs: a form body over FORM_BODY_LIMIT_BYTES is refused with 413 before it is read (declared and chunked),
 *   a non-form body answers 415, a broken multipart body 400, each with a Chinese message, never 500;
 * - early answers: the platform's answer to a body it did not read (the 412 verification gate, an oversize JSON
 *   body) reaches the client through `/api` and through the upload page, also with `Expect: 100-continue`, and the
 *   refused body is not read to its end;
 * - a silent upstream fails after UPSTREAM_TIMEOUT_MS with the connection-failed answer (pages and `/api`);
 * - an orphan temp upload (what kill -9 leaves) is swept at the next start whatever its age.
 */
import { rmSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KycMsg } from '../../contract/kyc.ts';
import { Msg } from '../../contract/messages.ts';
import { startServer } from '../../server/start.ts';
import {
  apiLogin,
  BUILD_DIR,
  DEMO_MOBILE,
  freshDataDir,
  startWhole,
  testEnv,
  uploadCsrf,
  webLogin,
  type CookieJar,
  type Whole,
} from '../support/integration.ts';

/** What a raw POST got: the answer (or the error) and how many body bytes were written before it. */
interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  sent: number;
  error?: string;
}

/**
 * POSTs `total` bytes of `fill` (64 KiB writes with backpressure), declared with Content-Length unless `chunked`.
 * Stops writing as soon as an answer arrives; resolves with the answer, or the error when none came.
 */
function rawPost(
  url: string,
  opts: {
    headers: Record<string, string>;
    total: number;
    chunked?: boolean;
    expectContinue?: boolean;
    prefix?: Buffer;
  },
): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (!opts.chunked) headers['content-length'] = String(opts.total);
    if (opts.expectContinue) headers.expect = '100-continue';
    const req = http.request(url, { method: 'POST', agent: false, headers });
    let sent = 0;
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          sent,
        }),
      );
      res.on('error', (e) =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '', sent, error: e.message }),
      );
    });
    req.on('error', (e) => {
      if (!answered) resolve({ status: 0, headers: {}, body: '', sent, error: e.message });
    });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const write = () => {
      if (opts.prefix && sent === 0) {
        sent += opts.prefix.length;
        req.write(opts.prefix);
      }
      while (sent < opts.total && !answered && !req.destroyed) {
        const n = Math.min(chunk.length, opts.total - sent);
        sent += n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
          req.once('drain', write);
          return;
        }
      }
      if (!answered && !req.destroyed) req.end();
    };
    if (opts.expectContinue) req.once('continue', write);
    else write();
  });
}

const MB = 1024 * 1024;

/**
 * A client that ignores early answers: sends the request head, then writes `total` body bytes as fast as the socket
 * takes them, whatever comes back, until the server closes the connection. Resolves with what it read back and how
 * many body bytes the socket took (the server's reads plus what the two kernels' buffers hold).
 */
function stubbornPost(
  url: string,
  headers: Record<string, string>,
  total: number,
): Promise<{ answer: string; accepted: number }> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let answer = '';
    let accepted = 0;
    socket.setEncoding('latin1');
    socket.on('data', (text: string) => (answer += text));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ answer: Buffer.from(answer, 'latin1').toString('utf8'), accepted }));
    const head = Object.entries({ host: `${hostname}:${port}`, 'content-length': String(total), ...headers })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`POST ${pathname} HTTP/1.1\r\n${head}\r\n`);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const write = () => {
      while (accepted < total && !socket.destroyed) {
        accepted += chunk.length;
        if (!socket.write(chunk)) return void socket.once('drain', write);
      }
    };
    write();
  });
}

describe.sequential('gateway bodies and early answers', () => {
  let whole: Whole;
  let token: string;
  let jar: CookieJar;

  beforeAll(async () => {
    whole = await startWhole();
    token = await apiLogin(whole.base);
    jar = await webLogin(whole.base);
    // The demo account loses its verification: its uploads meet the platform's 412 gate before any byte is read.
    const res = await fetch(`${whole.base}/api/__test/setUserStatus`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ mobile: DEMO_MOBILE, userStatus: '1' }),
    });
    expect(res.status).toBe(200);
  });
  afterAll(async () => {
    await whole?.stop();
  });

  it.each([
    ['with Content-Length', false],
    ['chunked', true],
  ])('refuses a 300 MB form POST to /login %s with 413 before reading it', async (_name, chunked) => {
    const answer = await rawPost(`${whole.base}/login`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      total: 300 * MB,
      chunked,
    });
    expect(answer.status).toBe(413);
    expect(answer.headers['content-type']).toMatch(/text\/html/);
    expect(answer.body).toContain(Msg.bodyTooLarge);
    // Read up to the limit at most; what the client managed to write sits in socket buffers, not in the gateway.
    expect(answer.sent).toBeLessThan(64 * MB);
  });

  it('answers a form page a non-form body with 415 and a broken multipart body with 400, in Chinese', async () => {
    for (const page of ['/login', '/register', '/queryAuthentication/electronicData']) {
      const json = await fetch(`${whole.base}${page}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"mobile":"13800138000"}',
      });
      expect(json.status, page).toBe(415);
      expect(await json.text()).toContain(Msg.unsupportedBody);
      const broken = await fetch(`${whole.base}${page}`, {
        method: 'POST',
        headers: { 'content-type': 'multipart/form-data; boundary=zz' },
        body: '--zz\r\nContent-Disposition: form-data; name="mobile"\r\n\r\n1380013',
      });
      expect(broken.status, page).toBe(400);
      expect(await broken.text()).toContain(Msg.brokenForm);
    }
  });

  it('passes the 412 gate of /api/data/save on to the client, without reading the upload to its end', async () => {
    for (let i = 0; i < 6; i++) {
      const answer = await rawPost(`${whole.base}/api/data/save`, {
        headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=zz' },
        total: (i % 2 ? 200 : 1) * MB,
      });
      expect(answer.error, `attempt ${i}`).toBeUndefined();
      expect(JSON.parse(answer.body)).toEqual({ code: 412, msg: KycMsg.kycRequired, data: null });
      expect(answer.sent).toBeLessThan(100 * MB);
    }
  });

  it('forwards `Expect: 100-continue` bodies through /api', async () => {
    const answer = await rawPost(`${whole.base}/api/data/save`, {
      headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=zz' },
      total: 3 * MB,
      expectContinue: true,
    });
    expect(JSON.parse(answer.body)).toEqual({ code: 412, msg: KycMsg.kycRequired, data: null });
    const login = await rawPost(`${whole.base}/api/login`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      total: 0,
      expectContinue: true,
    });
    expect(login.status).toBe(200);
    expect((JSON.parse(login.body) as { code: number }).code).not.toBe(502);
  });

  it('answers a JSON body over the platform limit with 请求内容过大, not the file-size message', async () => {
    const answer = await rawPost(`${whole.base}/api/login`, {
      headers: { 'content-type': 'application/json' },
      total: 3 * MB,
    });
    expect(JSON.parse(answer.body)).toEqual({ code: 413, msg: Msg.bodyTooLarge, data: null });
  });

  it('reads no more of a refused body than the socket buffers hold, and closes the connection', async () => {
    // Node would read (and drop) the rest of an unread body after the answer: all 512 MB from this client.
    const { answer, accepted } = await stubbornPost(
      `${whole.base}/api/login`,
      { 'content-type': 'application/json' },
      512 * MB,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(answer).toContain(Msg.bodyTooLarge);
    expect(accepted).toBeLessThan(64 * MB);
  });

  it('shows the 412 gate on the upload page (/newAccessCard) every time', async () => {
    const csrf = await uploadCsrf(whole.base, jar);
    const boundary = 'zzgate';
    const prefix = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\ngate\r\n--${boundary}\r\n` +
        'Content-Disposition: form-data; name="file"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\n',
    );
    for (let i = 0; i < 6; i++) {
      const answer = await rawPost(`${whole.base}/newAccessCard?csrf=${encodeURIComponent(csrf)}`, {
        headers: { cookie: jar.header(), 'content-type': `multipart/form-data; boundary=${boundary}` },
        total: 20 * MB,
        prefix,
      });
      expect(answer.error, `attempt ${i}`).toBeUndefined();
      expect(answer.status, `attempt ${i}`).toBe(412);
      expect(answer.body).toContain(KycMsg.kycRequired);
    }
  });
});

describe.sequential('a silent upstream', () => {
  let silent: net.Server;
  const sockets = new Set<net.Socket>();
  let dataDir: string;
  let base: string;
  let closeAll: () => Promise<void>;

  beforeAll(async () => {
    // Accepts connections and never answers.
    silent = net.createServer((s) => {
      sockets.add(s);
      s.on('error', () => undefined);
      s.resume();
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const { port } = silent.address() as AddressInfo;
    dataDir = freshDataDir();
    const running = await startServer(
      testEnv(dataDir, { UPSTREAM_URL: `http://127.0.0.1:${port}`, UPSTREAM_TIMEOUT_MS: '800' }),
      { mode: 'production', buildDirectory: BUILD_DIR },
    );
    base = running.url.replace('localhost', '127.0.0.1');
    closeAll = () => running.closeAll();
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await closeAll?.();
    await new Promise((r) => silent?.close(r));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers /api with the connection-failed envelope (504) after UPSTREAM_TIMEOUT_MS', async () => {
    const started = Date.now();
    const res = await fetch(`${base}/api/home/getAppVersion`);
    expect(res.status).toBe(504);
    expect(await res.json()).toEqual({ code: 504, msg: Msg.connectionFailed, data: null });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('shows the connection-failed page for a page whose loader asks the upstream', async () => {
    const started = Date.now();
    const res = await fetch(`${base}/register?from=top`);
    expect([502, 504]).toContain(res.status);
    const html = await res.text();
    expect(html).toContain(Msg.connectionFailed);
    expect(Date.now() - started).toBeLessThan(10_000);
    // 重试 retries this page (with its query), not the home page.
    expect(html).toMatch(/<a[^>]*href="\/register\?from=top"[^>]*>重试<\/a>/);
  });
});

describe.sequential('orphan temp uploads', () => {
  it('are swept at start-up whatever their age', async () => {
    const dataDir = freshDataDir();
    try {
      const first = await startServer(testEnv(dataDir), { mode: 'production', buildDirectory: BUILD_DIR });
      await first.closeAll();
      // What a kill -9 in the middle of an upload leaves: a fresh file in tmp/ that no request holds any more.
      mkdirSync(path.join(dataDir, 'tmp'), { recursive: true });
      const orphan = path.join(dataDir, 'tmp', 'upload-0123456789abcdef01234567');
      writeFileSync(orphan, Buffer.alloc(1024));
      const second = await startServer(testEnv(dataDir), { mode: 'production', buildDirectory: BUILD_DIR });
      try {
        expect(existsSync(orphan)).toBe(false);
      } finally {
        await second.closeAll();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
