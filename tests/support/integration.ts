/**
 * Helpers of the cross-part integration tests: start the whole process (embedded platform + gateway + the built UI)
 * on loopback with a fresh DATA_DIR, log in through the API or through the real login form, and send multipart
 * bodies with node:http so that a test can cut one off midway. No mocks: everything talks to the real parts.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { startServer, type RunningServer } from '../../server/start.ts';
import { seedDataDir } from './templates.ts';
import { freePort } from './ports.ts';

export const DEMO_MOBILE = '13800138000';
export const DEMO_PASSWORD = 'demo1234';
/** A fixed session secret, so that two gateways can read each other's cookies when a test needs it. */
export const SESSION_SECRET = 'integration-secret-integration-secret-0001';

/** The React Router production build the gateway serves (`npm run build`). */
export const BUILD_DIR = path.resolve(import.meta.dirname, '../../build');

/** A started whole process with its data directory and a base URL that avoids `localhost` resolving to ::1. */
export interface Whole {
  running: RunningServer;
  dataDir: string;
  base: string;
  /** Stops everything and deletes the data directory. */
  stop(): Promise<void>;
}

/** The environment every suite starts with; `extra` overrides or adds variables. */
export function testEnv(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    APP_ENV: 'test',
    TEST_HOOKS: '1',
    LOG_LEVEL: 'silent',
    // platform/config.ts allows any power of two ≥ 2 outside production; 1024 keeps logins fast.
    SCRYPT_N: '1024',
    SESSION_SECRET,
    // every suite registers its users from one loopback address; the per-IP SMS quota has its own test
    SMS_MAX_PER_IP_HOUR: '100000',
    // …and logs in and looks up far more often than a person: the gateway's per-IP limit (server/http/rate-limit.ts)
    RATE_LIMIT_PER_MINUTE: '100000',
    // suites see a PDF rendered on its first visit (miss, then hit); the render-ahead suite turns it on
    PDF_RENDER_AHEAD: '0',
    // no background worker child per server (decision 064): the suites that test it start it
    BACKGROUND_WORKER: 'off',
    // suites reach into the platform (running.platform: its database, its signed URLs) and start many servers:
    // in the gateway's thread; the e2e servers (npm start) and server/start.test.ts run the worker-thread default
    EMBEDDED_PLATFORM: 'inline',
    ...extra,
  };
}

/** A fresh temp directory for DATA_DIR. */
export function freshDataDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'cz-integration-'));
}

/** The run's templates inside Vitest; none outside it (the benchmarks start the server too). */
function runTemplates(): ReturnType<typeof inject<'platformTemplates'>> | undefined {
  try {
    return inject('platformTemplates');
  } catch {
    return undefined;
  }
}

/**
 * Starts `startServer` with the production UI build (independent of NODE_ENV) and the test environment.
 * @throws when `build/server/index.js` is missing (run `npm run build` first), or whatever startServer throws.
 */
export async function startWhole(extra: Record<string, string> = {}): Promise<Whole> {
  if (!existsSync(path.join(BUILD_DIR, 'server', 'index.js'))) {
    throw new Error(`${BUILD_DIR}/server/index.js is missing: run \`npm run build\` first`);
  }
  const dataDir = freshDataDir();
  let running: RunningServer;
  try {
    // The run's migrated SQLite file and sandbox keys (tests/support/global-setup.ts), unless the suite moves them.
    await seedDataDir(runTemplates(), dataDir, !extra.DATABASE_URL && !extra.DATA_DIR);
    running = await startServer(testEnv(dataDir, extra), { mode: 'production', buildDirectory: BUILD_DIR });
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  return {
    running,
    dataDir,
    base: running.url.replace('localhost', '127.0.0.1'),
    async stop() {
      try {
        await running.closeAll();
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** A loopback port that nothing listens on now, for a child process to listen on later (tests/support/ports.ts). */
export const closedPort = freePort;

/** An envelope as the API answers it. */
export interface Envelope<T = unknown> {
  code: number | string;
  msg: string;
  data: T;
}

/** `POST /api/login` form-encoded with the demo account; returns the bearer token. */
export async function apiLogin(base: string): Promise<string> {
  const res = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ mobile: DEMO_MOBILE, password: DEMO_PASSWORD }),
  });
  const env = (await res.json()) as Envelope<{ token: string }>;
  if (Number(env.code) !== 200) throw new Error(`login failed: ${JSON.stringify(env)}`);
  return env.data.token;
}

/** `GET /api/data/getList` through the gateway: the number of the token's evidence. */
export async function evidenceCount(base: string, token: string): Promise<number> {
  const res = await fetch(`${base}/api/data/getList`, { headers: { authorization: `Bearer ${token}` } });
  const env = (await res.json()) as Envelope<{ count: number }>;
  if (Number(env.code) !== 200) throw new Error(`getList failed: ${JSON.stringify(env)}`);
  return env.data.count;
}

/** Every file below `dir` (relative paths), or [] when `dir` does not exist. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((p) =>
    statSync(path.join(dir, p)).isFile(),
  );
}

/** Polls `check` every 50 ms until it returns true or `timeoutMs` passes; returns the last result. */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A cookie jar keyed by name, filled from Set-Cookie headers. */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  /** Takes every Set-Cookie of `headers` (an empty value deletes the cookie). */
  take(headers: Headers | http.IncomingHttpHeaders): void {
    const list =
      headers instanceof Headers
        ? headers.getSetCookie()
        : ((headers['set-cookie'] as string[] | undefined) ?? []);
    for (const line of list) {
      const pair = line.split(';', 1)[0] ?? '';
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/** Decodes the few entities React escapes in attribute values. */
function unescapeHtml(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The hidden `csrf` input of a rendered form. @throws when the page has none */
export function hiddenCsrf(html: string): string {
  const m = /<input[^>]*name="csrf"[^>]*value="([^"]+)"/.exec(html);
  if (!m?.[1]) throw new Error('no csrf input in the page');
  return unescapeHtml(m[1]);
}

/**
 * Logs in through the real login form without JavaScript: GET /login (cz_csrf cookie + hidden csrf input), then
 * POST /login form-encoded. `base` may carry a BASE_PATH (`http://127.0.0.1:3000/cunzheng`), which the redirect must
 * keep. @returns the jar holding cz_csrf and cz_session
 */
export async function webLogin(base: string): Promise<CookieJar> {
  const prefix = new URL(base).pathname.replace(/\/$/, '');
  const jar = new CookieJar();
  const page = await fetch(`${base}/login?redirect=%2FnewAccessCard`, { redirect: 'manual' });
  jar.take(page.headers);
  const csrf = hiddenCsrf(await page.text());
  if (!jar.cookies.has('cz_csrf')) throw new Error('GET /login set no cz_csrf cookie');
  const res = await fetch(`${base}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() },
    body: new URLSearchParams({
      csrf,
      mobile: DEMO_MOBILE,
      password: DEMO_PASSWORD,
      redirect: '/newAccessCard',
    }),
  });
  await res.body?.cancel();
  jar.take(res.headers);
  if (
    res.status !== 302 ||
    res.headers.get('location') !== `${prefix}/newAccessCard` ||
    !jar.cookies.has('cz_session')
  ) {
    throw new Error(`form login failed: HTTP ${res.status}, location ${res.headers.get('location')}`);
  }
  return jar;
}

/** The CSRF token in the upload form's action URL of /newAccessCard (the page also refreshes the jar). */
export async function uploadCsrf(base: string, jar: CookieJar): Promise<string> {
  const res = await fetch(`${base}/newAccessCard`, { headers: { cookie: jar.header() }, redirect: 'manual' });
  jar.take(res.headers);
  const html = await res.text();
  if (res.status !== 200) throw new Error(`GET /newAccessCard answered ${res.status}`);
  const prefix = new URL(base).pathname.replace(/\/$/, '');
  const m = new RegExp(`action="${prefix}/newAccessCard\\?csrf=([^"]+)"`).exec(html);
  if (!m?.[1]) throw new Error('no csrf in the upload form action');
  return decodeURIComponent(unescapeHtml(m[1]));
}

/** A multipart body around one file: the bytes before the file's content, and after it. */
export interface Multipart {
  contentType: string;
  head: Buffer;
  tail: Buffer;
}

/** Frames `fields` and a file part named `file` (`fileName`), with a random boundary. */
export function multipart(fields: Record<string, string>, fileName: string): Multipart {
  const boundary = `----cz${randomBytes(12).toString('hex')}`;
  let head = '';
  for (const [k, v] of Object.entries(fields)) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  }
  head +=
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
    'Content-Type: application/octet-stream\r\n\r\n';
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    head: Buffer.from(head, 'utf8'),
    tail: Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8'),
  };
}

/** Resolves when `req` can take more bytes, or will never need to (closed, or the answer came). */
function drained(req: http.ClientRequest): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      req.off('drain', done);
      req.off('close', done);
      req.off('response', done);
      resolve();
    };
    req.on('drain', done);
    req.on('close', done);
    req.on('response', done);
  });
}

/** What a server answered. */
export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * POSTs a multipart body with `file` as the file part, in 64 KiB writes that honour backpressure.
 * `chunked` leaves out Content-Length. An answer that arrives before the body is fully sent (an early 413) wins
 * over the broken pipe that may follow.
 */
export function postMultipart(
  url: string,
  opts: { headers?: Record<string, string>; form: Multipart; file: Buffer; chunked?: boolean },
): Promise<Answer> {
  const { form, file } = opts;
  const total = form.head.length + file.length + form.tail.length;
  return new Promise<Answer>((resolve, reject) => {
    let answered = false;
    // A connection of its own: a body cut short by an early answer must not leave a reused socket out of step.
    const req = http.request(url, {
      method: 'POST',
      agent: false,
      headers: {
        ...opts.headers,
        'content-type': form.contentType,
        ...(opts.chunked ? {} : { 'content-length': String(total) }),
      },
    });
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    void (async () => {
      const pieces = [form.head, file, form.tail];
      for (const piece of pieces) {
        for (let at = 0; at < piece.length && !answered && !req.destroyed; at += 64 * 1024) {
          if (!req.write(piece.subarray(at, at + 64 * 1024))) await drained(req);
        }
      }
      if (!req.destroyed) req.end();
    })();
  });
}

/**
 * Starts a multipart POST (Content-Length of the whole body declared), writes the head and the first `sendBytes` of
 * `file`, waits until `ready()` says the server is holding the partial upload, then destroys the socket.
 * @returns whether `ready()` became true before the cut (a test asserts it, so the cut is known to be mid-stream)
 */
export async function cutOffUpload(
  url: string,
  opts: {
    headers?: Record<string, string>;
    form: Multipart;
    file: Buffer;
    sendBytes: number;
    ready: () => boolean;
  },
): Promise<{ sawPartial: boolean; answeredEarly: boolean }> {
  const { form, file } = opts;
  const total = form.head.length + file.length + form.tail.length;
  const req = http.request(url, {
    method: 'POST',
    agent: false,
    headers: { ...opts.headers, 'content-type': form.contentType, 'content-length': String(total) },
  });
  let answeredEarly = false;
  req.on('response', (res) => {
    answeredEarly = true;
    res.resume();
  });
  req.on('error', () => undefined); // the socket is destroyed on purpose
  req.write(form.head);
  const half = file.subarray(0, opts.sendBytes);
  for (let at = 0; at < half.length; at += 64 * 1024) {
    if (!req.write(half.subarray(at, at + 64 * 1024))) await drained(req);
  }
  const sawPartial = await waitFor(opts.ready, 5000);
  req.destroy();
  return { sawPartial, answeredEarly };
}

/** Temp uploads the platform is holding right now (`${dataDir}/tmp/upload-*` with at least one byte). */
export function partialTempUploads(dataDir: string): string[] {
  const dir = path.join(dataDir, 'tmp');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((n) => {
    try {
      return n.startsWith('upload-') && statSync(path.join(dir, n)).size > 0;
    } catch {
      return false; // removed between readdir and stat
    }
  });
}

/**
 * Resolves once `url` answers 200, or rejects after `ms` (a process started as a child getting ready), or at once
 * when `child` (that process) has exited, with its exit code or signal.
 */
export async function whenHealthy(url: string, ms = 60_000, child?: ChildProcess): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const ok = await fetch(url).then(
      async (r) => (await r.body?.cancel(), r.status === 200),
      () => false,
    );
    if (ok) return;
    if (child && (child.exitCode !== null || child.signalCode !== null)) {
      throw new Error(`${url}: the process exited (${child.exitCode ?? child.signalCode})`);
    }
    if (Date.now() > until) throw new Error(`${url} never became healthy`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Resolves when child process `p` has ended (at once if it already has, by exit code or by signal). */
export function exitOf(p: ChildProcess): Promise<unknown> {
  return new Promise((resolve) =>
    p.exitCode !== null || p.signalCode ? resolve(0) : p.once('exit', resolve),
  );
}
