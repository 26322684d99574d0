/** Beijing time (UTC+8, no daylight saving), as the platform shows every time (spec 01 §3). No I/O. */

const BEIJING_OFFSET_SECONDS = 8 * 3600;

/** Formats unix seconds as "YYYY-MM-DD HH:mm:ss" in Beijing time (spec 01 §3 saveTime). */
export function formatBeijing(unixSeconds: number): string {
  const d = new Date((unixSeconds + BEIJING_OFFSET_SECONDS) * 1000);
  const p = (n: number) => String(n).padStart(2, '0');
  return (
    `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ` +
    `${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`
  );
}
