import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.ts';

describe('passwords', () => {
  it('hashes with scrypt into a self-describing string and verifies', async () => {
    const stored = await hashPassword('abc12345', { N: 1024, r: 8, p: 1 });
    expect(stored).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await verifyPassword('abc12345', stored)).toBe(true);
    expect(await verifyPassword('abc12346', stored)).toBe(false);
  });

  it('uses a fresh salt each time', async () => {
    const cost = { N: 1024, r: 8, p: 1 };
    expect(await hashPassword('same1234', cost)).not.toBe(await hashPassword('same1234', cost));
  });

  it('verifies with the parameters stored in the hash (production cost N=2^15)', async () => {
    const stored = await hashPassword('demo1234', { N: 2 ** 15, r: 8, p: 1 });
    expect(await verifyPassword('demo1234', stored)).toBe(true);
  });

  it('treats malformed hashes as a mismatch', async () => {
    expect(await verifyPassword('x', 'plain')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$0$8$1$aa$bb')).toBe(false);
  });
});
