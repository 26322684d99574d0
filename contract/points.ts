/**
 * The points contract (docs/decisions/057-points-api.md; spec 02 §1 "points", §2 "Top bar": points with a buy link):
 * the user's points history (积分明细) — the balance and every entry of the points journal, newest first, each with
 * its source's label, its signed points and the balance after it. Points are integers everywhere; times are shown in
 * Beijing time. The journal itself is written only by the platform's points API (platform/points/README.md). No I/O.
 */
import { z } from 'zod';
import './zod-locale.ts';
import { BillingMsg } from './billing.ts';
import { optionalInt } from './validators.ts';

/** Entries a page of the history, newest first (ours). */
export const POINTS_PAGE_SIZE = 20;

/** Messages of the points history (zh-CN, ours; the debit's is billing's 积分不足, shared). */
export const PointsMsg = {
  /** A debit that would take the balance below 0 (400). */
  insufficient: BillingMsg.insufficientPoints,
  /** The page's empty list. */
  empty: '暂无积分记录',
} as const;

/** The user's points calls (bearer token). */
export const PointsPaths = {
  /** `GET` (or `POST`) {@link PointsHistoryQuery} `{page}` → {@link PointsHistoryData}: the caller's entries only. */
  history: '/api/points/history',
} as const;

/** The page of the app (积分明细). */
export const PointsPages = { history: '/points' } as const;

/** `history` query or body: `page` from 1 (blank or absent: 1); anything else answers 参数错误. */
export const PointsHistoryQuery = z.object({
  page: optionalInt(1, 100_000).transform((v) => v ?? 1),
});
export type PointsHistoryQuery = z.infer<typeof PointsHistoryQuery>;

/** One journal entry as the user sees it. */
export interface PointsEntry {
  id: number;
  /** "YYYY-MM-DD HH:mm:ss" Beijing time. */
  at: string;
  /** The source's registered kind (`recharge`, `spend`, `reversal`, or another area's). */
  kind: string;
  /** The source's zh-CN label (充值, 公证消费, 退还, …), as its area registered it. */
  label: string;
  /** Signed points: credits > 0, debits < 0. */
  points: number;
  /** The balance after this entry, points (never negative). */
  balance: number;
}

/** `history` answer. */
export interface PointsHistoryData {
  /** The balance now, points (equals the journal's sum). */
  balance: number;
  /** Entries in all. */
  count: number;
  page: number;
  pageSize: number;
  list: PointsEntry[];
}
