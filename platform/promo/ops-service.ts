/**
 * Finance's promotion-code batches (兑换码; docs/decisions/062-promotion-codes.md, 015-operator-console-roles.md):
 * mint a batch (codes from a CSPRNG, 16 characters of the unambiguous alphabet, stored as typed after
 * normalisation and shown to finance only), list the batches, read one with its codes, disable one, and the console
 * queue of active batches about to expire. Every action writes its audit entry in the action's transaction.
 */
import type { Kysely } from 'kysely';
import { ApiCode } from '../../contract/envelope.ts';
import { OPS_PAGE_SIZE, type OpsQueueItem } from '../../contract/ops.ts';
import {
  formatPromoCode,
  MAX_PROMO_DAYS,
  PROMO_AREA,
  PROMO_CODE_ALPHABET,
  PROMO_CODE_LENGTH,
  PromoMsg,
  type PromoBatchDetail,
  type PromoBatchListData,
  type PromoBatchRow as PromoBatchView,
  type PromoBatchState,
} from '../../contract/promo-codes.ts';
import type { MintBatchBody } from '../../contract/promo.ts';
import { END_OF_DAY_SECONDS } from '../../contract/billing-codes.ts';
import { isUniqueViolation } from '../account/users.ts';
import { randomFromAlphabet } from '../core/crypto.ts';
import { ApiError } from '../core/errors.ts';
import { formatBeijing } from '../core/time.ts';
import type { PlatformDb } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { writeAudit } from '../ops/audit.ts';
import type { PromoBatchRow } from './schema.ts';

/** Beijing is UTC+8 all year, seconds. */
const BEIJING_OFFSET = 8 * 3600;
/** Codes inserted per statement (well within both dialects' bound-parameter limits). */
const INSERT_CHUNK = 250;
/** A batch whose expiry is this close shows in the console queue, seconds (7 days). */
const EXPIRY_NOTICE_SECONDS = 7 * 86400;
/** Tries of a mint whose fresh codes hit an existing one (about 2^-79 a code: practically never). */
const MINT_TRIES = 3;

const bad = (msg: string) => new ApiError(ApiCode.BAD_REQUEST, msg);

/**
 * The last second of the Beijing day `day` (`YYYY-MM-DD`), checked against `now`: not before today, at most
 * {@link MAX_PROMO_DAYS} days ahead.
 * @returns unix seconds @throws ApiError 400 `expiryInvalid` (no such day), `expiryPast`, `expiryTooFar`
 */
export function expiryOf(day: string, now: number): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const utc = Date.UTC(y, m - 1, d);
  const check = new Date(utc);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d)
    throw bad(PromoMsg.expiryInvalid);
  const end = utc / 1000 - BEIJING_OFFSET + END_OF_DAY_SECONDS;
  if (end < now) throw bad(PromoMsg.expiryPast);
  if (end > now + (MAX_PROMO_DAYS + 1) * 86400) throw bad(PromoMsg.expiryTooFar);
  return end;
}

function stateOf(b: PromoBatchRow, now: number): PromoBatchState {
  if (b.disabled_at !== null) return 'disabled';
  return now > Number(b.expires_at) ? 'expired' : 'active';
}

type BatchWithTotals = PromoBatchRow & { redeemed: number | string | null; username: string | null };

function batchView(b: BatchWithTotals, now: number): PromoBatchView {
  return {
    id: Number(b.id),
    name: b.name,
    remark: b.remark,
    points: Number(b.points),
    codeCount: Number(b.code_count),
    usesPerCode: Number(b.uses_per_code),
    redeemed: Number(b.redeemed ?? 0),
    expiresOn: formatBeijing(Number(b.expires_at)).slice(0, 10),
    state: stateOf(b, now),
    createdBy: b.username ?? '',
    createdAt: formatBeijing(Number(b.created_at)),
    disabledAt: b.disabled_at === null ? '' : formatBeijing(Number(b.disabled_at)),
  };
}

/** Batches with their redemptions counted and their minting operator's name. */
function batchesWithTotals(db: Kysely<Database>) {
  return db
    .selectFrom('promo_batches')
    .leftJoin('operators', 'operators.id', 'promo_batches.operator_id')
    .selectAll('promo_batches')
    .select('operators.username')
    .select((eb) =>
      eb
        .selectFrom('promo_codes')
        .select((e) => e.fn.sum<number>('promo_codes.uses').as('n'))
        .whereRef('promo_codes.batch_id', '=', 'promo_batches.id')
        .as('redeemed'),
    );
}

/** One page of batches, newest first, {@link OPS_PAGE_SIZE} a page. */
export async function listBatches(
  db: Kysely<Database>,
  page: number,
  now: number,
): Promise<PromoBatchListData> {
  const [rows, total] = await Promise.all([
    batchesWithTotals(db)
      .orderBy('promo_batches.id', 'desc')
      .limit(OPS_PAGE_SIZE)
      .offset((page - 1) * OPS_PAGE_SIZE)
      .execute(),
    db
      .selectFrom('promo_batches')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map((r) => batchView(r, now)), count: Number(total.n) };
}

/** A batch with all its codes (in minting order). @throws ApiError 404 `batchNotFound` */
export async function batchDetail(db: Kysely<Database>, id: number, now: number): Promise<PromoBatchDetail> {
  const b = await batchesWithTotals(db).where('promo_batches.id', '=', id).executeTakeFirst();
  if (!b) throw new ApiError(ApiCode.NOT_FOUND, PromoMsg.batchNotFound);
  const codes = await db
    .selectFrom('promo_codes')
    .select(['id', 'code', 'uses', 'max_uses'])
    .where('batch_id', '=', id)
    .orderBy('id', 'asc')
    .execute();
  return {
    batch: batchView(b, now),
    codes: codes.map((c) => ({
      id: Number(c.id),
      code: formatPromoCode(c.code),
      uses: Number(c.uses),
      maxUses: Number(c.max_uses),
    })),
  };
}

/** `count` distinct fresh codes. */
function freshCodes(count: number): string[] {
  const codes = new Set<string>();
  while (codes.size < count) codes.add(randomFromAlphabet(PROMO_CODE_ALPHABET, PROMO_CODE_LENGTH));
  return [...codes];
}

/**
 * Mints a batch for `operatorId` at `now`: the batch, its `body.count` codes and the audit entry (action `mint`) in
 * one transaction.
 * @returns the new batch's id
 * @throws ApiError 400 from {@link expiryOf}
 */
export async function mintBatch(
  pdb: PlatformDb,
  operatorId: number,
  body: MintBatchBody,
  now: number,
): Promise<number> {
  const expiresAt = expiryOf(body.expiresOn, now);
  for (let attempt = 1; ; attempt++) {
    try {
      return await pdb.db.transaction().execute(async (trx) => {
        const { id } = await trx
          .insertInto('promo_batches')
          .values({
            name: body.name,
            remark: body.remark ?? '',
            points: body.points,
            code_count: body.count,
            uses_per_code: body.uses,
            expires_at: expiresAt,
            disabled_at: null,
            operator_id: operatorId,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const batchId = Number(id);
        const codes = freshCodes(body.count);
        for (let i = 0; i < codes.length; i += INSERT_CHUNK) {
          await trx
            .insertInto('promo_codes')
            .values(
              codes
                .slice(i, i + INSERT_CHUNK)
                .map((code) => ({ batch_id: batchId, code, max_uses: body.uses, created_at: now })),
            )
            .execute();
        }
        await writeAudit(
          trx,
          {
            operatorId,
            area: PROMO_AREA,
            action: 'mint',
            subject: `${batchId} ${body.name}`,
            remark: `${body.count} codes × ${body.uses} uses, ${body.points} points, until ${body.expiresOn}`,
          },
          now,
        );
        return batchId;
      });
    } catch (err) {
      if (!isUniqueViolation(err) || attempt >= MINT_TRIES) throw err;
    }
  }
}

/**
 * Disables batch `id` at `now` (no code of it redeems any more; redemptions made stand), with its audit entry.
 * @throws ApiError 404 `batchNotFound`; 400 `alreadyDisabled`
 */
export async function disableBatch(
  pdb: PlatformDb,
  operatorId: number,
  id: number,
  now: number,
): Promise<void> {
  await pdb.db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable('promo_batches')
      .set({ disabled_at: now, updated_at: now })
      .where('id', '=', id)
      .where('disabled_at', 'is', null)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) {
      const exists = await trx
        .selectFrom('promo_batches')
        .select('id')
        .where('id', '=', id)
        .executeTakeFirst();
      throw exists ? bad(PromoMsg.alreadyDisabled) : new ApiError(ApiCode.NOT_FOUND, PromoMsg.batchNotFound);
    }
    await writeAudit(trx, { operatorId, area: PROMO_AREA, action: 'disable', subject: String(id) }, now);
  });
}

/** The console queue: enabled batches expiring within 7 days, soonest first. */
export async function expiringWaiting(
  db: Kysely<Database>,
  limit: number,
  now: number,
): Promise<{ count: number; items: OpsQueueItem[] }> {
  const base = db
    .selectFrom('promo_batches')
    .where('disabled_at', 'is', null)
    .where('expires_at', '>=', now)
    .where('expires_at', '<=', now + EXPIRY_NOTICE_SECONDS);
  const [rows, total] = await Promise.all([
    base.selectAll().orderBy('expires_at', 'asc').limit(limit).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    count: Number(total.n),
    items: rows.map((b) => ({
      id: Number(b.id),
      ref: String(b.id),
      subject: b.name,
      name: `${Number(b.points)} 积分 × ${Number(b.code_count)}`,
      submittedAt: formatBeijing(Number(b.expires_at)),
    })),
  };
}
