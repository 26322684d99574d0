/**
 * The `/login` document of routes/login.tsx with what every page of a signed-in product must do (visitor.server.ts:
 * a signed cookie session read, a CSRF token issued in its own signed cookie), answering `Set-Cookie`. `npm run
 * bench` serves it as `/login-session`, the reference of the `/login` and `/queryAuthentication` rows (decision 032).
 */
import { data } from 'react-router';
import { visitor } from '../visitor.server.ts';
import Login, { handle, links, loader as plainLoader, meta } from './login.tsx';

export { handle, links, meta };
export default Login;

export async function loader({ request }: { request: Request }) {
  const { signedIn, csrf, headers } = await visitor(request);
  return data({ ...plainLoader(), signedIn, csrf }, headers ? { headers } : undefined);
}
