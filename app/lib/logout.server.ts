/**
 * Logging out, for the user (`/logout`, spec 01 §4, spec 02 "Session") and the operator console (`/ops/logout`,
 * decision 013): check the CSRF token, revoke the bearer token on the platform (best effort: a platform that is
 * down must not keep anyone logged in on this browser), clear that one cookie session and redirect. The other
 * session of the same browser is left alone.
 */
import { redirect, type AppLoadContext } from 'react-router';
import { AccountPaths } from '../../contract/account.ts';
import { OpsPaths } from '../../contract/ops.ts';
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
  if (token) {
    await apiCall(context, logoutPath, { method: 'POST', token, urlPath }).catch(() => null);
  }
  return redirect(to, { headers: { 'Set-Cookie': cleared } });
}
