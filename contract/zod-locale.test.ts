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

describe('zod zh-CN locale: numbers', () => {
  const message = (r: { error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

  it('says what a number field needs, in Chinese only', () => {
    expect(message(z.coerce.number().safeParse('10MB'))).toBe('请输入有效的数字');
    expect(message(z.number().safeParse('x'))).toBe('请输入有效的数字');
    expect(message(z.number().int().max(5).safeParse(6))).toBe('数值不能大于5');
    expect(message(z.number().lt(5).safeParse(5))).toBe('数值必须小于5');
    expect(message(z.number().min(1).safeParse(0))).toBe('数值不能小于1');
    expect(message(z.number().positive().safeParse(0))).toBe('数值必须大于0');
  });

  it('leaves other issues to the locale (string lengths keep their unit)', () => {
    expect(message(z.string().max(3).safeParse('abcdef'))).toMatch(/3 字符/);
  });
});
