/**
 * Password hashing with node:crypto scrypt (memory-hard, RFC 7914). Stored as a self-describing string
 * `scrypt$<N>$<r>$<p>$<salt b64url>$<hash b64url>` so the cost can rise later without breaking old hashes.
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { ScryptCost } from '../config.ts';

const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

function scrypt(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  // Node's default maxmem (32 MiB) is exactly 128·N·r at N=2^15, r=8, which scrypt rejects: give it headroom.
  const options: ScryptOptions = {
    N: cost.N,
    r: cost.r,
    p: cost.p,
    maxmem: 256 * cost.N * cost.r + 1024 * 1024,
  };
  return new Promise((resolve, reject) =>
    scryptCb(password.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** Hashes `password` with a fresh 16-byte salt at `cost`. @returns the self-describing hash string. */
export async function hashPassword(password: string, cost: ScryptCost): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await scrypt(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * Checks `password` against a stored hash in constant time, using the parameters recorded in the hash.
 * @returns false for a wrong password or a malformed hash (never throws for bad input).
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const salt = Buffer.from(parts[4]!, 'base64url');
  const expected = Buffer.from(parts[5]!, 'base64url');
  if (![N, r, p].every((n) => Number.isSafeInteger(n) && n > 0) || expected.length !== KEY_LENGTH)
    return false;
  const actual = await scrypt(password, salt, { N, r, p });
  return timingSafeEqual(actual, expected);
}
