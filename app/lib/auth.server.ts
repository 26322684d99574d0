/**
 * Login state on the gateway: the one remix-auth `Authenticator` behind both login forms, the route guard (spec 02
 * "Route guard"), the 408 handling (spec 01 §8) and safe redirects. Throwing helpers follow the Epic Stack habit:
 * they throw redirects the router understands.
 */
import type { SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { data, redirect, type AppLoadContext } from 'react-router';
import { Authenticator } from 'remix-auth';
import { FormStrategy } from 'remix-auth-form';
import { safeRedirect } from 'remix-utils/safe-redirect';
import { AccountMsg, AccountPaths, LoginBody, type UserInfo } from '../../contract/account.ts';
import { type ApiEnvelope, isSessionExpired, isSuccess } from '../../contract/envelope.ts';
import { OpsLoginBody, OpsMsg, OpsPaths } from '../../contract/ops.ts';
import { apiCall, type ApiCallOptions } from './api.server.ts';
import { validateCsrf } from './csrf.server.ts';
import { readForm } from './form-body.server.ts';
import { getSession, sessionStorageFor, startSession, type SessionKind } from './session.server.ts';

// ---------------------------------------------------------------------------------------------------------------
// The Authenticator (docs/decisions/015-operator-console-roles.md): one form strategy per kind of account. The
// platform's login call stays the source of truth: a strategy checks the form (CSRF, the contract's schema), posts
// it to the login API and returns the token the platform issued; throttling is the platform's, for both.
// ---------------------------------------------------------------------------------------------------------------

/** A login one of the form strategies made. */
export interface FormLogin {
  token: string;
  /** Seconds the token lives. */
  expiresIn: number;
  /** Who logged in (the operator's username; '' for users). */
  name: string;
  /** The submitted form (for its `redirect` field). */
  form: FormData;
}

/** A login the form or the platform refused: the Conform reply to show (password cleared). */
class LoginRefused extends Error {
  readonly result: SubmissionResult<string[]>;
  constructor(result: SubmissionResult<string[]>) {
    super('login refused');
    this.result = result;
  }
}

/** What each form strategy checks and calls. */
const LOGINS = {
  user: { schema: LoginBody, path: AccountPaths.login, urlPath: '/login', failMsg: AccountMsg.loginFailed },
  ops: { schema: OpsLoginBody, path: OpsPaths.login, urlPath: '/ops/login', failMsg: OpsMsg.loginFailed },
} as const;

/** The form strategy of `kind`: CSRF, the contract's schema, then the platform's login call. */
function loginStrategy(ctx: AppLoadContext, kind: SessionKind): FormStrategy<FormLogin> {
  const { schema, path, urlPath, failMsg } = LOGINS[kind];
  return new FormStrategy<FormLogin>(async ({ form, request }) => {
    await validateCsrf(form, request, ctx);
    const submission = parseWithZod(form, { schema });
    if (submission.status !== 'success')
      throw new LoginRefused(submission.reply({ hideFields: ['password'] }));
    const res = await apiCall<{ token: string; expiresIn: number; operator?: { username?: string } }>(
      ctx,
      path,
      {
        body: submission.value,
        urlPath,
      },
    );
    if (!isSuccess(res.code)) {
      throw new LoginRefused(
        submission.reply({ formErrors: [res.msg || failMsg], hideFields: ['password'] }),
      );
    }
    const name = kind === 'ops' ? (res.data.operator?.username ?? String(form.get('username') ?? '')) : '';
    return { token: res.data.token, expiresIn: res.data.expiresIn, name, form };
  });
}

/** The Authenticator of one request (the strategies need its load context): `user` and `ops`. */
export function authenticatorFor(ctx: AppLoadContext): Authenticator<FormLogin> {
  return new Authenticator<FormLogin>()
    .use(loginStrategy(ctx, 'user'), 'user')
    .use(loginStrategy(ctx, 'ops'), 'ops');
}

/**
 * The action of both login forms (`/login`, `/ops/login`): authenticates with the `kind` strategy, then starts that
 * session and redirects to `target(form.redirect)`; a refused login answers the Conform reply with status 400.
 * @throws a 403 response for a bad CSRF token; a 502 response when the platform cannot be reached
 */
export async function loginAction(
  request: Request,
  ctx: AppLoadContext,
  kind: SessionKind,
  target: (to: FormDataEntryValue | null) => string,
) {
  // The strategy reads the body with `request.formData()`, unbounded: give it the form read within the limit.
  const form = await readForm(request, ctx);
  const bounded = new Request(request.url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Cookie: request.headers.get('Cookie') ?? '',
    },
    body: new URLSearchParams(
      [...form].filter((e): e is [string, string] => typeof e[1] === 'string'),
    ).toString(),
  });
  let login: FormLogin;
  try {
    login = await authenticatorFor(ctx).authenticate(kind, bounded);
  } catch (err) {
    if (err instanceof LoginRefused) return data({ result: err.result }, { status: 400 });
    throw err;
  }
  return redirect(target(login.form.get('redirect')), {
    headers: { 'Set-Cookie': await startSession(request, ctx, kind, login) },
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Guards
// ---------------------------------------------------------------------------------------------------------------

/** The path plus query of a request, for `redirect=` and X-URL-PATH. */
export function pathOf(request: Request): string {
  const url = new URL(request.url);
  return url.pathname + url.search;
}

/** `/login?redirect=<path>` (plus `expired=1` when the upstream said the session ended). */
export function loginUrl(redirectTo: string, expired = false): string {
  const params = new URLSearchParams({ redirect: redirectTo });
  if (expired) params.set('expired', '1');
  return `/login?${params}`;
}

/** Anything but printable ASCII: control characters (tab, CR, LF …), space, DEL, non-ASCII; and backslashes. */
const UNSAFE_TARGET_CHARS = /[^\x21-\x7e]|\\/;

/** Origin used only to resolve a target the way a browser would (it never leaves this function). */
const PROBE_ORIGIN = 'http://target.invalid';

/**
 * Only same-site paths are accepted as a post-login target (OWASP ASVS 5.0 "open redirect"): `to` must start with
 * one `/`, hold nothing but printable ASCII without backslashes (browsers drop tabs and CR/LF and read `\` as `/`,
 * so `/\t/evil.example` would leave the site), contain no `..`, and resolve to this origin. Anything else gives
 * `fallback`; never throws.
 */
export function safeTarget(
  to: FormDataEntryValue | string | null | undefined,
  fallback = '/attestation-list',
): string {
  if (typeof to !== 'string') return fallback;
  const trimmed = to.trim();
  if (UNSAFE_TARGET_CHARS.test(trimmed)) return fallback;
  const target = safeRedirect(trimmed, fallback);
  try {
    return new URL(target, PROBE_ORIGIN).origin === PROBE_ORIGIN ? target : fallback;
  } catch {
    return fallback;
  }
}

/** The session's upstream token, or null. */
export async function getToken(request: Request, ctx: AppLoadContext): Promise<string | null> {
  return (await getSession(request, ctx)).get('token') ?? null;
}

/** A redirect to the login page that also clears the session cookie (spec 01 §6, §8). */
export async function expiredRedirect(
  request: Request,
  ctx: AppLoadContext,
  expired: boolean,
): Promise<Response> {
  const storage = sessionStorageFor(ctx);
  const session = await storage.getSession(request.headers.get('Cookie'));
  return redirect(loginUrl(pathOf(request), expired), {
    headers: { 'Set-Cookie': await storage.destroySession(session) },
  });
}

/**
 * Route guard for login-required routes: returns the token, or throws a redirect to `/login?redirect=<path>`.
 */
export async function requireToken(request: Request, ctx: AppLoadContext): Promise<string> {
  const token = await getToken(request, ctx);
  if (!token) throw await expiredRedirect(request, ctx, false);
  return token;
}

/** For /login and /register: a logged-in visitor goes on to the target instead. */
export async function requireAnonymous(request: Request, ctx: AppLoadContext): Promise<void> {
  if (await getToken(request, ctx)) {
    throw redirect(safeTarget(new URL(request.url).searchParams.get('redirect')));
  }
}

/**
 * Calls the upstream with the session's token. An expired session (408, or 403 off the home path) throws a redirect
 * to login with the spec's message and clears the cookie.
 */
export async function authedCall<T>(
  request: Request,
  ctx: AppLoadContext,
  path: string,
  opts: Omit<ApiCallOptions, 'token' | 'urlPath'> = {},
): Promise<ApiEnvelope<T>> {
  const token = await requireToken(request, ctx);
  const urlPath = new URL(request.url).pathname;
  const res = await apiCall<T>(ctx, path, { ...opts, token, urlPath, signal: opts.signal ?? request.signal });
  if (isSessionExpired(res.code, urlPath)) throw await expiredRedirect(request, ctx, true);
  return res;
}

/** The user info answer of a GET request's token (the root loader and a route's loader run side by side). */
const userInfoAnswers = new WeakMap<
  AppLoadContext,
  { token: string; answer: Promise<ApiEnvelope<UserInfo>> }
>();

/**
 * `POST authInfo` with `token`, asked once per GET request (`ctx` is per request): the root loader (top bar) and a
 * route's loader (settings, the KYC gate) share one upstream call. A POST asks afresh each time, as its action may
 * have changed what the answer says before its loaders run.
 */
function userInfoAnswer(
  request: Request,
  ctx: AppLoadContext,
  token: string,
): Promise<ApiEnvelope<UserInfo>> {
  const shared = request.method === 'GET' || request.method === 'HEAD';
  const kept = shared ? userInfoAnswers.get(ctx) : undefined;
  if (kept && kept.token === token) return kept.answer;
  const answer = apiCall<UserInfo>(ctx, AccountPaths.authInfo, {
    method: 'POST',
    token,
    urlPath: new URL(request.url).pathname,
  });
  if (shared) userInfoAnswers.set(ctx, { token, answer });
  return answer;
}

/** The logged-in user's info, or null for a visitor or an ended session (no redirect: for the top bar). */
export async function optionalUser(
  request: Request,
  ctx: AppLoadContext,
): Promise<{ user: UserInfo | null; ended: boolean }> {
  const token = await getToken(request, ctx);
  if (!token) return { user: null, ended: false };
  const res = await userInfoAnswer(request, ctx, token);
  if (isSuccess(res.code)) return { user: res.data, ended: false };
  return { user: null, ended: true };
}

/**
 * The logged-in user's info envelope for a login-required page (shares the root loader's call on a GET).
 * @throws a redirect to login when there is no session, or when it has expired (clearing the cookie)
 */
export async function requireUserInfo(request: Request, ctx: AppLoadContext): Promise<ApiEnvelope<UserInfo>> {
  const token = await requireToken(request, ctx);
  const res = await userInfoAnswer(request, ctx, token);
  if (isSessionExpired(res.code, new URL(request.url).pathname))
    throw await expiredRedirect(request, ctx, true);
  return res;
}
