/**
 * Operators of the review console (issue 5 item 5; the spec shows no admin role): accounts created by the CLI
 * (platform/ops/cli.ts), their bearer tokens (random 32 bytes, only the SHA-256 stored, like user tokens) and the
 * `requireOperator` preHandler: a missing, unknown, expired or revoked operator token answers envelope 408.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { ApiCode, Msg } from '../../contract/index.ts';
import { hashPassword } from '../account/passwords.ts';
import { bearerFrom } from '../account/tokens.ts';
import { isUniqueViolation } from '../account/users.ts';
import type { ScryptCost } from '../config.ts';
import { randomBase64Url, sha256Hex } from '../core/crypto.ts';
import { ApiError } from '../core/errors.ts';
import { nowSeconds } from '../core/time.ts';
import type { Database, OperatorRow } from '../db/schema.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The operator, once `requireOperator` ran. */
    operator: OperatorRow | null;
    operatorTokenHash: string | null;
  }
  interface FastifyInstance {
    /** preHandler of the /api/ops calls (except login): envelope 408 unless the operator token is live. */
    requireOperator(request: FastifyRequest): Promise<void>;
  }
}

/** Operator token lifetime, seconds (8 hours: a working day). */
export const OPERATOR_TOKEN_TTL = 8 * 3600;
const USERNAME_RE = /^[A-Za-z0-9_.-]{3,60}$/;

/**
 * Creates an operator. Username 3–60 of letters, digits, `_ . -`; password at least 10 characters.
 * @returns 'created', or 'exists' when the username is taken
 * @throws Error with a readable message for a bad username or password
 */
export async function createOperator(
  db: Kysely<Database>,
  username: string,
  password: string,
  cost: ScryptCost,
): Promise<'created' | 'exists'> {
  if (!USERNAME_RE.test(username)) throw new Error('username: 3-60 letters, digits, "_", "." or "-"');
  if (password.length < 10) throw new Error('password: at least 10 characters');
  try {
    await db
      .insertInto('operators')
      .values({ username, password_hash: await hashPassword(password, cost), created_at: nowSeconds() })
      .execute();
    return 'created';
  } catch (err) {
    if (isUniqueViolation(err)) return 'exists';
    throw err;
  }
}

/** Issues an operator token. @returns the token (shown once) */
export async function issueOperatorToken(db: Kysely<Database>, operatorId: number): Promise<string> {
  const token = randomBase64Url(32);
  const now = nowSeconds();
  await db
    .insertInto('operator_tokens')
    .values({
      token_hash: sha256Hex(token),
      operator_id: operatorId,
      created_at: now,
      expires_at: now + OPERATOR_TOKEN_TTL,
    })
    .execute();
  return token;
}

/** Revokes an operator token by its hash. */
export async function revokeOperatorToken(db: Kysely<Database>, tokenHash: string): Promise<void> {
  await db
    .updateTable('operator_tokens')
    .set({ revoked_at: nowSeconds() })
    .where('token_hash', '=', tokenHash)
    .execute();
}

/** Registers `request.operator` and `app.requireOperator`. */
export const operatorAuthPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('operator', null);
    app.decorateRequest('operatorTokenHash', null);
    app.decorate('requireOperator', async (request: FastifyRequest) => {
      const token = bearerFrom(request.headers.authorization);
      if (token && token.length <= 200) {
        const tokenHash = sha256Hex(token);
        const row = await app.pdb.db
          .selectFrom('operator_tokens')
          .innerJoin('operators', 'operators.id', 'operator_tokens.operator_id')
          .selectAll('operators')
          .where('operator_tokens.token_hash', '=', tokenHash)
          .where('operator_tokens.revoked_at', 'is', null)
          .where('operator_tokens.expires_at', '>', nowSeconds())
          .where('operators.disabled', '=', 0)
          .executeTakeFirst();
        if (row) {
          request.operator = row;
          request.operatorTokenHash = tokenHash;
          return;
        }
      }
      throw new ApiError(ApiCode.SESSION_EXPIRED, Msg.sessionExpired);
    });
  },
  { name: 'cunzheng-operator-auth', dependencies: ['cunzheng-services'] },
);
