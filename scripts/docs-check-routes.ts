/**
 * The route rule of the docs check (scripts/docs-check.ts): a backticked path starting with `/` must match a route of
 * app/routes.ts or a path string of server/, platform/ or contract/. `:param`, `{param}`, `<param>` and `*` are
 * wildcards; a trailing `…` or `*` makes the path a prefix; the query is ignored.
 */
import { segmentsOf, type RepoIndex, type RoutePattern } from './docs-check-index.ts';

/** First path segments of absolute file-system paths, which are not routes. */
const FILE_SYSTEM_ROOTS = new Set([
  'usr',
  'etc',
  'tmp',
  'data',
  'proc',
  'run',
  'var',
  'dev',
  'home',
  'srv',
  'backups',
  'sys',
  'opt',
  'bin',
  'mnt',
]);

/** A regular expression for one segment of a route as the docs write it (placeholders and `…` as wildcards). */
function docSegmentRe(seg: string): RegExp {
  const escaped = seg.replace(/[.+?^$()|[\]\\]/g, '\\$&');
  const wild = escaped.replace(/\{[^}]*\}|<[^>]*>|:[A-Za-z]\w*/g, '.+').replace(/…|\*/g, '.*');
  return new RegExp(`^${wild}$`);
}

/** True when route segment `pat` (`:param`, `:param?`, `*`, `${…}` are wildcards) can be doc segment `doc`. */
function segmentMatches(doc: string, pat: string): boolean {
  if (/^(?::\w+\??|\*|\$\{[^}]*\}|\{\w+\})$/.test(pat)) return true;
  const sample = pat.replace(/:\w+\??|\$\{[^}]*\}/g, 'P');
  if (docSegmentRe(doc).test(sample)) return true;
  const patRe = pat.replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/:\w+|\\\$\\\{[^}]*\\\}/g, '[^/]+');
  return new RegExp(`^${patRe}$`).test(doc);
}

/** True when the doc route's segments `doc` (a prefix when `prefix`) can be a path of route `r`. */
function routeMatches(doc: string[], prefix: boolean, r: RoutePattern): boolean {
  for (let i = 0; i < doc.length; i++) {
    const pat = r.segments[i];
    // past the pattern's end: a prefix pattern, or the doc's own trailing `…` (`/api/open/v1/…`)
    if (pat === undefined) return r.prefix || (i === doc.length - 1 && /^[…*]$/.test(doc[i]!));
    if (pat === '*') return true;
    if (!segmentMatches(doc[i]!, pat)) return false;
  }
  return prefix || r.segments.slice(doc.length).every((s) => /^:\w+\?$|^\*$/.test(s));
}

/**
 * The problem of route `token` of a code span, or null when some route matches it or it is no route. `${…URL}/x`
 * is the route `/x` of that site; `${DATA_DIR}/x` and the like are files. Compared case-insensitively and
 * percent-decoded, as the routers match; `.data` (React Router's data requests) is dropped; a trailing `/`, `…`,
 * `...` or `*` makes it a prefix.
 */
export function routeProblem(ix: RepoIndex, token: string): string | null {
  const site = /^\$\{(\w*)\}/.exec(token);
  if (site && !/url$/i.test(site[1]!)) return null;
  const route = token.slice(site ? site[0].length : 0).replace(/\.\.\./g, '…');
  if (!/^\/[A-Za-z0-9._~\-/{}:<>*…?=&%+,]*$/.test(route)) return null;
  let bare = route
    .replace(/[?#].*$/, '')
    .replace(/\/_\.data$/, '/')
    .replace(/\.data$/, '');
  try {
    bare = decodeURIComponent(bare);
  } catch {
    // not percent-encoded after all: compared as written
  }
  const segs = segmentsOf(bare);
  if (segs.length > 0 && FILE_SYSTEM_ROOTS.has(segs[0]!)) return null;
  const prefix = /[…*/]$/.test(bare);
  if (ix.routes.some((r) => routeMatches(segs, prefix, r))) return null;
  return `names route ${route}, which matches no route of app/routes.ts, server/ or platform/`;
}
