/**
 * The container image holds every source file its processes load (decision 041): the runtime stage of the Dockerfile
 * copies a few folders of the repository, and a module of server/ or platform/ importing a file outside them starts
 * in every test here but exits in the image with ERR_MODULE_NOT_FOUND (it happened: server/pdf imports app/lib).
 * `npm run test:container` builds the image, but takes ~10 minutes and is not part of `.ci/run`; this checks the same
 * thing statically, on every run: it follows the relative imports (static and dynamic, not `import type`) from the
 * image's entry points and compares each file with what the Dockerfile copies.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

/** What the image runs: its CMD, the platform's worker, the standalone platform and the CLIs kept in the image. */
const ENTRIES = [
  'server/main.ts',
  'platform/worker.ts',
  'platform/main.ts',
  'platform/ops/cli.ts',
  'platform/backup/cli.ts',
  'platform/ledger/verify-cli.ts',
];

/** The repository paths the runtime stage copies from the build stage (`COPY --from=build /app/<path> ./<path>`). */
function copiedPaths(): string[] {
  const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8');
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  return [...runtime.matchAll(/^COPY --from=build (.+)$/gm)].flatMap((m) =>
    m[1]!
      .split(/\s+/)
      .slice(0, -1)
      .map((source) => source.replace(/^\/app\//, '')),
  );
}

/** The relative specifiers a module loads at run time: `import … from`, `export … from`, `import()`; not types. */
function runtimeImports(source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(/^\s*(import|export)\s+(type\s+)?[^;]*?\sfrom\s+'(\.[^']+)'/gm)) {
    if (!m[2]) out.push(m[3]!);
  }
  for (const m of source.matchAll(/^\s*import\s+'(\.[^']+)'/gm)) out.push(m[1]!);
  for (const m of source.matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g)) out.push(m[1]!);
  for (const m of source.matchAll(/new URL\(\s*'(\.[^']+\.ts)',\s*import\.meta\.url\s*\)/g)) out.push(m[1]!);
  return out;
}

/** Every repository file the entries load, relative to the root. */
function loadedFiles(): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(path.join(root, file), 'utf8');
    for (const spec of runtimeImports(source)) {
      const target = path.relative(root, path.resolve(root, path.dirname(file), spec));
      expect(existsSync(path.join(root, target)), `${file} imports ${spec}`).toBe(true);
      visit(target);
    }
  };
  for (const entry of ENTRIES) visit(entry);
  return seen;
}

describe('the container image', () => {
  it('copies every source file its entry points load', () => {
    const copied = copiedPaths();
    expect(copied).toContain('server');
    const files = loadedFiles();
    expect(files.size).toBeGreaterThan(100);
    const missing = [...files].filter(
      (file) => !copied.some((dir) => file === dir || file.startsWith(`${dir}/`)),
    );
    expect(missing).toEqual([]);
  });

  it('finds what a missing folder would leave out', () => {
    // the check is only as good as its import walk: the gateway's imports from app/lib are among the files it finds
    const files = loadedFiles();
    expect(files.has('app/lib/platform-call.server.ts')).toBe(true);
    expect(files.has('platform/worker.ts')).toBe(true);
  });
});
