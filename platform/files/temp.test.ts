/** Orphan temp files (docs/decisions/024-gateway-bodies.md): swept whatever their age once no request holds them. */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discardTemp, startTempSweeper, sweepStaleTemp, tempPath } from './temp.ts';

describe('temp sweep', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cz-temp-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('removes a fresh file nobody holds and keeps a held one until it is discarded', async () => {
    const orphan = path.join(dir, 'upload-left-by-kill-9');
    writeFileSync(orphan, 'x');
    const heldPath = tempPath(dir, 'upload');
    writeFileSync(heldPath, 'y');
    expect(await sweepStaleTemp(dir)).toBe(1);
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(heldPath)).toBe(true);
    await discardTemp({ path: heldPath });
    writeFileSync(heldPath, 'again'); // the same name, now held by nobody
    expect(await sweepStaleTemp(dir)).toBe(1);
    expect(existsSync(heldPath)).toBe(false);
  });

  it('sweeps periodically while running', async () => {
    const swept: number[] = [];
    const stop = startTempSweeper(dir, (n) => swept.push(n), 50);
    try {
      writeFileSync(path.join(dir, 'upload-orphan'), 'x');
      await new Promise((r) => setTimeout(r, 300));
      expect(swept).toEqual([1]);
      expect(existsSync(path.join(dir, 'upload-orphan'))).toBe(false);
    } finally {
      stop();
    }
  });
});
