/**
 * The reference app's routes (decision 032): `/` a minimal login form (no frame), `/login` the product's `/login`
 * document rendered by plain React Router components without the product's machinery, `/login-session` the same
 * document behind a signed cookie session and a CSRF cookie.
 */
import { type RouteConfig, index, route } from '@react-router/dev/routes';

export default [
  index('routes/minimal.tsx'),
  route('login', 'routes/login.tsx'),
  route('login-session', 'routes/login-session.tsx'),
] satisfies RouteConfig;
