/**
 * The docs check (scripts/docs-check.ts): it reports what a doc names that the code does not have, and the
 * repository's own docs pass it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDocs } from './docs-check.ts';

const REPO = path.resolve(import.meta.dirname, '..');

/** Writes `files` (path → text) under a new temporary directory. @returns the directory */
function tempRepo(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cz-docs-check-'));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe('the docs check on a made-up repository', () => {
  let root: string;
  beforeAll(() => {
    root = tempRepo({
      'package.json': JSON.stringify({ scripts: { start: 'node server/main.ts', 'bench:pdf': 'x' } }),
      'server/main.ts':
        "const port = process.env.PORT ?? process.env.DATA_DIR;\napp.get('/api/thing/:id', h);\n",
      'server/app.ts': '// the section of ARCHITECTURE "Boundaries"\nconst p = \'/api/file/\';\n',
      'platform/config.ts': '// decision 002 "No such part"\nexport const SESSION_SECRET = 1;\n',
      'app/routes.ts':
        "export default [index('home.tsx'), route('login', 'l.tsx'), route('ops', 'c.tsx', [route('kyc/:userId', 'k.tsx')]), route('*', 'nf.tsx')];\n",
      'docs/ARCHITECTURE.md': '# Architecture\n\n## Boundaries\n\nSee `server/app.ts`.\n',
      'docs/decisions/001-first.md': '# 001 — First\n\nStatus: accepted\nDate: 2026-11-23\n',
      'docs/decisions/002-second.md': '# 002 — Second\n\nNo status here.\n',
      'docs/decisions/README.md': '| [001](001-first.md) | First |\n',
      'README.md': [
        '# Made up',
        '',
        'Start with `npm start`, then `npm run bench:pdf` and `npm run bench:nope`.',
        'Files: `server/main.ts`, `server/gone.ts`, `platform/<area>/service.ts`, `app/*.tsx`, `docs/decisions/`.',
        'Settings: `DATA_DIR`, `SESSION_SECRET_FILE`, `NO_SUCH_SETTING`, `NODE_EXTRA_CA_CERTS`.',
        'Routes: `/login`, `/ops/kyc/{userId}`, `GET /api/thing/7`, `/api/file/<baoquan>?exp=`, `/nowhere`, `/usr/bin/chromium`, `POST`.',
        'Links: [architecture](docs/ARCHITECTURE.md), [missing](docs/missing.md).',
        '',
        '```sh',
        'npm run nope-in-block',
        'bash server/missing.sh',
        '```',
        '',
      ].join('\n'),
    });
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('reports a missing path, an unknown npm script, an unknown variable and an unknown route, with their lines', () => {
    const problems = checkDocs(root);
    expect(problems).toEqual(
      expect.arrayContaining([
        'README.md:3: names unknown npm script bench:nope',
        'README.md:4: names missing path server/gone.ts',
        'README.md:5: names environment variable NO_SUCH_SETTING, which no source file mentions',
        'README.md:6: names route /nowhere, which matches no route of app/routes.ts, server/ or platform/',
        'README.md:7: links to missing path docs/missing.md',
        'README.md:10: names unknown npm script nope-in-block',
        'README.md:11: names missing path server/missing.sh',
      ]),
    );
  });

  it('passes what exists, placeholders and names other software owns', () => {
    const readme = checkDocs(root).filter((p) => p.startsWith('README.md:'));
    expect(readme).toHaveLength(7);
    for (const fine of [
      'npm start',
      'bench:pdf',
      'server/main.ts',
      '<area>',
      'DATA_DIR',
      'SESSION_SECRET_FILE',
    ]) {
      expect(readme.join('\n')).not.toContain(fine);
    }
    for (const fine of ['NODE_EXTRA_CA_CERTS', '/login', '/ops/kyc', '/api/thing', '/api/file', '/usr/bin']) {
      expect(readme.join('\n')).not.toContain(fine);
    }
  });

  it('reports a decision record without status or date, one missing from the index, and unknown sections', () => {
    const problems = checkDocs(root);
    expect(problems).toEqual(
      expect.arrayContaining([
        'docs/decisions/002-second.md:1: has no "Status: accepted", "proposed" or "superseded by NNN" under its title',
        'docs/decisions/002-second.md:1: has no "Date: YYYY-MM-DD" under its title',
        'docs/decisions/README.md:1: does not list 002-second.md',
        'platform/config.ts:1: names section "No such part" of decision 002, which docs/decisions/002-second.md has no heading for',
      ]),
    );
    expect(problems.join('\n')).not.toContain('001-first.md:');
    expect(problems.join('\n')).not.toContain('"Boundaries"');
  });
});

describe('the docs check on this repository', () => {
  it('finds nothing: every path, npm script, variable, route and section the docs name exists', () => {
    expect(checkDocs(REPO)).toEqual([]);
  });
});
