/**
 * `npm run docs:check`: prints every place where the docs name what the code does not have (scripts/docs-check.ts),
 * one `<doc>:<line>: <problem>` per line, and exits 1 when there is any, 0 when there is none.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkDocs } from './docs-check.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const problems = checkDocs(root);
for (const p of problems) process.stdout.write(`${p}\n`);
process.stdout.write(
  problems.length === 0 ? 'docs check: no problems\n' : `docs check: ${problems.length} problem(s)\n`,
);
process.exitCode = problems.length === 0 ? 0 : 1;
