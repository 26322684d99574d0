/**
 * The container image holds every source file its processes load (decision 041): the runtime stage of the Dockerfile
 * copies a few folders of the repository, and a module of server/ or platform/ importing a file outside them starts
 * in every test here but exits in the image with ERR_MODULE_NOT_FOUND (it happened: server/pdf imports app/lib).
 * `npm run test:container` builds the image, but takes ~10 minutes and is not part of `.ci/run`; this checks the same
 * thing statically, on every run: madge (which `npm run lint:cycles` uses) follows the imports (static and dynamic,
 * not `import type`) from the image's entry points, and each file it reaches is compared with what the Dockerfile
 * copies.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import madge from 'madge';
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

/**
 * Every repository file the entries load, relative to the root (madge's dependency graph of them, npm packages
 * left out). The platform's worker is loaded by `new URL(…, import.meta.url)`, which madge does not follow: it is an
 * entry of its own.
 * @throws when madge could not resolve an import of ours
 */
async function loadedFiles(): Promise<Set<string>> {
  const graph = await madge(ENTRIES, {
    baseDir: root,
    fileExtensions: ['ts', 'tsx'],
    tsConfig: path.join(root, 'tsconfig.json'),
    detectiveOptions: { ts: { skipTypeImports: true } },
  });
  const { skipped } = graph.warnings();
  if (skipped.length) throw new Error(`unresolved imports: ${skipped.join(', ')}`);
  return new Set(Object.keys(graph.obj()));
}

describe('the container image', () => {
  it('copies every source file its entry points load', async () => {
    const copied = copiedPaths();
    expect(copied).toContain('server');
    const files = await loadedFiles();
    expect(files.size).toBeGreaterThan(100);
    const missing = [...files].filter(
      (file) => !copied.some((dir) => file === dir || file.startsWith(`${dir}/`)),
    );
    expect(missing).toEqual([]);
  }, 120_000);

  it('finds what a missing folder would leave out', async () => {
    // the check is only as good as its import walk: the gateway's imports from app/lib are among the files it finds
    const files = await loadedFiles();
    expect(files.has('app/lib/platform-call.server.ts')).toBe(true);
    expect(files.has('platform/worker.ts')).toBe(true);
  });
});
