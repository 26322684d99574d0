import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Msg } from './messages.ts';

describe('zod zh-CN locale', () => {
  it('reports schema failures without a spec message in Chinese', () => {
    expect(Msg.serverError).toBeTruthy();
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
});
