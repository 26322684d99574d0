/**
 * Playwright fixtures that log in without driving a login form: the token comes from the platform's login API
 * (through the gateway's `/api` proxy) and is sealed into the gateway's own session cookie by the gateway's session
 * storage (`app/lib/session.server.ts`: `cz_session` for users, `cz_ops` for operators), with the fixed
 * SESSION_SECRET the e2e server runs with (playwright.config.ts). The forms themselves keep their own tests:
 * account.spec.ts and guard-and-validation.spec.ts (the user login, its messages and the `?redirect=` round trip)
 * and ops.spec.ts (the operator login).
 *
 * Specs import `test` and `expect` from here instead of `@playwright/test`.
 */
import { test as base, expect, type Page } from '@playwright/test';
import type { SessionStorage } from 'react-router';
import { opsSessionStorageFor, sessionStorageFor } from '../../app/lib/session.server.ts';
import { apiLogin, apiRegister, setUserStatus, uniqueMobile } from './e2e.ts';
import { testSetting } from './environment.ts';

/** Credentials of a user (mobile) or an operator (username). */
export interface Credentials {
  mobile: string;
  password: string;
}

/** What the fixtures add to a test's arguments. */
export interface LoginFixtures {
  /**
   * Logs `user` in on `target` (default: the test's page) by setting its `cz_session` cookie, then opens `path` and
   * expects to stay there (no redirect to /login).
   */
  loginAs: (user: Credentials, path: string, target?: Page) => Promise<void>;
  /**
   * Registers a fresh account through the API and logs it in as {@link LoginFixtures.loginAs} does; lands on
   * `path`. The account is made verified (userStatus 3, personal, photo) through the test hook, because saving
   * evidence needs it (the KYC gate, spec 02 §6); `{ verified: false }` leaves it unverified (userStatus 1, no
   * account type), as registration does.
   */
  freshUser: (path: string, opts?: { verified?: boolean }) => Promise<Credentials>;
  /** Logs operator `op` into the console on `target` by setting its `cz_ops` cookie; lands on /ops. */
  opsLoginAs: (op: { username: string; password: string }, target: Page) => Promise<void>;
}

/** The secret the e2e server seals sessions with; playwright.config.ts sets it for the server and the runner. */
function sessionContext() {
  const secret = testSetting('E2E_SESSION_SECRET');
  if (!secret) throw new Error('E2E_SESSION_SECRET is not set (playwright.config.ts sets it)');
  return { sessionSecrets: [secret], secureCookies: false };
}

/** Seals `data` into a cookie with the gateway's own storage. @returns the cookie's name and value */
async function sealedCookie<T extends object>(
  storage: SessionStorage<T>,
  data: T,
): Promise<{ name: string; value: string }> {
  const session = await storage.getSession(null);
  for (const [key, value] of Object.entries(data)) session.set(key as keyof T & string, value);
  const pair = (await storage.commitSession(session)).split(';')[0]!;
  const eq = pair.indexOf('=');
  return { name: pair.slice(0, eq), value: pair.slice(eq + 1) };
}

/** Adds a sealed cookie to the browser context of `target`, for the server at `baseURL`. */
async function setCookie(target: Page, baseURL: string, cookie: { name: string; value: string }) {
  await target.context().addCookies([{ ...cookie, url: baseURL, httpOnly: true, sameSite: 'Lax' }]);
}

/** Escapes `path` for a URL regular expression the way the form-login helpers did. */
const urlOf = (path: string) => new RegExp(`:\\d+${path.replace(/[?]/g, '\\?')}$`);

export const test = base.extend<LoginFixtures>({
  loginAs: async ({ page, request, baseURL }, use) => {
    await use(async (user, path, target = page) => {
      const { token, expiresIn } = await apiLogin(request, user.mobile, user.password);
      const expiresAt = Math.floor(Date.now() / 1000) + expiresIn;
      await setCookie(
        target,
        baseURL!,
        await sealedCookie(sessionStorageFor(sessionContext()), { token, expiresAt }),
      );
      await target.goto(path);
      await expect(target).toHaveURL(urlOf(path));
    });
  },
  freshUser: async ({ request, loginAs }, use) => {
    await use(async (path, opts = {}) => {
      const mobile = uniqueMobile();
      const password = 'abc12345';
      await apiRegister(request, mobile, password);
      if (opts.verified !== false) await setUserStatus(request, mobile, '3', 1, 1);
      await loginAs({ mobile, password }, path);
      return { mobile, password };
    });
  },
  opsLoginAs: async ({ request, baseURL }, use) => {
    await use(async (op, target) => {
      const res = await request.post('/api/ops/login', { data: op });
      const body = (await res.json()) as {
        code: number;
        msg: string;
        data: { token: string; expiresIn: number; operator: { username: string } };
      };
      expect(body.code, body.msg).toBe(200);
      const data = {
        opsToken: body.data.token,
        opsName: body.data.operator.username,
        expiresAt: Math.floor(Date.now() / 1000) + body.data.expiresIn,
      };
      await setCookie(target, baseURL!, await sealedCookie(opsSessionStorageFor(sessionContext()), data));
      await target.goto('/ops');
      await expect(target).toHaveURL(/:\d+\/ops$/);
    });
  },
});

export { expect };
