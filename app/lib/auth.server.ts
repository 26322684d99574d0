/**
 * Login state on the gateway: the route guard (spec 02 "Route guard"), the 408 handling (spec 01 §8) and safe
 * redirects. Throwing helpers follow the Epic Stack habit: they throw redirects the router understands.
 */
import { redirect, type AppLoadContext } from 'react-router';
import { safeRedirect } from 'remix-utils/safe-redirect';
import {
  AccountPaths,
  isSessionExpired,
  isSuccess,
  type ApiEnvelope,
  type UserInfo,
} from '../../contract/index.ts';
import { apiCall, type ApiCallOptions } from './api.server.ts';
import { getSession, sessionStorageFor } from './session.server.ts';

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

/** Only same-site paths are accepted as a post-login target. */
export function safeTarget(
  to: FormDataEntryValue | string | null | undefined,
  fallback = '/attestation-list',
): string {
  return safeRedirect(to, fallback);
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

/** The logged-in user's info, or null for a visitor or an ended session (no redirect: for the top bar). */
export async function optionalUser(
  request: Request,
  ctx: AppLoadContext,
): Promise<{ user: UserInfo | null; ended: boolean }> {
  const token = await getToken(request, ctx);
  if (!token) return { user: null, ended: false };
  const res = await apiCall<UserInfo>(ctx, AccountPaths.authInfo, {
    method: 'POST',
    token,
    urlPath: new URL(request.url).pathname,
  });
  if (isSuccess(res.code)) return { user: res.data, ended: false };
  return { user: null, ended: true };
}
