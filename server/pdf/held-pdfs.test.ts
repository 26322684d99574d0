/** The renderer's in-memory PDFs (server/pdf/held-pdfs.ts): least recently served go first, big ones are not held. */
import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HeldPdfs, MAX_HELD_PDF_BYTES } from './held-pdfs.ts';

const pdf = (n: number, fill = 1) => Buffer.alloc(n, fill);

describe('HeldPdfs', () => {
  it('lets the least recently served go past its limit', () => {
    const held = new HeldPdfs(300);
    held.hold('a', pdf(100, 1));
    held.hold('b', pdf(100, 2));
    held.hold('c', pdf(100, 3));
    expect(held.recall('a', '/nonexistent/a.pdf')?.[0]).toBe(1); // a is now the most recent
    held.hold('d', pdf(100, 4)); // 400 > 300: b goes
    expect(held.recall('b', '/nonexistent/b.pdf')).toBeUndefined();
    expect(['a', 'c', 'd'].map((k) => held.recall(k, `/nonexistent/${k}.pdf`)?.[0])).toEqual([1, 3, 4]);
    expect(held.size).toBe(300);
  });

  it('does not hold a PDF above MAX_HELD_PDF_BYTES, nor a key twice', () => {
    const held = new HeldPdfs();
    held.hold('big', pdf(MAX_HELD_PDF_BYTES + 1));
    expect(held.recall('big', '/nonexistent/big.pdf')).toBeUndefined();
    held.hold('k', pdf(10, 1));
    held.hold('k', pdf(20, 2));
    expect([held.recall('k', '/nonexistent/k.pdf')?.length, held.size]).toEqual([10, 10]);
  });

  it("refreshes the served file's mtime (pruning's last served) at most once a minute", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cz-held-'));
    try {
      const file = path.join(dir, 'k.pdf');
      writeFileSync(file, 'x');
      const old = new Date(Date.now() - 3600_000);
      utimesSync(file, old, old);
      const held = new HeldPdfs();
      held.hold('k', pdf(10));
      held.recall('k', file); // held just now: not touched yet
      await new Promise((r) => setTimeout(r, 50));
      expect(Math.round(statSync(file).mtimeMs / 1000)).toBe(Math.round(old.getTime() / 1000));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
