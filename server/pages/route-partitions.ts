/**
 * Route partitions (decision 051): the UI's build cut into one smaller build per first path segment,
 * so that a page request is handled by React Router against the few routes that can match it instead of all of
 * them.
 *
 * Why: React Router 7.18 walks every route branch of the build three times per document request (the server's own
 * match, the static handler's query, and the partial manifest of lazy route discovery, which also matches each
 * parent path) and rebuilds the whole route tree for `<ServerRouter>` on every render. With the spec's ~110 routes
 * that was about 0.3 ms of CPU and a third of the garbage of an anonymous page (`/login`: 0.71 ms of 2.2 ms in
 * React Router against 0.39 ms for the same document in a build of three routes).
 *
 * The rule, which keeps every answer what the whole build would give:
 * - React Router matches a path segment by segment against each branch, case-insensitively (ASCII; a route may ask
 *   for case-sensitivity, which only narrows it), after `decodeURIComponent` of each segment. A path whose first
 *   segment is `k` can therefore only match branches whose first segment is `k` (compared in lower case), branches
 *   whose first segment is dynamic (`:param`, `:param?`, `*`), or an index route with an empty path (the path `/`).
 * - The partition of `k` holds exactly those routes and their ancestors (the root, layouts), in the build's order
 *   (siblings rank by order), and the asset manifest's entries of the same routes (the partial manifest sent to the
 *   browser lists the matched routes, and the parents' matches, all inside the partition).
 * - Whatever this cannot read the same way React Router does goes to the whole build: the lazy-discovery manifest
 *   endpoint (it answers for any path the browser asks about), a path with an empty segment (`//`), a segment that
 *   does not decode or is not ASCII once decoded.
 * A first segment no route has gets the partition of the dynamic routes alone (here the catch-all 404 page), which is
 * also what the whole build would match.
 */
import { createRequestHandler, type ReactRouterFastifyOptions } from '@mcansh/remix-fastify/react-router';
import type { ServerBuild } from 'react-router';

type ServerRoute = NonNullable<ServerBuild['routes'][string]>;
/** The adapter's load-context function and request handler (its types, for the server it is given). */
export type LoadContextGetter = NonNullable<Parameters<typeof createRequestHandler>[0]['getLoadContext']>;
type PageHandler = ReturnType<typeof createRequestHandler>;

/** The partitions of one build. */
export interface RoutePartitions {
  /**
   * The build that serves `pathname` (the request's path without the base path and query, still URL-encoded), or
   * null when the whole build must (see the module's rule). The same object for every path of one partition.
   */
  buildFor(pathname: string): ServerBuild | null;
  /** The first segments (lower case) that have a partition of their own, for tests. */
  readonly keys: readonly string[];
}

/** A route's key: its first path segment in lower case, '' for an empty path, null for a dynamic one. */
function keyOfPath(fullPath: string): string | null {
  const first = fullPath.split('/').find((segment) => segment !== '') ?? '';
  if (first === '') return '';
  if (first.startsWith(':') || first.includes('*') || first.endsWith('?')) return null;
  return first.toLowerCase();
}

/** `routes`' full paths: each route's own path joined to its ancestors' ('' for pathless and index routes). */
function fullPaths(routes: ServerBuild['routes']): Map<string, string> {
  const paths = new Map<string, string>();
  const resolve = (route: ServerRoute): string => {
    const known = paths.get(route.id);
    if (known !== undefined) return known;
    const parent = route.parentId ? routes[route.parentId] : undefined;
    const own = route.path ?? '';
    const full = own.startsWith('/') || !parent ? own : [resolve(parent), own].filter(Boolean).join('/');
    paths.set(route.id, full);
    return full;
  };
  for (const route of Object.values(routes)) if (route) resolve(route);
  return paths;
}

/** `build` with only the routes in `ids` (their order kept) in both its route table and its asset manifest. */
function pruned(build: ServerBuild, ids: Set<string>): ServerBuild {
  const routes: ServerBuild['routes'] = {};
  for (const [id, route] of Object.entries(build.routes)) if (ids.has(id)) routes[id] = route;
  const manifestRoutes: ServerBuild['assets']['routes'] = {};
  for (const [id, entry] of Object.entries(build.assets.routes)) if (ids.has(id)) manifestRoutes[id] = entry;
  return { ...build, routes, assets: { ...build.assets, routes: manifestRoutes } };
}

/** What React Router strips from a data request's path before it matches (`getNormalizedPath`, per future flag). */
function withoutDataSuffix(pathname: string, build: ServerBuild): string {
  if (!pathname.endsWith('.data')) return pathname;
  if (build.future.v8_trailingSlashAwareDataRequests) {
    return pathname.endsWith('/_.data')
      ? pathname.slice(0, -'_.data'.length)
      : pathname.slice(0, -'.data'.length);
  }
  return pathname === '/_root.data' ? '/' : pathname.slice(0, -'.data'.length);
}

/** Printable ASCII a route's static segment can hold; anything else goes to the whole build. */
const PLAIN_SEGMENT = /^[\x21-\x7e]*$/;

/**
 * Cuts `build` into partitions by first path segment (see the module's rule). Pure: the build is not changed, route
 * modules are shared. Under a base path, `pathname` given to `buildFor` is the path below it.
 */
export function partitionRoutes(build: ServerBuild): RoutePartitions {
  const paths = fullPaths(build.routes);
  const keyed = new Map<string, string[]>();
  const everywhere: string[] = [];
  for (const [id, route] of Object.entries(build.routes)) {
    if (!route) continue;
    const key = keyOfPath(paths.get(id)!);
    if (key === null || (key === '' && route.index)) everywhere.push(id);
    else if (key !== '') keyed.set(key, [...(keyed.get(key) ?? []), id]);
  }
  const withAncestors = (ids: string[]): Set<string> => {
    const all = new Set<string>();
    for (const leaf of ids) {
      for (
        let id: string | undefined = leaf;
        id !== undefined && !all.has(id);
        id = build.routes[id]?.parentId
      )
        all.add(id);
    }
    return all;
  };
  const partitions = new Map<string, ServerBuild>();
  for (const [key, ids] of keyed) partitions.set(key, pruned(build, withAncestors([...ids, ...everywhere])));
  const rest = pruned(build, withAncestors(everywhere));
  const manifestPath = build.routeDiscovery?.mode === 'lazy' ? build.routeDiscovery.manifestPath : null;

  return {
    keys: [...partitions.keys()],
    buildFor(pathname) {
      if (manifestPath && pathname === manifestPath) return null;
      const path = withoutDataSuffix(pathname, build);
      if (!path.startsWith('/') || path.includes('//')) return null;
      const end = path.indexOf('/', 1);
      const raw = end < 0 ? path.slice(1) : path.slice(1, end);
      let segment: string;
      try {
        segment = decodeURIComponent(raw);
      } catch {
        return null;
      }
      if (!PLAIN_SEGMENT.test(segment) || segment.includes('/')) return null;
      return partitions.get(segment.toLowerCase()) ?? rest;
    },
  };
}

/**
 * The React Router adapter's options that serve `build` by partitions: the whole build stays the adapter's own
 * (`productionServerBuild`, static files, and the requests {@link RoutePartitions.buildFor} gives to it), and a
 * `preHandler` on its catch-all route answers every other request with the handler of its partition (made on first
 * use, one per partition). Same load context and mode as the adapter's.
 */
export function partitionedUiOptions(
  build: ServerBuild,
  getLoadContext: LoadContextGetter,
  mode: string,
): Required<Pick<ReactRouterFastifyOptions, 'productionServerBuild' | 'childServerOptions'>> {
  const partitions = partitionRoutes(build);
  const handlers = new Map<ServerBuild, PageHandler>();
  return {
    productionServerBuild: build,
    childServerOptions: {
      async preHandler(request, reply) {
        const part = partitions.buildFor(request.url.split('?', 1)[0]!);
        if (!part) return; // the adapter's handler of the whole build
        let handle = handlers.get(part);
        if (!handle)
          handlers.set(part, (handle = createRequestHandler({ build: part, getLoadContext, mode })));
        await handle(request, reply);
        return reply;
      },
    },
  };
}
