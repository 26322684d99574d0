/**
 * Bearer tokens (issue 2): 32 random bytes as base64url, handed out once; only their SHA-256 is stored. A token is
 * valid until `expires_at` (unix seconds) unless revoked (logout, password reset).
 */
import type { Kysely } from 'kysely';
import { randomBase64Url, sha256Hex } from '../core/crypto.ts';
import { nowSeconds } from '../core/time.ts';
import type { Database, UserRow } from '../db/schema.ts';

/** Creates a token for `userId` valid for `ttlSeconds`. @returns the token (shown once) and its expiry. */
export async function issueToken(
  db: Kysely<Database>,
  userId: number,
  ttlSeconds: number,
): Promise<{ token: string; expiresAt: number }> {
  const token = randomBase64Url(32);
  const now = nowSeconds();
  const expiresAt = now + ttlSeconds;
  await db
    .insertInto('tokens')
    .values({ token_hash: sha256Hex(token), user_id: userId, created_at: now, expires_at: expiresAt })
    .execute();
  return { token, expiresAt };
}

/** The user behind a live token (known, not revoked, not expired), or null. */
export async function resolveToken(
  db: Kysely<Database>,
  token: string,
): Promise<{ user: UserRow; tokenHash: string } | null> {
  if (!token || token.length > 200) return null;
  const tokenHash = sha256Hex(token);
  const row = await db
    .selectFrom('tokens')
    .innerJoin('users', 'users.id', 'tokens.user_id')
    .selectAll('users')
    .where('tokens.token_hash', '=', tokenHash)
    .where('tokens.revoked_at', 'is', null)
    .where('tokens.expires_at', '>', nowSeconds())
    .executeTakeFirst();
  return row ? { user: row, tokenHash } : null;
}

/** Revokes one token by its hash (logout). */
export async function revokeToken(db: Kysely<Database>, tokenHash: string): Promise<void> {
  await db
    .updateTable('tokens')
    .set({ revoked_at: nowSeconds() })
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Revokes every live token of a user (password reset). */
export async function revokeAllTokens(db: Kysely<Database>, userId: number): Promise<void> {
  await db
    .updateTable('tokens')
    .set({ revoked_at: nowSeconds() })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}

/**
 * Reads the bearer token from an `Authorization: Bearer <token>` header value.
 * @returns the token, or null when the header is missing or of another scheme
 */
export function bearerFrom(header: string | undefined): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m ? m[1]! : null;
}
