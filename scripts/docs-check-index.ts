/**
 * What the docs check (scripts/docs-check.ts) compares the docs with, read once from the repository: its top-level
 * folders and root files, the npm scripts of package.json, every identifier of the source code, the routes of the
 * UI (app/routes.ts) and of the gateway and platform (the path strings of server/, platform/ and contract/), and the
 * headings of docs/ARCHITECTURE.md and of the decision records.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Folders at the root that hold no sources of the repository (installed, built or run-time data). */
const NOT_SOURCE_DIRS = new Set([
  'node_modules',
  'build',
  'build-offline',
  'data',
  '.git',
  '.react-router',
  'test-results',
  'playwright-report',
]);

/** The folders whose source files are searched for identifiers (environment variables, constants). */
export const SOURCE_DIRS = [
  'app',
  'server',
  'lib',
  'platform',
  'contract',
  'witness',
  'clients',
  'tests',
  'bench',
  'scripts',
  '.ci',
];

/** Root files that may read environment variables besides the source folders. */
const SOURCE_ROOT_FILES = [
  'Dockerfile',
  'playwright.config.ts',
  'vite.config.ts',
  'vitest.config.ts',
  'react-router.config.ts',
  'eslint.config.js',
  'package.json',
];

/** Source file names the searches read (the docs check's own files are left out: they name made-up variables). */
const SOURCE_FILE_RE = /\.(?:ts|tsx|js|mjs|cjs|sh|css)$|^run$|^Dockerfile$|Containerfile$/;
const OWN_FILE_RE = /^docs-check/;

/** One route pattern, split into segments (`:param`, `*` and `${…}` kept as they are written), lower case. */
export interface RoutePattern {
  segments: string[];
  /** A path prefix the code appends to (a string ending in `/`, e.g. `/api/file/`): longer paths match too. */
  prefix: boolean;
}

/** Everything {@link loadIndex} reads. */
export interface RepoIndex {
  root: string;
  /** Names of the top-level folders and files that belong to the repository. */
  topLevel: Set<string>;
  /** Names of the scripts in package.json. */
  scripts: Set<string>;
  /** Every identifier (`[A-Za-z0-9_]+` token) of the source files. */
  identifiers: Set<string>;
  routes: RoutePattern[];
  /** The texts of the headings and bold run-in headings of docs/ARCHITECTURE.md, lower case. */
  architectureSections: string[];
  /** Per decision number (`032`), the file name and its headings and bold run-in headings, lower case. */
  decisions: Map<string, { file: string; sections: string[] }>;
}

/** Every file under `dir` (recursively) whose name passes `keep`, skipping the folders that are not sources. */
export function walk(dir: string, keep: (name: string) => boolean): string[] {
  const out: string[] = [];
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    if (NOT_SOURCE_DIRS.has(e.name)) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p, keep));
    else if (e.isFile() && keep(e.name)) out.push(p);
  }
  return out;
}

/** The text of `file`, or '' when it cannot be read. */
export function readText(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** The source files the identifier and route searches read. */
export function sourceFiles(root: string): string[] {
  const files = SOURCE_DIRS.flatMap((d) =>
    walk(path.join(root, d), (n) => SOURCE_FILE_RE.test(n) && !OWN_FILE_RE.test(n)),
  );
  for (const f of SOURCE_ROOT_FILES) if (fs.existsSync(path.join(root, f))) files.push(path.join(root, f));
  return files;
}

/** Splits a route path into its segments (no empty ones), lower case. */
export function segmentsOf(route: string): string[] {
  return route
    .toLowerCase()
    .split('/')
    .filter((s) => s !== '');
}

/**
 * The UI routes of app/routes.ts as full paths: `route('path', …)` joined to the paths of the routes it is nested
 * in (a `[` after a route opens its children, `]` closes them), and `index(…)` as its parent's path.
 */
export function uiRoutes(routesTs: string): string[] {
  const text = routesTs.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
  const stack: string[] = [''];
  const out: string[] = [];
  let last = '';
  for (const m of text.matchAll(/\broute\(\s*'([^']*)'|\bindex\(|\[|\]/g)) {
    const parent = stack[stack.length - 1] ?? '';
    if (m[0] === '[') stack.push(last);
    else if (m[0] === ']') stack.pop();
    else if (m[1] === undefined) out.push(parent || '/');
    else {
      last = `${parent}/${m[1]}`;
      out.push(last);
    }
  }
  return out;
}

/**
 * The path strings (quoted, starting with `/`, query dropped) of the non-test sources of server/, platform/,
 * contract/ and witness/: the routes they register and call. The proxy's prefixes (`/api/*`) and strings starting
 * with an interpolation are left out: they would match any path.
 */
export function serverRoutes(root: string): string[] {
  const out: string[] = [];
  const files = ['server', 'lib', 'platform', 'contract', 'witness'].flatMap((d) =>
    walk(path.join(root, d), (n) => /\.tsx?$/.test(n) && !/\.test\.tsx?$/.test(n)),
  );
  for (const f of files) {
    for (const m of readText(f).matchAll(/['"`](\/[^'"`\s]*)['"`]/g)) {
      const route = m[1]!.replace(/\?.*$/, '');
      // `${prefix}/…`: a route under a prefix unknown here, which would match any first segment
      if (!/^\/api\/.*\*$/.test(route) && !route.startsWith('/${')) out.push(route);
    }
  }
  return out;
}

/** The lower-case texts of the Markdown headings and bold run-in headings (`**Name.**`, `- **Name**:`) of `md`. */
export function sectionsOf(md: string): string[] {
  const out: string[] = [];
  for (const m of md.matchAll(/^#{1,6}\s+(.+)$/gm)) out.push(m[1]!.trim().toLowerCase());
  for (const m of md.matchAll(/^(?:[-*]\s+)?\*\*([^*]+)\*\*/gm)) out.push(m[1]!.trim().toLowerCase());
  return out;
}

/** Reads the repository at `root` (see the module comment). Missing parts read as empty. */
export function loadIndex(root: string): RepoIndex {
  const topLevel = new Set<string>();
  for (const e of fs.readdirSync(root, { withFileTypes: true })) {
    if (!NOT_SOURCE_DIRS.has(e.name)) topLevel.add(e.name);
  }
  let scripts = new Set<string>();
  try {
    const pkg = JSON.parse(readText(path.join(root, 'package.json'))) as { scripts?: Record<string, string> };
    scripts = new Set(Object.keys(pkg.scripts ?? {}));
  } catch {
    // no package.json: every npm script named is unknown
  }
  const identifiers = new Set<string>();
  for (const f of sourceFiles(root)) {
    for (const m of readText(f).matchAll(/[A-Za-z0-9_]+/g)) identifiers.add(m[0]);
  }
  // the UI's catch-all (`*`, the 404 page) would match any path: left out
  const ui = uiRoutes(readText(path.join(root, 'app', 'routes.ts'))).filter((r) => r !== '/*');
  const routes = [...ui, ...serverRoutes(root)].map((r) => ({
    segments: segmentsOf(r),
    prefix: r.endsWith('/') && segmentsOf(r).length >= 2,
  }));
  const decisions = new Map<string, { file: string; sections: string[] }>();
  const decisionDir = path.join(root, 'docs', 'decisions');
  for (const name of fs.existsSync(decisionDir) ? fs.readdirSync(decisionDir) : []) {
    const m = /^(\d{3})-.*\.md$/.exec(name);
    if (m) decisions.set(m[1]!, { file: name, sections: sectionsOf(readText(path.join(decisionDir, name))) });
  }
  return {
    root,
    topLevel,
    scripts,
    identifiers,
    routes,
    architectureSections: sectionsOf(readText(path.join(root, 'docs', 'ARCHITECTURE.md'))),
    decisions,
  };
}
