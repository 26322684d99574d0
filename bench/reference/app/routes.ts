/** The reference app's one route: a bare login form page (the product's `/login` without its machinery). */
import { type RouteConfig, index } from '@react-router/dev/routes';

export default [index('routes/login.tsx')] satisfies RouteConfig;
