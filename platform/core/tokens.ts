/**
 * Bearer tokens of both kinds of account, users (spec 01 §4; decision 002 "Accounts") and console operators
 * (docs/decisions/011-kyc-review.md): 32 random bytes as base64url, handed out once; only their SHA-256 is stored,
 * in the kind's own table (`tokens`, `operator_tokens`). A token is live until `expires_at` (unix seconds) unless
 * revoked (logout, password change or reset); a disabled operator's tokens are not live.
 */
import type { Compilable, Kysely } from 'kysely';
import type { PlatformConfig } from '../config.ts';
import type { Database } from '../db/schema.ts';
import type { UserRow } from '../account/schema.ts';
import type { OperatorRow } from '../ops/schema.ts';
import { randomBase64Url, sha256Hex } from './crypto.ts';
import { nowSeconds } from './time.ts';
import { preparedQuery } from '../db/prepared.ts';

/** Whose token: a user's or an operator's. */
export type TokenKind = 'user' | 'operator';
/** The account row a live token resolves to. */
export interface TokenOwner {
  user: UserRow;
  operator: OperatorRow;
}

/** Where each kind lives: its token table, the owner column and the owners' table. */
const STORES: Readonly<
  Record<TokenKind, { table: string; owner: string; owners: string; disabledColumn: string | null }>
> = {
  user: { table: 'tokens', owner: 'user_id', owners: 'users', disabledColumn: null },
  operator: {
    table: 'operator_tokens',
    owner: 'operator_id',
    owners: 'operators',
    disabledColumn: 'disabled',
  },
};

/** Operator token lifetime, seconds (8 hours: a working day). */
export const OPERATOR_TOKEN_TTL = 8 * 3600;
/** Tokens longer than this are refused without a lookup. */
const MAX_TOKEN_LENGTH = 200;

/** The lifetime of a new token of `kind`, seconds: TOKEN_TTL_SECONDS for users, 8 hours for operators. */
export function tokenTtl(kind: TokenKind, config: Pick<PlatformConfig, 'tokenTtlSeconds'>): number {
  return kind === 'user' ? config.tokenTtlSeconds : OPERATOR_TOKEN_TTL;
}

/** The token tables seen loosely: they differ only in their owner column's name, which Kysely cannot parameterise. */
type LooseDatabase = Record<string, Record<string, string | number | null>>;
const untyped = (db: Kysely<Database>) => db as unknown as Kysely<LooseDatabase>;

/** Creates a token of `kind` for `ownerId` valid for `ttlSeconds`. @returns the token (shown once) and its expiry. */
export async function issueToken(
  db: Kysely<Database>,
  kind: TokenKind,
  ownerId: number,
  ttlSeconds: number,
): Promise<{ token: string; expiresAt: number }> {
  const { table, owner } = STORES[kind];
  const token = randomBase64Url(32);
  const now = nowSeconds();
  const expiresAt = now + ttlSeconds;
  await untyped(db)
    .insertInto(table)
    .values({ token_hash: sha256Hex(token), [owner]: ownerId, created_at: now, expires_at: expiresAt })
    .execute();
  return { token, expiresAt };
}

/**
 * The owner whose id the live token names, per kind, prepared once (platform/db/prepared.ts): every signed-in call
 * makes it. A scalar subquery, not a join, which SQLite would re-plan on every call because it reads the bound token
 * hash when planning (22 µs against 4 µs a call; decision 054, 2026-11-29).
 */
const OWNER_LOOKUPS: { [K in TokenKind]: ReturnType<typeof ownerLookup<K>> } = {
  user: ownerLookup('user'),
  operator: ownerLookup('operator'),
};

function ownerLookup<K extends TokenKind>(kind: K) {
  const { table, owner, owners, disabledColumn } = STORES[kind];
  return preparedQuery<{ tokenHash: string; now: number }, TokenOwner[K]>((db, param) => {
    let query = untyped(db)
      .selectFrom(owners)
      .selectAll(owners)
      .where(`${owners}.id`, '=', (eb) =>
        eb
          .selectFrom(table)
          .select(`${table}.${owner}`)
          .where(`${table}.token_hash`, '=', param('tokenHash'))
          .where(`${table}.revoked_at`, 'is', null)
          .where(`${table}.expires_at`, '>', param('now')),
      );
    if (disabledColumn) query = query.where(`${owners}.${disabledColumn}`, '=', 0);
    return query as unknown as Compilable<TokenOwner[K]>;
  });
}

/** The account behind a live token of `kind` (known, not revoked, not expired, owner not disabled), or null. */
export async function resolveToken<K extends TokenKind>(
  db: Kysely<Database>,
  kind: K,
  token: string,
): Promise<{ owner: TokenOwner[K]; tokenHash: string } | null> {
  if (!token || token.length > MAX_TOKEN_LENGTH) return null;
  const tokenHash = sha256Hex(token);
  const [row] = await OWNER_LOOKUPS[kind](db, { tokenHash, now: nowSeconds() });
  return row ? { owner: row, tokenHash } : null;
}

/** Revokes one token of `kind` by its hash (logout). */
export async function revokeToken(db: Kysely<Database>, kind: TokenKind, tokenHash: string): Promise<void> {
  await untyped(db)
    .updateTable(STORES[kind].table)
    .set({ revoked_at: nowSeconds() })
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Revokes every live token of one account (password change or reset). */
export async function revokeAllTokens(db: Kysely<Database>, kind: TokenKind, ownerId: number): Promise<void> {
  const { table, owner } = STORES[kind];
  await untyped(db)
    .updateTable(table)
    .set({ revoked_at: nowSeconds() })
    .where(owner, '=', ownerId)
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
