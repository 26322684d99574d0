/**
 * The docs check: the docs must name only what the code has. {@link checkDocs} reads README.md, CHANGELOG.md,
 * docs/**\/*.md and every README.md of the source folders, and reports, as `<doc>:<line>: <problem>`:
 * - a repository path (in backticks, in a code block or as a link) that does not exist — paths with a placeholder
 *   (`<area>`, `NNNN`), a glob or braces are skipped;
 * - an npm script (`npm run X`, `npm test`, `npm start`) that package.json does not have;
 * - an environment variable (a backticked ALL_CAPS name with an underscore, or `PORT`/`HOST`) that no source file
 *   mentions — `X_FILE` passes when `X` is mentioned (secrets from files), and names owned by Node.js (`NODE_*`),
 *   OpenTelemetry (`OTEL_*`) and SQLite (`SQLITE_*`) pass;
 * - a route (a backticked path starting with `/`, alone or after an HTTP method) that matches no route of
 *   app/routes.ts and no path string of server/, platform/ or contract/ (`:param`, `{param}`, `<param>` and `*`
 *   are wildcards; a trailing `…` or `*` makes it a prefix; the query is ignored);
 * - a decision record without `Status:` and `Date:` under its title, or missing from docs/decisions/README.md;
 * - a section named as `ARCHITECTURE "X"` or `decision NNN "X"` (in the docs or in a source comment) that the
 *   document has no heading (or bold run-in heading) for.
 * `npm run docs:check` prints the same list (scripts/docs-check-cli.ts); scripts/docs-check.test.ts runs it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadIndex, readText, sourceFiles, walk, type RepoIndex } from './docs-check-index.ts';
import { routeProblem } from './docs-check-routes.ts';

/** Folders whose README.md files are checked besides README.md, CHANGELOG.md and docs/. */
const COMPONENT_DIRS = [
  'app',
  'server',
  'lib',
  'platform',
  'contract',
  'tests',
  'bench',
  'scripts',
  'witness',
  'clients',
];

/**
 * Names other software defines, which the docs may name though no source file does: Node.js's variables and error
 * codes, OpenTelemetry's variables, SQLite's compile options, OpenSSL's verification errors.
 */
const EXTERNAL_VARIABLE_RE = /^(?:NODE_|OTEL_|SQLITE_|ERR_|SELF_SIGNED_CERT)/;
/** Variables without an underscore that the docs name. */
const PLAIN_VARIABLES = new Set(['PORT', 'HOST']);
const HTTP_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

/** The Markdown files the check reads, relative to `root`, with forward slashes. */
export function docFiles(root: string): string[] {
  const files: string[] = [];
  for (const f of ['README.md', 'CHANGELOG.md']) if (fs.existsSync(path.join(root, f))) files.push(f);
  files.push(...walk(path.join(root, 'docs'), (n) => n.endsWith('.md')).map((f) => path.relative(root, f)));
  for (const d of COMPONENT_DIRS) {
    files.push(...walk(path.join(root, d), (n) => n === 'README.md').map((f) => path.relative(root, f)));
  }
  return files.map((f) => f.split(path.sep).join('/')).sort();
}

/** The problem of path `token` (a word of a code span or block), or null when it exists or is no path. */
function pathProblem(ix: RepoIndex, token: string): string | null {
  const t = token.replace(/:\d+(?::\d+)?[)"',;.:\]]*$/, '').replace(/^[("'[]+|[)"',;.:\]]+$/g, '');
  if (t === '' || /[<>*{}…|$\\]|:\/\/|NNN/.test(t)) return null;
  const first = t.split('/')[0]!;
  if (!ix.topLevel.has(first) || (!t.includes('/') && !/\.\w+$/.test(t) && t !== 'Dockerfile')) return null;
  const full = path.join(ix.root, t);
  const exists = t.endsWith('/')
    ? fs.statSync(full, { throwIfNoEntry: false })?.isDirectory()
    : fs.existsSync(full);
  return exists ? null : `names missing path ${t}`;
}

/** The problems of the npm scripts named in `text`. */
function scriptProblems(ix: RepoIndex, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(
    /\bnpm\s+(?:run(?:-script)?\s+([A-Za-z0-9:_.-]+)(.?)|(start|test|stop|restart)\b)/g,
  )) {
    if (m[2] !== undefined && /[<{…]/.test(m[2])) continue; // `npm run bench:<area>`: a placeholder
    const name = (m[1] ?? m[3]!).replace(/[.:]+$/, '');
    if (name && !ix.scripts.has(name)) out.push(`names unknown npm script ${name}`);
  }
  return out;
}

/** The problems of the environment variables named in code span `span`. */
function variableProblems(ix: RepoIndex, span: string): string[] {
  const names = [...span.matchAll(/(?<![A-Za-z0-9_])[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?![A-Za-z0-9_])/g)].map(
    (m) => m[0],
  );
  if (PLAIN_VARIABLES.has(span.trim())) names.push(span.trim());
  const out: string[] = [];
  for (const name of names) {
    if (ix.identifiers.has(name) || EXTERNAL_VARIABLE_RE.test(name)) continue;
    if (name.endsWith('_FILE') && ix.identifiers.has(name.slice(0, -'_FILE'.length))) continue;
    out.push(`names environment variable ${name}, which no source file mentions`);
  }
  return out;
}

/** The problems of one inline code span. */
function spanProblems(ix: RepoIndex, span: string): string[] {
  const out: string[] = [];
  const tokens = span.trim().split(/\s+/);
  for (const t of tokens) {
    const p = pathProblem(ix, t);
    if (p) out.push(p);
  }
  out.push(...variableProblems(ix, span));
  const method = HTTP_METHODS.has(tokens[0] ?? '');
  // a span of a route alone, or of a method and a route (a method alone names no route)
  if ((tokens.length === 1 && !method) || (method && tokens.length === 2)) {
    const p = routeProblem(ix, tokens[method ? 1 : 0]!);
    if (p) out.push(p);
  }
  return out;
}

/** The problems of the Markdown links of `line` in doc `doc` (relative targets must exist). */
function linkProblems(ix: RepoIndex, doc: string, line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
    const file = decodeURIComponent(target.replace(/#.*$/, ''));
    if (!fs.existsSync(path.join(ix.root, path.dirname(doc), file)))
      out.push(`links to missing path ${path.posix.join(path.posix.dirname(doc), file)}`);
  }
  return out;
}

/** The problems of section references (`ARCHITECTURE "X"`, `decision NNN "X"`) in `text`, with their lines. */
export function sectionProblems(ix: RepoIndex, text: string): { line: number; problem: string }[] {
  const out: { line: number; problem: string }[] = [];
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  const clean = (s: string) => s.replace(/\s*\n\s*(?:\*|\/\/|#)?\s*/g, ' ').trim();
  const gap = String.raw`(?:\s|\*|//|#)*`;
  for (const m of text.matchAll(new RegExp(`ARCHITECTURE(?:\\.md)?${gap}["“]([^"”]{2,120}?)["”]`, 'g'))) {
    const name = clean(m[1]!);
    if (!ix.architectureSections.some((s) => s.includes(name.toLowerCase())))
      out.push({
        line: lineOf(m.index),
        problem: `names ARCHITECTURE section "${name}", which docs/ARCHITECTURE.md has no heading for`,
      });
  }
  const decisionRe = new RegExp(
    `\\bdecisions?(?:/|\\s+)(\\d{3})(?:-[a-z0-9-]+(?:\\.md)?)?,?${gap}["“]([^"”]{2,120}?)["”]`,
    'gi',
  );
  for (const m of text.matchAll(decisionRe)) {
    const record = ix.decisions.get(m[1]!);
    const name = clean(m[2]!);
    if (!record) {
      out.push({
        line: lineOf(m.index),
        problem: `names decision ${m[1]}, which docs/decisions/ does not have`,
      });
    } else if (!record.sections.some((s) => s.includes(name.toLowerCase()))) {
      out.push({
        line: lineOf(m.index),
        problem: `names section "${name}" of decision ${m[1]}, which docs/decisions/${record.file} has no heading for`,
      });
    }
  }
  return out;
}

/** The problems of one doc, as `<doc>:<line>: <problem>`. */
function checkDoc(ix: RepoIndex, doc: string): string[] {
  const text = readText(path.join(ix.root, doc));
  const out: string[] = [];
  let fence: string | null = null;
  text.split('\n').forEach((line, i) => {
    const report = (problem: string) => out.push(`${doc}:${i + 1}: ${problem}`);
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === null || marker.startsWith(fence))) {
      fence = fence === null ? marker : null;
      return;
    }
    scriptProblems(ix, line).forEach(report);
    if (fence !== null) {
      for (const t of line.trim().split(/\s+/)) {
        const p = pathProblem(ix, t);
        if (p) report(p);
      }
      return;
    }
    for (const m of line.matchAll(/`([^`]+)`/g)) spanProblems(ix, m[1]!).forEach(report);
    linkProblems(ix, doc, line).forEach(report);
  });
  for (const s of sectionProblems(ix, text)) out.push(`${doc}:${s.line}: ${s.problem}`);
  return out;
}

/** The problems of the decision records: Status and Date under each title, each listed in the index. */
function decisionProblems(ix: RepoIndex): string[] {
  const out: string[] = [];
  const dir = 'docs/decisions';
  const index = readText(path.join(ix.root, dir, 'README.md'));
  for (const { file } of [...ix.decisions.values()].sort((a, b) => a.file.localeCompare(b.file))) {
    const head = readText(path.join(ix.root, dir, file))
      .split('\n')
      .slice(0, 8);
    if (!head.some((l) => /^Status: (?:accepted|proposed|superseded by \d{3})\b/.test(l)))
      out.push(
        `${dir}/${file}:1: has no "Status: accepted", "proposed" or "superseded by NNN" under its title`,
      );
    if (!head.some((l) => /^Date: \d{4}-\d{2}-\d{2}$/.test(l)))
      out.push(`${dir}/${file}:1: has no "Date: YYYY-MM-DD" under its title`);
    if (!index.includes(`(${file})`)) out.push(`${dir}/README.md:1: does not list ${file}`);
  }
  return out;
}

/**
 * Checks the docs of the repository at `root` against its code (see the module comment).
 * @returns one line per problem, `<doc>:<line>: <problem>`; empty when the docs match the code
 */
export function checkDocs(root: string): string[] {
  const ix = loadIndex(root);
  const out = docFiles(root).flatMap((doc) => checkDoc(ix, doc));
  out.push(...decisionProblems(ix));
  for (const file of sourceFiles(root)) {
    const rel = path.relative(root, file).split(path.sep).join('/');
    for (const s of sectionProblems(ix, readText(file))) out.push(`${rel}:${s.line}: ${s.problem}`);
  }
  return out;
}
