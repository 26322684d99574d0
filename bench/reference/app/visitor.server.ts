/**
 * What every page of the reference app that stands for a product page does for its visitor, written the way the
 * libraries' own documentation shows it (decision 032, "Where the goals stop"): read a signed cookie session (React
 * Router's `createCookieSessionStorage`, HMAC-SHA256 through `createCookie`) and issue a CSRF token in a signed
 * cookie of its own (remix-utils `CSRF`, its `commitToken`). No Conform, user info, logging or security headers.
 */
import { createCookie, createCookieSessionStorage } from 'react-router';
import { CSRF } from 'remix-utils/csrf/server';

/** A fixed secret: the reference is a bench's own server on loopback. */
const SECRET = 'bench-reference-secret-bench-reference-secret';

const sessions = createCookieSessionStorage<{ token?: string }>({
  cookie: { name: 'session', httpOnly: true, sameSite: 'lax', path: '/', secrets: [SECRET] },
});
const csrf = new CSRF({
  cookie: createCookie('csrf', { httpOnly: true, sameSite: 'lax', path: '/', secrets: [SECRET] }),
  secret: SECRET,
});

/** The visitor of `request`: whether its session holds a token, a CSRF token, and the `Set-Cookie` headers to send. */
export async function visitor(
  request: Request,
): Promise<{ signedIn: boolean; csrf: string; headers: Record<string, string> | undefined }> {
  // A visitor has none; reading it (parsing and verifying the signed cookie) is what every product page pays.
  const session = await sessions.getSession(request.headers.get('cookie'));
  const [token, cookie] = await csrf.commitToken(request);
  return {
    signedIn: session.has('token'),
    csrf: token,
    headers: cookie ? { 'set-cookie': cookie } : undefined,
  };
}
