/**
 * Money and order numbers of the billing area (docs/decisions/018-billing.md). Amounts are integer fen end to end;
 * Alipay's yuan strings ("50.00") are converted with string arithmetic, never through a float.
 */
import { formatFen } from '../../contract/billing.ts';
import { datedNumber } from '../core/crypto.ts';

/** Fen → Alipay's `total_amount` text: yuan with two decimals (`5000` → `'50.00'`). */
export function fenToYuan(fen: number): string {
  if (!Number.isSafeInteger(fen) || fen < 0) throw new RangeError('fen: a non-negative integer');
  return formatFen(fen);
}

/**
 * Alipay's yuan text → fen: `'50'`, `'50.0'` or `'50.00'` → 5000. Null for anything else (a sign, an exponent,
 * three decimals, blanks), so a malformed amount never equals an order's.
 */
export function yuanToFen(yuan: string): number | null {
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(yuan);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/**
 * A new order number: 'R' (recharge) or 'C' (consumption), the Beijing date, then 80 random bits in hex — 29
 * characters, unique and not enumerable, within both providers' out_trade_no rules (≤ 32, letters and digits).
 */
export function newOrderNo(kind: 'R' | 'C', nowSeconds: number): string {
  return datedNumber(kind, nowSeconds);
}
