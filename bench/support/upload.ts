/**
 * The upload benches' client (`bench/upload.ts`, the upload rows of `bench/run.ts`): a generated file streamed from
 * disk as a hand-written multipart body (nothing holds the file in memory; Content-Length exact), a login through
 * the `/login` form for the no-JS form action, and the CSRF field of a page.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import http from 'node:http';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';

export const MiB = 1024 * 1024;

/**
 * Writes `size` random bytes to `file` in 1 MiB chunks and returns their SHA-256 (hex). The file is flushed to disk
 * (fsync) before this returns, so its writeback does not run beside the first upload measured.
 */
export async function generateFile(file: string, size: number): Promise<string> {
  const hash = createHash('sha256');
  const out = createWriteStream(file, { flush: true });
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

/** What an upload answered, and how long it took from the first byte sent to the last byte of the answer. */
export interface UploadAnswer {
  status: number;
  location: string | undefined;
  body: string;
  /** Seconds. */
  seconds: number;
}

/**
 * POSTs `file` (`size` bytes) as the `file` part of a multipart body (with `title` and `label` fields) to `url`,
 * with the `auth` headers (a bearer token, or the session cookie with the CSRF token in the URL).
 */
export async function uploadMultipart(
  url: string,
  auth: Record<string, string>,
  file: string,
  size: number,
): Promise<UploadAnswer> {
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
  const started = performance.now();
  const req = http.request(url, {
    method: 'POST',
    headers: {
      ...auth,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(head.length + size + tail.length),
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
    seconds: (performance.now() - started) / 1000,
  };
}

/** Cookie jar of one client: name → value from Set-Cookie headers. */
export class CookieJar {
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
export function csrfOf(html: string): string {
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

/** Logs the demo account in through the `/login` form (no JavaScript) and returns the cookie jar holding the session. */
export async function pageLogin(base: string, password: string): Promise<CookieJar> {
  const jar = new CookieJar();
  const page = await fetch(`${base}/login`);
  jar.take(page);
  const form = new URLSearchParams({
    csrf: csrfOf(await page.text()),
    mobile: '13800138000',
    password,
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

/**
 * The URL and headers of the no-JS `/newAccessCard` form action for the session in `jar` (its CSRF token read from
 * the form page).
 */
export async function formUploadTarget(
  base: string,
  jar: CookieJar,
): Promise<{ url: string; headers: Record<string, string> }> {
  const formPage = await fetch(`${base}/newAccessCard`, { headers: { cookie: jar.header() } });
  const csrf = csrfOf(await formPage.text());
  return { url: `${base}/newAccessCard?csrf=${encodeURIComponent(csrf)}`, headers: { cookie: jar.header() } };
}
