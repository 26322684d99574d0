/**
 * Notices above the page: the unsupported-browser notice for IE 6–9 (spec 01 §1, §2.8), detected on the server from
 * the User-Agent so it shows without JavaScript, and the announcement banner for a configured window.
 */

/** True for Internet Explorer 6 to 9 User-Agent strings. */
export function isOldIe(userAgent: string | null): boolean {
  return !!userAgent && /MSIE [6-9]\.\d/.test(userAgent) && !/Trident\/[7-9]/.test(userAgent);
}

/**
 * True for browsers without `<details>`: Internet Explorer (any), EdgeHTML (Edge 12–18) and the stock Android
 * browser before 4.4 (WebKit without Chrome). Their confirmations use a `:target` box instead (confirm-action.tsx).
 */
export function lacksDetails(userAgent: string | null): boolean {
  if (!userAgent) return false;
  return (
    /MSIE \d|Trident\//.test(userAgent) ||
    /Edge\/1[2-8]\./.test(userAgent) ||
    (/Android [1-4]\.[0-3]\b/.test(userAgent) && !/Chrome\//.test(userAgent))
  );
}

/** True when `now` lies inside [from, until). Bad dates mean no banner. */
export function announcementActive(
  window: { from: string; until: string } | null,
  now = new Date(),
): boolean {
  if (!window) return false;
  const from = Date.parse(window.from);
  const until = Date.parse(window.until);
  if (Number.isNaN(from) || Number.isNaN(until)) return false;
  return now.getTime() >= from && now.getTime() < until;
}

export function IeNotice() {
  return (
    <div className="notice notice-warning" role="alert">
      您正在使用的浏览器版本过低，可能无法正常使用本平台。推荐使用：Google Chrome、Microsoft Edge、Mozilla
      Firefox、Safari 或 360 安全浏览器（极速模式）的最新版本。
    </div>
  );
}

export function AnnouncementBanner({ text }: { text: string }) {
  return (
    <div className="notice notice-info" role="status">
      {text}
    </div>
  );
}
