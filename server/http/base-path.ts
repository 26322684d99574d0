/**
 * Serving the whole site under a path prefix (BASE_PATH, e.g. `/cunzheng`) behind a corporate gateway that forwards
 * `https://corp.example/cunzheng/…` unchanged (docs/decisions/047-base-path.md). Chosen at run
 * time, so one image serves any prefix:
 * - {@link stripBasePath}: Fastify's `rewriteUrl` removes the prefix, so the gateway's own routes (`/api`, PDFs,
 *   packages, assets, health) keep their root paths; `request.originalUrl` keeps the prefix, and that is the URL the
 *   React Router adapter gives the app.
 * - {@link withBasePath}: the server build with React Router's `basename` (links, forms and redirects get the prefix,
 *   the browser's router hydrates with it) and every asset URL of its manifest prefixed; the app's loaders and
 *   actions are given their request with the prefix removed, so the app's code reasons about root paths as before
 *   (`redirect=` targets, X-URL-PATH, path comparisons) and React Router prefixes what it sends back.
 * With BASE_PATH unset both are identities (nothing is wrapped).
 */
import type { ServerBuild } from 'react-router';

declare module 'fastify' {
  interface FastifyInstance {
    /** BASE_PATH as server/config/server.ts normalises it: '' at the root, else `/cunzheng` (decorated by buildServer). */
    basePath: string;
  }
}

/**
 * The URL `url` (path and query, as in an HTTP request line) with `basePath` removed when it starts with it
 * (`/cunzheng`, `/cunzheng/`, `/cunzheng?x` and `/cunzheng/a` do; `/cunzhengx` does not); other URLs unchanged.
 * @param basePath '' or a prefix with a leading slash and no trailing one (server/config/server.ts)
 */
export function stripBasePath(url: string, basePath: string): string {
  if (!basePath || !url.startsWith(basePath)) return url;
  const rest = url.slice(basePath.length);
  if (rest === '') return '/';
  if (rest.startsWith('/')) return rest;
  if (rest.startsWith('?')) return `/${rest}`;
  return url;
}

/** A copy of `request` whose URL has `basePath` removed from its path (same method, headers, body and signal). */
function requestAtRoot(request: Request, basePath: string): Request {
  const url = new URL(request.url);
  const path = stripBasePath(url.pathname + url.search, basePath);
  if (path === url.pathname + url.search) return request;
  const init: RequestInit & { duplex?: 'half' } = {
    method: request.method,
    headers: request.headers,
    signal: request.signal,
  };
  if (request.body) {
    init.body = request.body;
    init.duplex = 'half';
  }
  return new Request(new URL(path + url.hash, url.origin), init);
}

type ServerRoute = NonNullable<ServerBuild['routes'][string]>;
type RouteModule = ServerRoute['module'];
type DataFunction = NonNullable<RouteModule['loader']>;

/**
 * The server build of the app served under `basePath`: `basename` and `publicPath` set, every URL of the assets
 * manifest (entry, route modules, their imports and CSS, the manifest itself) prefixed, and each route's `loader`
 * and `action` called with the request at the root (one copy per request, shared by its loaders). `build` itself is
 * not changed. Returns `build` unchanged when `basePath` is ''.
 */
export function withBasePath(build: ServerBuild, basePath: string): ServerBuild {
  if (!basePath) return build;
  const prefix = (url: string) => (url.startsWith('/') && !url.startsWith('//') ? basePath + url : url);
  const prefixAll = (urls: string[] | undefined) => urls?.map(prefix);
  const atRoot = new WeakMap<Request, Request>();
  const rooted = (request: Request) => {
    let copy = atRoot.get(request);
    if (!copy) atRoot.set(request, (copy = requestAtRoot(request, basePath)));
    return copy;
  };
  const wrap =
    (fn: DataFunction): DataFunction =>
    (args, ...rest) =>
      fn({ ...args, request: rooted(args.request) }, ...rest);

  const routes: ServerBuild['routes'] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    if (!route) continue;
    const module: RouteModule = { ...route.module };
    if (route.module.loader) module.loader = wrap(route.module.loader);
    if (route.module.action) module.action = wrap(route.module.action);
    routes[id] = { ...route, module };
  }
  const manifestRoutes: ServerBuild['assets']['routes'] = {};
  for (const [id, route] of Object.entries(build.assets.routes)) {
    if (!route) continue;
    manifestRoutes[id] = {
      ...route,
      module: prefix(route.module),
      ...(route.imports ? { imports: prefixAll(route.imports) } : {}),
      ...(route.css ? { css: prefixAll(route.css) } : {}),
      ...(route.clientActionModule ? { clientActionModule: prefix(route.clientActionModule) } : {}),
      ...(route.clientLoaderModule ? { clientLoaderModule: prefix(route.clientLoaderModule) } : {}),
      ...(route.clientMiddlewareModule
        ? { clientMiddlewareModule: prefix(route.clientMiddlewareModule) }
        : {}),
      ...(route.hydrateFallbackModule ? { hydrateFallbackModule: prefix(route.hydrateFallbackModule) } : {}),
    };
  }
  const sri = build.assets.sri;
  return {
    ...build,
    basename: basePath,
    publicPath: `${basePath}${build.publicPath}`,
    routes,
    assets: {
      ...build.assets,
      entry: {
        module: prefix(build.assets.entry.module),
        imports: build.assets.entry.imports.map(prefix),
      },
      routes: manifestRoutes,
      url: prefix(build.assets.url),
      ...(sri && sri !== true
        ? { sri: Object.fromEntries(Object.entries(sri).map(([u, h]) => [prefix(u), h])) }
        : {}),
    },
  };
}
