/**
 * The `/login` document of routes/login.tsx with what every page of a signed-in product must do, written the way
 * the libraries' own documentation shows it (decision 032, "Where the goals stop"): the loader reads a signed cookie
 * session (React Router's `createCookieSessionStorage`, HMAC-SHA256 through `createCookie`) and issues a CSRF token
 * in a signed cookie of its own (remix-utils `CSRF`, its `commitToken`), answering `Set-Cookie`. No Conform, user
 * info, logging or security headers. `npm run bench` serves it as `/login-session`, the reference of the page rows.
 */
import { createCookie, createCookieSessionStorage, data, type LoaderFunctionArgs } from 'react-router';
import { CSRF } from 'remix-utils/csrf/server';
import Login, { handle, links, loader as plainLoader, meta } from './login.tsx';

export { handle, links, meta };
export default Login;

/** A fixed secret: the reference is a bench's own server on loopback. */
const SECRET = 'bench-reference-secret-bench-reference-secret';

const sessions = createCookieSessionStorage<{ token?: string }>({
  cookie: { name: 'session', httpOnly: true, sameSite: 'lax', path: '/', secrets: [SECRET] },
});
const csrf = new CSRF({
  cookie: createCookie('csrf', { httpOnly: true, sameSite: 'lax', path: '/', secrets: [SECRET] }),
  secret: SECRET,
});

export async function loader({ request }: LoaderFunctionArgs) {
  // A visitor has none; reading it (parsing and verifying the signed cookie) is what every product page pays.
  const session = await sessions.getSession(request.headers.get('cookie'));
  const [token, cookie] = await csrf.commitToken(request);
  return data(
    { ...plainLoader(), signedIn: session.has('token'), csrf: token },
    cookie ? { headers: { 'set-cookie': cookie } } : undefined,
  );
}
