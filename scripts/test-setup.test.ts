/**
 * scripts/test-setup.sh where it may not install (decision 053): not root, so it names every missing piece with the
 * Debian package that brings it and the one command that installs them all, and stops at once with exit 1. Run with
 * a PATH that holds only bash and an `id` answering a non-root uid, so every tool it looks for is missing.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const script = path.join(import.meta.dirname, 'test-setup.sh');
const bin = mkdtempSync(path.join(os.tmpdir(), 'cz-setup-bin-'));
symlinkSync('/bin/bash', path.join(bin, 'bash'));
writeFileSync(path.join(bin, 'id'), '#!/bin/bash\necho 1000\n');
chmodSync(path.join(bin, 'id'), 0o755);
afterAll(() => rmSync(bin, { recursive: true, force: true }));

/** Runs the script with only `bin` on PATH and Chromium looked for where it is not. */
function runBare() {
  const started = Date.now();
  const run = spawnSync(path.join(bin, 'bash'), [script], {
    env: { PATH: bin, CHROMIUM_PATH: path.join(bin, 'no-chromium'), HOME: bin },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { ...run, ms: Date.now() - started };
}

describe('scripts/test-setup.sh without root (decision 053)', () => {
  it('names each missing piece and the apt-get command, and stops within seconds', () => {
    const run = runBare();
    expect(run.status).toBe(1);
    expect(run.ms).toBeLessThan(10_000);
    for (const pkg of [
      'chromium',
      'fonts-noto-cjk',
      'fontconfig',
      'poppler-utils',
      'ffmpeg',
      'openssl',
      'postgresql-client',
    ]) {
      expect(run.stderr).toContain(`(Debian package ${pkg})`);
    }
    const install = run.stderr.split('\n').find((line) => line.includes('apt-get install'));
    expect(install).toMatch(
      /apt-get update && apt-get install -y --no-install-recommends chromium .*fonts-noto-cjk/,
    );
    // Nothing was attempted: no apt-get output, no test started.
    expect(run.stdout).not.toContain('== apt-get install');
  });
});
