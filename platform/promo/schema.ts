/**
 * The promotion-code tables as Kysely sees them (migration 0028; docs/decisions/062-promotion-codes.md). They join
 * the platform's `Database` by interface merging (decision 060); the row types are imported from here. Times are
 * unix seconds, points whole numbers.
 */
import type { Generated, Selectable } from 'kysely';

/** A batch of codes minted at once by finance. */
export interface PromoBatchesTable {
  id: Generated<number>;
  name: string;
  remark: Generated<string>;
  /** Points one redemption credits. */
  points: number;
  code_count: number;
  /** Redemptions allowed per code, each by a different user (1 single-use). */
  uses_per_code: number;
  /** The last second a code of the batch redeems: the end of the expiry day, Beijing time. */
  expires_at: number;
  /** When finance disabled the batch; null while enabled. */
  disabled_at: number | null;
  /** The minting operator (null once that account is removed). */
  operator_id: number | null;
  created_at: number;
  updated_at: number;
}

/** One code; `uses` only grows, by the conditional update of a redemption, and never past `max_uses`. */
export interface PromoCodesTable {
  id: Generated<number>;
  batch_id: number;
  /** Normalised: 16 characters of the code alphabet (contract/promo-codes.ts). */
  code: string;
  uses: Generated<number>;
  max_uses: number;
  created_at: number;
}

/** One redemption: unique per (code, user); its id is the points source's reference. */
export interface PromoRedemptionsTable {
  id: Generated<number>;
  code_id: number;
  batch_id: number;
  user_id: number;
  points: number;
  created_at: number;
}

declare module '../db/schema.ts' {
  interface Database {
    promo_batches: PromoBatchesTable;
    promo_codes: PromoCodesTable;
    promo_redemptions: PromoRedemptionsTable;
  }
}

export type PromoBatchRow = Selectable<PromoBatchesTable>;
export type PromoCodeRow = Selectable<PromoCodesTable>;
export type PromoRedemptionRow = Selectable<PromoRedemptionsTable>;
