/**
 * Logging out, for the user (`/logout`, spec 01 §4, spec 02 "Session") and the operator console (`/ops/logout`,
 * decision 013): check the CSRF token, revoke the bearer token on the platform (best effort: a platform that is
 * down must not keep anyone logged in on this browser), clear that one cookie session and redirect. The other
 * session of the same browser is left alone.
 *
 * The user's logout lands on `/` with the logout call's message (spec 01 §4: shown when the code is 200, 400 or
 * 408): `?notice=loggedOut` (退出成功) for 200, `?notice=expired` (长时间未操作，请重新登录) for 400 and 408, the
 * token having been refused; nothing when the call failed or there was no token. A key, not the upstream's text, goes
 * into the URL, so that nobody can make the home page say what they like (decision 009).
 */
import { redirect, type AppLoadContext } from 'react-router';
import { AccountPaths } from '../../contract/account.ts';
import { OpsPaths } from '../../contract/ops.ts';
import { ApiCode } from '../../contract/envelope.ts';
import { apiCall } from './api.server.ts';
import { validateCsrf } from './csrf.server.ts';
import { opsSessionStorageFor, sessionStorageFor } from './session.server.ts';
import { readForm } from './form-body.server.ts';

const KINDS = {
  user: { logoutPath: AccountPaths.logout, urlPath: '/logout', to: '/' },
  ops: { logoutPath: OpsPaths.logout, urlPath: '/ops/logout', to: '/ops/login?done=logout' },
} as const;

/** Returns the redirect (with the clearing Set-Cookie) that ends the `kind` session of the request. */
export async function logoutAction(
  request: Request,
  context: AppLoadContext,
  kind: keyof typeof KINDS,
): Promise<Response> {
  await validateCsrf(await readForm(request, context), request, context);
  const { logoutPath, urlPath, to } = KINDS[kind];
  const cookie = request.headers.get('Cookie');
  let token: string | undefined;
  let cleared: string;
  if (kind === 'user') {
    const storage = sessionStorageFor(context);
    const session = await storage.getSession(cookie);
    token = session.get('token');
    cleared = await storage.destroySession(session);
  } else {
    const storage = opsSessionStorageFor(context);
    const session = await storage.getSession(cookie);
    token = session.get('opsToken');
    cleared = await storage.destroySession(session);
  }
  const answer = token
    ? await apiCall(context, logoutPath, { method: 'POST', token, urlPath }).catch(() => null)
    : null;
  return redirect(kind === 'user' ? withLogoutNotice(to, answer?.code) : to, {
    headers: { 'Set-Cookie': cleared },
  });
}

/** `to` with the notice of a logout call that answered `code` (undefined: no call, or it failed). */
function withLogoutNotice(to: string, code: number | string | undefined): string {
  const n = Number(code);
  if (n === ApiCode.OK) return `${to}?notice=loggedOut`;
  if (n === ApiCode.BAD_REQUEST || n === ApiCode.SESSION_EXPIRED) return `${to}?notice=expired`;
  return to;
}
