/**
 * The promotion-code area's contract (兑换码; docs/decisions/062-promotion-codes.md): the redeem body, the console's
 * mint, batch and list bodies (zod), plus everything of contract/promo-codes.ts. Numbers given as text are decimal
 * digits only (`decimalCount`, decision 057). Used by the platform (`parseInput`) and the pages' actions. No I/O.
 */
import { z } from 'zod';
import './zod-locale.ts';
import { decimalCount } from './billing.ts';
import { opsPage } from './ops.ts';
import { blankToUndefined, multilineText, rowId, SPECIAL_CHARS_RE } from './validators.ts';
import { Msg } from './messages.ts';
import {
  MAX_PROMO_CODES,
  MAX_PROMO_NAME,
  MAX_PROMO_POINTS,
  MAX_PROMO_REMARK,
  MAX_PROMO_USES,
  MIN_PROMO_CODES,
  MIN_PROMO_POINTS,
  MIN_PROMO_USES,
  normalizePromoCode,
  PROMO_CODE_INPUT_MAX,
  PromoMsg,
} from './promo-codes.ts';

export * from './promo-codes.ts';

/**
 * `redeem` body: `code` as typed (at most {@link PROMO_CODE_INPUT_MAX} characters), normalised by
 * {@link normalizePromoCode}; blank answers 请输入兑换码. Whether it names a code is the platform's to say.
 */
export const RedeemBody = z.object({
  code: z.preprocess(
    blankToUndefined,
    z
      .string({ error: PromoMsg.codeRequired })
      .max(PROMO_CODE_INPUT_MAX, PromoMsg.codeUnknown)
      .transform(normalizePromoCode)
      .pipe(z.string().min(1, PromoMsg.codeRequired)),
  ),
});
export type RedeemBody = z.infer<typeof RedeemBody>;

/** The expiry day as the date field sends it, `YYYY-MM-DD`; the calendar check is the platform's. */
export const EXPIRY_DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

/** A batch's name or remark: trimmed, at most `max` characters, none of the shared forbidden characters. */
function batchText(max: number, tooLong: string, required: boolean) {
  const base = multilineText(required ? PromoMsg.nameRequired : Msg.badRequest)
    .max(max, tooLong)
    .refine((s) => !SPECIAL_CHARS_RE.test(s), PromoMsg.specialChars);
  return required ? z.preprocess(blankToUndefined, base) : z.preprocess((v) => v ?? '', base);
}

/** `mint` body (the console's form): name, remark, points per redemption, number of codes, uses per code, expiry. */
export const MintBatchBody = z.object({
  name: batchText(MAX_PROMO_NAME, PromoMsg.nameTooLong, true),
  remark: batchText(MAX_PROMO_REMARK, PromoMsg.remarkTooLong, false),
  points: decimalCount(MIN_PROMO_POINTS, MAX_PROMO_POINTS, {
    required: PromoMsg.pointsRequired,
    digits: PromoMsg.pointsDigits,
    range: PromoMsg.pointsRange,
  }),
  count: decimalCount(MIN_PROMO_CODES, MAX_PROMO_CODES, {
    required: PromoMsg.countRequired,
    digits: PromoMsg.countDigits,
    range: PromoMsg.countRange,
  }),
  uses: decimalCount(MIN_PROMO_USES, MAX_PROMO_USES, {
    required: PromoMsg.usesRequired,
    digits: PromoMsg.usesDigits,
    range: PromoMsg.usesRange,
  }),
  expiresOn: z.preprocess(
    blankToUndefined,
    z.string({ error: PromoMsg.expiryRequired }).trim().regex(EXPIRY_DAY_RE, PromoMsg.expiryInvalid),
  ),
});
export type MintBatchBody = z.infer<typeof MintBatchBody>;

/** `batch` query and `disable` body: the batch's id; anything else answers 参数错误. */
export const PromoBatchIdBody = z.object({ id: rowId(Msg.invalidId) });
export type PromoBatchIdBody = z.infer<typeof PromoBatchIdBody>;

/** `batches` query. */
export const PromoBatchesQuery = z.object({ page: opsPage });
export type PromoBatchesQuery = z.infer<typeof PromoBatchesQuery>;
