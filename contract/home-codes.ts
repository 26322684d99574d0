/**
 * The home area's zod-free values for its pages (ARCHITECTURE "An area, its files": `contract/<area>-codes.ts`), so
 * /appDownload and /activity load no schema: the empty-state messages and an activity's status label.
 */

/** Messages of the home area (ours: the spec shows none). */
export const HomeMsg = {
  noApps: '暂无可下载的应用',
  noActivities: '暂无活动',
} as const;

/** Where an activity stands on `today` ("YYYY-MM-DD", Beijing). */
export function activityStatus(
  a: { startAt: string; endAt: string },
  today: string,
): '即将开始' | '进行中' | '已结束' {
  if (today < a.startAt) return '即将开始';
  return today > a.endAt ? '已结束' : '进行中';
}
