/**
 * Redeeming a promotion code (兑换码; docs/decisions/062-promotion-codes.md). A redemption is one
 * `withUserTransaction` of the redeeming user (platform/core/transactions.ts) that
 * 1. finds the code and its batch (unknown: 404; the batch disabled or past its expiry: 400),
 * 2. refuses a second redemption of the code by the same user (400; the unique index on (code_id, user_id) backs it),
 * 3. counts the use with one conditional UPDATE — `uses = uses + 1 WHERE uses < max_uses` and the batch still
 *    enabled and unexpired — so concurrent redemptions by different users (whose user locks do not serialize them)
 *    never take a code past its limit: the row lock lets one through and the others see the new count,
 * 4. inserts the redemption and credits its points through the points API with source `{kind: 'promo', ref: the
 *    redemption's id}` (decision 057), in the same transaction: all of it commits or nothing does.
 * Wrong codes are throttled per user (platform/core/attempts.ts, {@link PROMO_POLICY}) so codes cannot be guessed;
 * only an unknown code counts as a wrong one.
 */
import type { Kysely } from 'kysely';
import { ApiCode } from '../../contract/envelope.ts';
import {
  PROMO_ATTEMPTS_MAX,
  PROMO_ATTEMPTS_WINDOW_SECONDS,
  PROMO_CODE_RE,
  PROMO_SOURCE_KIND,
  PromoMsg,
  type RedeemData,
} from '../../contract/promo-codes.ts';
import { isUniqueViolation } from '../account/users.ts';
import { type AttemptPolicy, recordFailure, throttledFor } from '../core/attempts.ts';
import { ApiError } from '../core/errors.ts';
import { withUserTransaction } from '../core/transactions.ts';
import type { PlatformDb } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { credit, registerPointsSource } from '../points/journal.ts';
import type {} from './schema.ts';

registerPointsSource({ kind: PROMO_SOURCE_KIND, label: PromoMsg.sourceLabel, direction: 'credit' });

/** Redeem: {@link PROMO_ATTEMPTS_MAX} unknown codes per user in {@link PROMO_ATTEMPTS_WINDOW_SECONDS}. */
export const PROMO_POLICY: AttemptPolicy = {
  scope: 'promo',
  max: PROMO_ATTEMPTS_MAX,
  windowSeconds: PROMO_ATTEMPTS_WINDOW_SECONDS,
};

const bad = (msg: string) => new ApiError(ApiCode.BAD_REQUEST, msg);
const unknownCode = () => new ApiError(ApiCode.NOT_FOUND, PromoMsg.codeUnknown);

/** The code `code` with its batch's state, or undefined. */
function findCode(trx: Kysely<Database>, code: string) {
  return trx
    .selectFrom('promo_codes')
    .innerJoin('promo_batches', 'promo_batches.id', 'promo_codes.batch_id')
    .select([
      'promo_codes.id',
      'promo_codes.batch_id',
      'promo_batches.points',
      'promo_batches.expires_at',
      'promo_batches.disabled_at',
    ])
    .where('promo_codes.code', '=', code)
    .executeTakeFirst();
}

/** Why a code of a batch in this state does not redeem at `now`, or null when it does. */
function batchRefusal(b: { disabled_at: number | null; expires_at: number }, now: number): string | null {
  if (b.disabled_at !== null) return PromoMsg.batchDisabled;
  if (now > Number(b.expires_at)) return PromoMsg.codeExpired;
  return null;
}

/**
 * Redeems `code` (normalised, contract `RedeemBody`) for `userId` at `now` (unix seconds).
 * @returns the points credited and the balance after
 * @throws ApiError 429 `throttled` after too many unknown codes; 404 `codeUnknown`; 400 `batchDisabled`,
 *   `codeExpired`, `alreadyRedeemed` (this user redeemed it before), `usedUp` (every use taken)
 */
export async function redeemCode(
  pdb: PlatformDb,
  userId: number,
  code: string,
  now: number,
): Promise<RedeemData> {
  const subject = String(userId);
  if ((await throttledFor(pdb.db, PROMO_POLICY, subject)) > 0)
    throw new ApiError(ApiCode.TOO_MANY_REQUESTS, PromoMsg.throttled);
  try {
    if (!PROMO_CODE_RE.test(code)) throw unknownCode();
    return await withUserTransaction(pdb, userId, (trx) => redeemIn(trx, userId, code, now));
  } catch (err) {
    // Counted after the transaction has ended: on SQLite it holds the one connection.
    if (err instanceof ApiError && err.code === ApiCode.NOT_FOUND)
      await recordFailure(pdb.db, PROMO_POLICY, subject);
    throw err;
  }
}

/** The redemption inside the user's transaction (see the module's steps). */
async function redeemIn(
  trx: Kysely<Database>,
  userId: number,
  code: string,
  now: number,
): Promise<RedeemData> {
  const found = await findCode(trx, code);
  if (!found) throw unknownCode();
  const refusal = batchRefusal(found, now);
  if (refusal) throw bad(refusal);
  const codeId = Number(found.id);
  const before = await trx
    .selectFrom('promo_redemptions')
    .select('id')
    .where('code_id', '=', codeId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (before) throw bad(PromoMsg.alreadyRedeemed);
  const counted = await trx
    .updateTable('promo_codes')
    .set((eb) => ({ uses: eb('uses', '+', 1) }))
    .where('id', '=', codeId)
    .whereRef('uses', '<', 'max_uses')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('promo_batches')
          .select('promo_batches.id')
          .where('promo_batches.id', '=', Number(found.batch_id))
          .where('promo_batches.disabled_at', 'is', null)
          .where('promo_batches.expires_at', '>=', now),
      ),
    )
    .executeTakeFirst();
  if (Number(counted.numUpdatedRows) !== 1) {
    // The batch may have been disabled or expired since it was read; otherwise every use is taken.
    const again = await findCode(trx, code);
    throw bad((again && batchRefusal(again, now)) ?? PromoMsg.usedUp);
  }
  const points = Number(found.points);
  let redemptionId: number;
  try {
    const row = await trx
      .insertInto('promo_redemptions')
      .values({ code_id: codeId, batch_id: Number(found.batch_id), user_id: userId, points, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    redemptionId = Number(row.id);
  } catch (err) {
    if (isUniqueViolation(err)) throw bad(PromoMsg.alreadyRedeemed);
    throw err;
  }
  const balance = await credit(
    trx,
    userId,
    points,
    { kind: PROMO_SOURCE_KIND, ref: String(redemptionId) },
    now,
  );
  return { points, balance };
}
