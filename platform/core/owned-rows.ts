/**
 * Rows that belong to one user (`user_id`) and are addressed by `id`: the per-user lists of spec 02 §5 and §9
 * (delivery addresses, invoice heads). Every call is scoped to the user, so another user's id reads as not found;
 * the limit is counted inside `withUserTransaction` (core/transactions.ts), which serializes the user's writers.
 */
import type { Kysely } from 'kysely';
import { ApiCode } from '../../contract/envelope.ts';
import type { PlatformDb } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { ApiError } from './errors.ts';
import { withUserTransaction } from './transactions.ts';

/** The tables of user-owned rows with a per-user limit. */
export type OwnedTable = 'addresses' | 'invoice_heads';

/**
 * Adds a row for `userId` unless they already own `limit.max` rows of `table` (5 addresses, 5 invoice heads): the
 * count and `insert` run in one `withUserTransaction`, so concurrent adds cannot pass the limit together.
 * @returns what `insert` returns
 * @throws ApiError 400 `limit.message` at the limit; whatever `insert` throws (nothing is written then)
 */
export function addOwnedWithinLimit<T>(
  pdb: PlatformDb,
  table: OwnedTable,
  userId: number,
  limit: { max: number; message: string },
  insert: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  return withUserTransaction(pdb, userId, async (trx) => {
    const { n } = await trx
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    if (Number(n) >= limit.max) throw new ApiError(ApiCode.BAD_REQUEST, limit.message);
    return insert(trx);
  });
}

/**
 * Checks that row `id` of `table` is `userId`'s.
 * @throws ApiError 404 `notFoundMessage` when it is not theirs or does not exist
 */
export async function requireOwned(
  db: Kysely<Database>,
  table: OwnedTable,
  userId: number,
  id: number,
  notFoundMessage: string,
): Promise<void> {
  const row = await db
    .selectFrom(table)
    .select('id')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new ApiError(ApiCode.NOT_FOUND, notFoundMessage);
}

/**
 * Deletes row `id` of `table` when it is `userId`'s.
 * @throws ApiError 404 `notFoundMessage` when it is not theirs or does not exist
 */
export async function deleteOwned(
  db: Kysely<Database>,
  table: OwnedTable,
  userId: number,
  id: number,
  notFoundMessage: string,
): Promise<void> {
  const r = await db.deleteFrom(table).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (Number(r.numDeletedRows) === 0) throw new ApiError(ApiCode.NOT_FOUND, notFoundMessage);
}
