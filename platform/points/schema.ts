/**
 * The points journal's table as Kysely sees it (migrations 0007_billing and 0026_points_sources;
 * docs/decisions/057-points-api.md): the append-only record of every change of a user's points, each entry naming
 * its source — a kind an area registered (platform/points/sources.ts) and a reference unique within that kind. It
 * joins the platform's `Database` by interface merging, so no line is added to platform/db/schema.ts. Points are
 * integers, times unix seconds.
 */
import type { ColumnType, Generated, Selectable } from 'kysely';

export interface PointsJournalTable {
  id: Generated<number>;
  user_id: number;
  /**
   * Billing's own entries name their order (`billing_orders.id`: the recharge credited, the consumption debited or
   * reversed), for finance's order view and the orders list; every other source's entries leave it null.
   */
  order_id: ColumnType<number | null, number | null | undefined, never>;
  /** The registered kind of the source (`recharge`, `spend`, `reversal`, or another area's). */
  source_kind: string;
  /** The reference of the source, unique within its kind: one entry per (source_kind, source_ref), ever. */
  source_ref: string;
  /** Signed: credits > 0, debits < 0. */
  points: number;
  /** The user's balance after this entry (never negative). */
  balance_after: number;
  created_at: number;
}

declare module '../db/schema.ts' {
  interface Database {
    points_journal: PointsJournalTable;
  }
}

export type PointsJournalRow = Selectable<PointsJournalTable>;
