/**
 * Route partitions (server/pages/route-partitions.ts): for every route of the real build, and for paths around them
 * (case, encoding, trailing slash, data requests, unknown and odd paths), the partition a path is given matches
 * exactly the routes the whole build matches — the path itself and each of its parents, as the partial manifest
 * does — and holds their manifest entries; what it cannot read the same way goes to the whole build.
 */
import { describe, expect, it } from 'vitest';
import { matchRoutes, type RouteObject, type ServerBuild } from 'react-router';
import { partitionRoutes } from './route-partitions.ts';
import { BUILD_DIR, hasBuild } from '../../tests/support/pdf-whole.ts';

/** `build.routes` as the route tree React Router matches (ids, paths, index, case sensitivity). */
function treeOf(routes: ServerBuild['routes']): RouteObject[] {
  const children = new Map<string | undefined, RouteObject[]>();
  for (const route of Object.values(routes)) {
    if (!route) continue;
    const list = children.get(route.parentId) ?? [];
    children.set(route.parentId, list);
    list.push(
      route.index
        ? { id: route.id, index: true, ...(route.caseSensitive ? { caseSensitive: true } : {}) }
        : {
            id: route.id,
            ...(route.path !== undefined ? { path: route.path } : {}),
            ...(route.caseSensitive ? { caseSensitive: true } : {}),
          },
    );
  }
  const attach = (list: RouteObject[]): RouteObject[] =>
    list.map((r) => (r.index ? r : { ...r, children: attach(children.get(r.id) ?? []) }));
  return attach(children.get(undefined) ?? []);
}

/** The path React Router matches for a request path (`.data` removed as the build's future flag says). */
const matchedPath = (pathname: string) =>
  pathname.endsWith('/_.data') ? pathname.slice(0, -6) : pathname.replace(/\.data$/, '');

/** The path and its parents, as the partial manifest matches them. */
function withParents(pathname: string): string[] {
  const segments = pathname.split('/').filter(Boolean);
  const paths = [pathname, '/'];
  for (segments.pop(); segments.length > 0; segments.pop()) paths.push(`/${segments.join('/')}`);
  return paths;
}

const ids = (routes: RouteObject[], pathname: string) =>
  (matchRoutes(routes, pathname) ?? []).map((m) => m.route.id ?? '');

/** Paths for every route: params filled in, optional ones present and absent, splats of two segments. */
function samplePaths(build: ServerBuild): string[] {
  const full = (id: string | undefined): string => {
    const route = id ? build.routes[id] : undefined;
    if (!route) return '';
    return [full(route.parentId), route.path ?? ''].filter(Boolean).join('/');
  };
  const paths = new Set<string>();
  for (const id of Object.keys(build.routes)) {
    const pattern = full(id);
    for (const keepOptional of [true, false]) {
      const filled = pattern
        .split('/')
        .filter((s) => keepOptional || !s.endsWith('?'))
        .map((s) => (s === '*' ? 'a/b' : s.startsWith(':') ? 'X1' : s))
        .join('/');
      paths.add(`/${filled}`);
    }
  }
  return [...paths];
}

describe.skipIf(!hasBuild())('route partitions of the real build', async () => {
  const build = (await import(`${BUILD_DIR}/server/index.js`)) as unknown as ServerBuild;
  const whole = treeOf(build.routes);
  const partitions = partitionRoutes(build);

  it('every path matches in its partition exactly what it matches in the whole build, parents included', () => {
    const base = samplePaths(build);
    const variants = base.flatMap((p) => [
      p,
      p.toUpperCase(),
      `${p}/`,
      `${p}.data`,
      `${p === '/' ? '' : p}/_.data`,
      p.replace(/^\/(\w)/, (_, c: string) => `/%${c.charCodeAt(0).toString(16).toUpperCase()}`),
      `${p}/extra`,
    ]);
    const odd = ['/', '/nope', '/nope/deeper', '/404', '/%E4%B8%AD%E6%96%87', '/.well-known/x', '/login%2Fx'];
    let partitioned = 0;
    for (const pathname of [...variants, ...odd]) {
      const part = partitions.buildFor(pathname);
      if (!part) continue;
      partitioned++;
      const tree = treeOf(part.routes);
      for (const path of withParents(decodeURI(matchedPath(pathname)))) {
        const expected = ids(whole, path);
        expect(ids(tree, path), `${pathname} → ${path}`).toEqual(expected);
        for (const id of expected)
          expect(part.assets.routes[id], `${pathname}: manifest of ${id}`).toBeDefined();
      }
    }
    // nearly every sample is served by a partition, not the whole build
    expect(partitioned).toBeGreaterThan(variants.length * 0.9);
  });

  it('a page gets a small partition, the same one whatever the case or encoding of its first segment', () => {
    const login = partitions.buildFor('/login')!;
    expect(Object.keys(login.routes).sort()).toEqual(['account/login', 'catch-all', 'home/home', 'root']);
    expect(partitions.buildFor('/LOGIN')).toBe(login);
    expect(partitions.buildFor('/%6Cogin')).toBe(login);
    expect(partitions.buildFor('/login.data')).toBe(login);
    const verify = partitions.buildFor('/queryAuthentication/safekeeping')!;
    expect(Object.keys(verify.routes)).toContain('verify/safekeeping');
    expect(Object.keys(verify.routes)).not.toContain('account/login');
    expect(partitions.keys.length).toBeGreaterThan(40);
  });

  it('what it cannot read as React Router does goes to the whole build', () => {
    for (const pathname of ['/__manifest', '//login', '/%E0%A4%A', '/%C3%A9t%C3%A9', 'login'])
      expect(partitions.buildFor(pathname), pathname).toBeNull();
  });
});
