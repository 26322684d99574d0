/**
 * Upload benchmark (`npm run bench:upload`): starts the real server in this process (embedded platform, temp
 * DATA_DIR, the production UI build), then uploads a generated file (1 GiB, or BENCH_BYTES) twice as a hand-written
 * multipart stream read from disk: (1) `api`: to `POST /api/data/save` through the gateway's proxy with a bearer
 * token; (2) `page`: to the `/newAccessCard` form action (what a browser without JavaScript does) with the session
 * and CSRF cookies of a real login through `/login`. For each it prints throughput and the resident set size
 * (sampled every 50 ms). The goal (README "Figures"): the process must not grow by more than 150 MB. Run
 * `npm run build` first.
 *
 * Figures, not pass/fail: it exits non-zero only when the upload fails or the returned SHA-256 is wrong.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { AccountPaths, type LoginData } from '../contract/account.ts';
import type { ApiEnvelope } from '../contract/envelope.ts';
import { EvidencePaths, type SaveEvidenceData } from '../contract/evidence.ts';
import { startServer } from '../server/start.ts';

const MiB = 1024 * 1024;
const GROWTH_LIMIT_MB = 150;
const bytes = Number(process.env.BENCH_BYTES ?? 1024 * MiB);
if (!Number.isSafeInteger(bytes) || bytes <= 0) throw new Error(`BENCH_BYTES must be a positive integer`);
const mb = (n: number) => (n / MiB).toFixed(1);
const print = (line: string) => process.stdout.write(`${line}\n`);

/** Writes `size` random bytes to `file` in 1 MiB chunks and returns their SHA-256 (hex). */
async function generateFile(file: string, size: number): Promise<string> {
  const hash = createHash('sha256');
  const out = createWriteStream(file);
  for (let written = 0; written < size;) {
    const chunk = randomBytes(Math.min(MiB, size - written));
    hash.update(chunk);
    written += chunk.length;
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return hash.digest('hex');
}

/** POSTs JSON and resolves with the parsed envelope. */
async function postJson<T>(url: string, body: unknown, token?: string): Promise<ApiEnvelope<T>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as ApiEnvelope<T>;
}

/**
 * Uploads `file` as the `file` part of a multipart body whose boundary and part headers are written by hand around
 * a `fs.createReadStream`, so nothing holds the file in memory. Content-Length is exact.
 */
async function uploadMultipart(
  url: string,
  auth: Record<string, string>,
  file: string,
  size: number,
): Promise<{ status: number; location: string | undefined; body: string }> {
  const boundary = `----cunzheng-bench-${randomBytes(12).toString('hex')}`;
  const field = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from(
    field('title', 'bench upload') +
      field('label', 'bench') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.bin"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const req = http.request(url, {
    method: 'POST',
    headers: {
      ...auth,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(head.length + size + tail.length),
      'x-url-path': '/newAccessCard',
    },
  });
  const response = once(req, 'response') as Promise<[http.IncomingMessage]>;
  await pipeline(async function* () {
    yield head;
    yield* createReadStream(file, { highWaterMark: MiB });
    yield tail;
  }, req);
  const [res] = await response;
  const parts: Buffer[] = [];
  for await (const chunk of res) parts.push(chunk as Buffer);
  return {
    status: res.statusCode ?? 0,
    location: res.headers.location,
    body: Buffer.concat(parts).toString('utf8'),
  };
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'cz-bench-'));
const file = path.join(dataDir, 'upload.bin');
let exitCode = 0;

print(`generating ${mb(bytes)} MB of random data in ${file} …`);
const expectedHash = await generateFile(file, bytes);

const env: Record<string, string | undefined> = {
  ...process.env,
  DATA_DIR: path.join(dataDir, 'data'),
  APP_ENV: 'test',
  TEST_HOOKS: '1',
  SEED_DEMO: '1',
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  MAX_UPLOAD_BYTES: String(Math.max(bytes + MiB, 2 * 1024 * MiB)),
};
delete env.UPSTREAM_URL;
delete env.DATABASE_URL;
delete env.SESSION_SECRET;

/** Cookie jar of one client: name → value from Set-Cookie headers. */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/** The hidden `csrf` field's value in a page. */
function csrfOf(html: string): string {
  const m = /name="csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error('no csrf field in the page');
  // React escapes attribute values; the token's alphabet includes & and friends.
  return m[1]!
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Logs in through the `/login` form (no JavaScript) and returns the cookie jar holding the session. */
async function pageLogin(base: string): Promise<CookieJar> {
  const jar = new CookieJar();
  const page = await fetch(`${base}/login`);
  jar.take(page);
  const form = new URLSearchParams({
    csrf: csrfOf(await page.text()),
    mobile: '13800138000',
    password: process.env.DEMO_PASSWORD ?? 'demo1234',
    redirect: '/newAccessCard',
  });
  const res = await fetch(`${base}/login`, {
    method: 'POST',
    body: form,
    headers: { cookie: jar.header() },
    redirect: 'manual',
  });
  jar.take(res);
  if (res.status !== 302)
    throw new Error(`page login failed: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
  return jar;
}

interface Measured {
  seconds: number;
  baseline: number;
  peak: number;
}

/** Runs `upload` while sampling RSS every 50 ms. */
async function measure<T>(upload: () => Promise<T>): Promise<Measured & { result: T }> {
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const started = process.hrtime.bigint();
  try {
    const result = await upload();
    return { result, seconds: Number(process.hrtime.bigint() - started) / 1e9, baseline, peak };
  } finally {
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
  }
}

function report(mode: string, m: Measured, outcome: string, filehash: string | undefined): boolean {
  const growth = m.peak - m.baseline;
  print(`\n[${mode}]`);
  print(`outcome:       ${outcome}`);
  print(`size:          ${mb(bytes)} MB (1 MB = 2^20 bytes)`);
  print(`time:          ${m.seconds.toFixed(2)} s`);
  print(`throughput:    ${(bytes / MiB / m.seconds).toFixed(1)} MB/s`);
  print(`baseline RSS:  ${mb(m.baseline)} MB`);
  print(`peak RSS:      ${mb(m.peak)} MB (sampled every 50 ms)`);
  print(
    `RSS growth:    ${mb(growth)} MB (limit ${GROWTH_LIMIT_MB} MB: ${growth <= GROWTH_LIMIT_MB * MiB ? 'ok' : 'EXCEEDED'})`,
  );
  const ok = filehash === expectedHash;
  print(
    `SHA-256 check: ${ok ? 'ok (equals the file’s SHA-256)' : `MISMATCH: got ${filehash}, file is ${expectedHash}`}`,
  );
  return ok;
}

const running = await startServer(env, { mode: 'production' });
const base = running.url.replace('localhost', '127.0.0.1');
try {
  // (1) through the /api proxy with a bearer token
  const login = await postJson<LoginData>(`${base}${AccountPaths.login}`, {
    mobile: '13800138000',
    password: process.env.DEMO_PASSWORD ?? 'demo1234',
  });
  if (Number(login.code) !== 200) throw new Error(`login failed: ${login.code} ${login.msg}`);
  const api = await measure(() =>
    uploadMultipart(
      `${base}${EvidencePaths.save}`,
      { authorization: `Bearer ${login.data.token}` },
      file,
      bytes,
    ),
  );
  const envelope = JSON.parse(api.result.body) as ApiEnvelope<SaveEvidenceData>;
  if (
    !report(
      'api: POST /api/data/save via the proxy',
      api,
      `HTTP ${api.result.status}, code ${envelope.code} ${envelope.msg} ${envelope.data?.baoquan ?? ''}`,
      envelope.data?.filehash,
    )
  )
    exitCode = 1;

  // (2) through the /newAccessCard form action, as a browser without JavaScript
  const jar = await pageLogin(base);
  const formPage = await fetch(`${base}/newAccessCard`, { headers: { cookie: jar.header() } });
  const csrf = csrfOf(await formPage.text());
  const page = await measure(() =>
    uploadMultipart(
      `${base}/newAccessCard?csrf=${encodeURIComponent(csrf)}`,
      { cookie: jar.header() },
      file,
      bytes,
    ),
  );
  const baoquan = decodeURIComponent(page.result.location?.split('/').pop() ?? '');
  const view = baoquan
    ? ((await (
        await fetch(`${base}${EvidencePaths.view}?baoquan=${encodeURIComponent(baoquan)}`)
      ).json()) as ApiEnvelope<{ filehash: string }>)
    : null;
  if (
    !report(
      'page: POST /newAccessCard form action',
      page,
      `HTTP ${page.result.status} → ${page.result.location ?? '(no redirect)'}`,
      view?.data?.filehash,
    )
  )
    exitCode = 1;
} catch (err) {
  process.stderr.write(`bench failed: ${(err as Error).stack ?? String(err)}\n`);
  exitCode = 1;
} finally {
  await running.closeAll();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);
