import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mobile } from './validators.ts';

describe('zod zh-CN locale', () => {
  it('reports schema failures without a spec message in Chinese', () => {
    expect(mobile).toBeTruthy();
    const tooLong = z.string().max(3).safeParse('abcdef');
    const wrongType = z.string().safeParse(5);
    const badEnum = z.enum(['a', 'b']).safeParse('c');
    for (const r of [tooLong, wrongType, badEnum]) {
      expect(r.success).toBe(false);
      const message = r.error?.issues[0]?.message ?? '';
      expect(message).toMatch(/[\u4e00-\u9fff]/);
      expect(message).not.toMatch(/Too big|Invalid input/);
    }
  });

  it('is set by every contract module that builds schemas (not by messages.ts: pages without a form load no zod)', () => {
    const dir = import.meta.dirname;
    const missing = readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'zod-locale.ts')
      .filter((f) => {
        const src = readFileSync(path.join(dir, f), 'utf8');
        return /from 'zod'/.test(src) && !src.includes("import './zod-locale.ts';");
      });
    expect(missing).toEqual([]);
    expect(readFileSync(path.join(dir, 'messages.ts'), 'utf8')).not.toMatch(/zod/);
  });
});
