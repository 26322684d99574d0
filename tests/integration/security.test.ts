/**
 * Caches, redirects, data at rest and cookies, against the real process (the embedded default, production UI build):
 * - private answers are not stored by caches (OWASP ASVS 5.0 14.3.2): logged-in pages, `/api` answers to a bearer
 *   token and answers that set a cookie carry `Cache-Control: no-store`; anonymous public pages and hashed assets
 *   keep theirs;
 * - post-login redirect targets with control characters, backslashes or non-ASCII never give a foreign Location
 *   and never a 5xx;
 * - data at rest is owner-only: DATA_DIR and every folder under it 0700, every file (SQLite and its -wal/-shm,
 *   stored evidence, keys) 0600;
 * - with Secure cookies the session and CSRF cookies carry the `__Host-` prefix (ASVS 5.0 3.3.1); a locked login
 *   says when to try again;
 * - PUBLIC_URL unset: the platform's public origin is the gateway's real listen address, not localhost:3000.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountMsg, AccountPaths } from '../../contract/account.ts';
import { startServer, type RunningServer } from '../../server/start.ts';
import {
  apiLogin,
  BUILD_DIR,
  CookieJar,
  DEMO_MOBILE,
  DEMO_PASSWORD,
  freshDataDir,
  hiddenCsrf,
  multipart,
  postMultipart,
  startWhole,
  testEnv,
  uploadCsrf,
  webLogin,
  type Envelope,
  type Whole,
} from '../support/integration.ts';

/** Redirect values a browser could read as another site (tab, CR/LF, backslashes, non-ASCII, NUL). */
const HOSTILE_REDIRECTS = [
  '/\t/evil.example',
  '/\n/evil.example',
  '/\r\n/evil.example',
  '/\\evil.example',
  '/\\/evil.example',
  '/\u0000/evil.example',
  '/\u3000/evil.example',
  '/é/evil.example',
  '//evil.example',
  'https://evil.example/',
];

/** Asserts a redirect that stays on `base`'s origin and whose Location is printable ASCII. */
function expectLocalRedirect(res: Response, base: string): void {
  expect(res.status, `HTTP ${res.status}`).toBe(302);
  const location = res.headers.get('location') ?? '';
  expect(location).toMatch(/^\/[\x21-\x7e]*$/);
  expect(location.startsWith('//')).toBe(false);
  expect(new URL(location, base).origin).toBe(new URL(base).origin);
}

describe.sequential('private answers, redirects, lockout and PUBLIC_URL on the embedded default', () => {
  let whole: Whole;
  let jar: CookieJar;
  let token: string;

  beforeAll(async () => {
    whole = await startWhole();
    jar = await webLogin(whole.base);
    token = await apiLogin(whole.base);
  });
  afterAll(async () => {
    await whole?.stop();
  });

  it('marks logged-in pages, bearer /api answers and cookie-setting answers no-store', async () => {
    for (const page of ['/newAccessCard', '/attestation-list/file', '/setting', '/address']) {
      const res = await fetch(`${whole.base}${page}`, {
        headers: { cookie: jar.header() },
        redirect: 'manual',
      });
      await res.body?.cancel();
      expect(res.status, page).toBe(200);
      expect(res.headers.get('cache-control'), page).toBe('no-store');
    }
    for (const [method, api] of [
      ['POST', AccountPaths.authInfo],
      ['GET', '/api/data/getList'],
    ] as const) {
      const res = await fetch(`${whole.base}${api}`, {
        method,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(((await res.json()) as Envelope).code, api).toBe(200);
      expect(res.headers.get('cache-control'), api).toBe('no-store');
    }
    // GET /login sets the CSRF cookie: never stored either.
    const login = await fetch(`${whole.base}/login`);
    await login.body?.cancel();
    expect(login.headers.get('set-cookie')).toBeTruthy();
    expect(login.headers.get('cache-control')).toBe('no-store');
  });

  it('marks anonymous /api answers no-store unless the route declares them cacheable (a login token among them)', async () => {
    // RFC 6749 §5.1: an answer carrying a token is never stored; the request itself has no credentials yet
    const login = await fetch(`${whole.base}${AccountPaths.login}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mobile: DEMO_MOBILE, password: DEMO_PASSWORD }),
    });
    const envelope = (await login.json()) as Envelope<{ token?: string }>;
    expect(envelope.code).toBe(200);
    expect(envelope.data?.token).toBeTruthy();
    expect(login.headers.get('cache-control')).toBe('no-store');
    const captcha = await fetch(`${whole.base}${AccountPaths.imgCode}`, { method: 'POST' });
    expect(((await captcha.json()) as Envelope).code).toBe(200);
    expect(captcha.headers.get('cache-control')).toBe('no-store');
    // the region tree is public and says so
    const regions = await fetch(`${whole.base}/api/User/district`);
    expect(((await regions.json()) as Envelope).code).toBe(200);
    expect(regions.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
  });

  it('leaves anonymous public answers and hashed assets cacheable', async () => {
    const health = await fetch(`${whole.base}/healthz`);
    await health.body?.cancel();
    expect(health.headers.get('cache-control') ?? '').not.toContain('no-store');
    const home = await fetch(`${whole.base}/login`);
    const asset = /\/assets\/[^"]+\.js/.exec(await home.text())?.[0];
    expect(asset).toBeTruthy();
    const res = await fetch(`${whole.base}${asset}`, { headers: { cookie: jar.header() } });
    await res.body?.cancel();
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toMatch(/public.*immutable/);
  });

  it('never redirects off-site or fails on a hostile redirect target (logged-in GET /login)', async () => {
    for (const target of HOSTILE_REDIRECTS) {
      const res = await fetch(`${whole.base}/login?redirect=${encodeURIComponent(target)}`, {
        headers: { cookie: jar.header() },
        redirect: 'manual',
      });
      await res.body?.cancel();
      expectLocalRedirect(res, whole.base);
    }
  });

  it('never redirects off-site or fails on a hostile redirect field (POST /login)', async () => {
    for (const target of HOSTILE_REDIRECTS) {
      const fresh = new CookieJar();
      const page = await fetch(`${whole.base}/login`);
      fresh.take(page.headers);
      const csrf = hiddenCsrf(await page.text());
      const res = await fetch(`${whole.base}/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: fresh.header() },
        body: new URLSearchParams({ csrf, mobile: DEMO_MOBILE, password: DEMO_PASSWORD, redirect: target }),
      });
      await res.body?.cancel();
      expectLocalRedirect(res, whole.base);
      expect(res.headers.get('location')).toBe('/attestation-list');
    }
  });

  it('tells a locked login when to try again', async () => {
    const body = new URLSearchParams({ mobile: '13700000001', password: 'wrong12345' });
    const post = async () => {
      const res = await fetch(`${whole.base}${AccountPaths.login}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      return (await res.json()) as Envelope;
    };
    for (let i = 0; i < 10; i++) expect((await post()).msg).toBe(AccountMsg.loginFailed);
    const locked = await post();
    expect(locked).toMatchObject({ code: 429, msg: '登录失败次数过多，请15分钟后再试' });
  });

  it('defaults PUBLIC_URL to the listen address of the start', () => {
    const platform = whole.running.platform!;
    expect(platform.config.publicUrl).toBe(whole.running.url);
    expect(platform.config.billing.alipayNotifyUrl).toBe(`${whole.running.url}/api/notify/alipay`);
    expect(platform.config.billing.wechatNotifyUrl).toBe(`${whole.running.url}/api/notify/wechat`);
  });
});

/** Every entry under `dir` (absolute paths), folders and files. */
function entriesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((p) => path.join(dir, p));
}

describe.sequential('data at rest', () => {
  let parent: string;
  let dataDir: string;
  let running: RunningServer;

  beforeAll(async () => {
    // A DATA_DIR the start has to create itself (mkdtemp would already give 0700).
    parent = freshDataDir();
    dataDir = path.join(parent, 'data');
    running = await startServer(testEnv(dataDir), { mode: 'production', buildDirectory: BUILD_DIR });
  });
  afterAll(async () => {
    await running?.closeAll();
    rmSync(parent, { recursive: true, force: true });
  });

  it('keeps DATA_DIR, its folders and files (database, -wal/-shm, stored files) owner-only', async () => {
    const base = running.url.replace('localhost', '127.0.0.1');
    const jar = await webLogin(base);
    const csrf = await uploadCsrf(base, jar);
    const answer = await postMultipart(`${base}/newAccessCard?csrf=${encodeURIComponent(csrf)}`, {
      headers: { cookie: jar.header() },
      form: multipart({ title: '权限测试', label: '合同' }, 'private.bin'),
      file: randomBytes(64 * 1024),
    });
    expect(answer.status, answer.body.slice(0, 300)).toBe(302);

    const entries = [dataDir, ...entriesUnder(dataDir)];
    const names = entries.map((p) => path.relative(dataDir, p));
    expect(names).toEqual(
      expect.arrayContaining(['cunzheng.sqlite', 'cunzheng.sqlite-wal', 'cunzheng.sqlite-shm']),
    );
    const wrong = entries
      .map((p) => {
        const st = statSync(p);
        const want = st.isDirectory() ? 0o700 : 0o600;
        return { p: path.relative(dataDir, p) || '.', mode: st.mode & 0o777, want };
      })
      .filter((e) => e.mode !== e.want)
      .map((e) => `${e.p} ${e.mode.toString(8)} (want ${e.want.toString(8)})`);
    expect(wrong).toEqual([]);
    expect(entries.filter((p) => statSync(p).isFile()).length).toBeGreaterThan(4);
  });
});

describe.sequential('Secure cookies', () => {
  let whole: Whole;

  beforeAll(async () => {
    whole = await startWhole({ SECURE_COOKIES: 'true' });
  });
  afterAll(async () => {
    await whole?.stop();
  });

  it('names the CSRF and session cookies with the __Host- prefix', async () => {
    const jar = new CookieJar();
    const page = await fetch(`${whole.base}/login`);
    jar.take(page.headers);
    const csrf = hiddenCsrf(await page.text());
    const csrfCookie = page.headers.getSetCookie().join('\n');
    expect(csrfCookie).toMatch(/^__Host-cz_csrf=[^;]+;.*Path=\/.*Secure/im);
    expect(csrfCookie).not.toMatch(/Domain=/i);
    const res = await fetch(`${whole.base}/login`, {
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
    expect(res.status).toBe(302);
    const session = res.headers.getSetCookie().find((c) => c.includes('cz_session=')) ?? '';
    expect(session).toMatch(/^__Host-cz_session=[^;]+;.*Path=\/.*Secure/i);
    expect(session).not.toMatch(/Domain=/i);
    jar.take(res.headers);
    // The prefixed session is the one the gateway reads back: a logged-in page answers.
    const logged = await fetch(`${whole.base}/newAccessCard`, {
      headers: { cookie: jar.header() },
      redirect: 'manual',
    });
    await logged.body?.cancel();
    expect(logged.status).toBe(200);
  });
});

describe.sequential('Secure cookies behind a trusted TLS proxy (TRUST_PROXY, X-Forwarded-Proto)', () => {
  let trusting: Whole;
  let untrusting: Whole;

  beforeAll(async () => {
    // this test's requests come from 127.0.0.1, the proxy TRUST_PROXY names; the other gateway trusts nobody
    [trusting, untrusting] = await Promise.all([startWhole({ TRUST_PROXY: '127.0.0.1' }), startWhole({})]);
  });
  afterAll(async () => {
    await Promise.all([trusting?.stop(), untrusting?.stop()]);
  });

  const csrfCookieOf = async (base: string, proto?: string) => {
    const page = await fetch(`${base}/login`, { headers: proto ? { 'x-forwarded-proto': proto } : {} });
    await page.body?.cancel();
    return page.headers.getSetCookie().join('\n');
  };

  it('sets Secure __Host- cookies when the trusted proxy says https, plain ones otherwise', async () => {
    expect(await csrfCookieOf(trusting.base, 'https')).toMatch(/^__Host-cz_csrf=[^;]+;.*Secure/im);
    const plain = await csrfCookieOf(trusting.base, 'http');
    expect(plain).toMatch(/^cz_csrf=/m);
    expect(plain).not.toMatch(/Secure/i);
    expect(await csrfCookieOf(trusting.base)).not.toMatch(/Secure/i);
  });

  it('ignores X-Forwarded-Proto from a peer TRUST_PROXY does not name', async () => {
    const forged = await csrfCookieOf(untrusting.base, 'https');
    expect(forged).toMatch(/^cz_csrf=/m);
    expect(forged).not.toMatch(/Secure/i);
  });
});
