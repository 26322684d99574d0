/** Time helpers: the platform stores unix seconds and shows Beijing time (UTC+8, no DST) in lists and certificates. */

/** Current unix time in whole seconds. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

export { formatBeijing } from '../../contract/time.ts';
import { formatBeijing } from '../../contract/time.ts';

/** "YYYYMMDD" of unix seconds in Beijing time (used in evidence numbers). */
export function beijingDateStamp(unixSeconds: number): string {
  return formatBeijing(unixSeconds).slice(0, 10).replaceAll('-', '');
}
