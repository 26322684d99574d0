/**
 * The reference app's routes (decision 032): `/` a minimal login form (no frame), `/login` the product's `/login`
 * document rendered by plain React Router components without the product's machinery, `/login-session` the same
 * document behind a signed cookie session and a CSRF cookie, `/attestation/{baoquan}` the product's certificate page
 * for a visitor (its evidence read from the platform at UPSTREAM_URL) behind the same, `/plain/attestation/{baoquan}`
 * that page without them.
 */
import { type RouteConfig, index, route } from '@react-router/dev/routes';

export default [
  index('routes/minimal.tsx'),
  route('login', 'routes/login.tsx'),
  route('login-session', 'routes/login-session.tsx'),
  route('attestation/:baoquan', 'routes/certificate.tsx'),
  route('plain/attestation/:baoquan', 'routes/certificate-plain.tsx'),
] satisfies RouteConfig;
