/**
 * The configured content of /appDownload and /activity, read from the upstream (contract `HomePaths`; spec 01 §2.1,
 * §7). Public calls, made without the session's token. A non-success answer (for example a legacy upstream without
 * the activity call) reads as an empty list, so the page shows its empty state; on the app download page the
 * spec's 408/403 codes just reload the route (spec 01 §8), which a tokenless call never triggers.
 */
import type { AppLoadContext } from 'react-router';
import { isSuccess } from '../../contract/envelope.ts';
import { HomePaths, type Activity, type AppVersion } from '../../contract/home.ts';
import { apiCall } from '../lib/api.server.ts';

/** The app versions of `POST /api/home/getAppVersion`, [] when none or on a non-success answer. */
export async function loadAppVersions(context: AppLoadContext, urlPath: string): Promise<AppVersion[]> {
  const res = await apiCall<AppVersion[]>(context, HomePaths.appVersion, { method: 'POST', urlPath });
  return isSuccess(res.code) && Array.isArray(res.data) ? res.data : [];
}

/** The activities of `GET /api/home/getActivityList`, [] when none or on a non-success answer. */
export async function loadActivities(context: AppLoadContext, urlPath: string): Promise<Activity[]> {
  const res = await apiCall<Activity[]>(context, HomePaths.activities, { urlPath });
  return isSuccess(res.code) && Array.isArray(res.data) ? res.data : [];
}

/** Today as "YYYY-MM-DD" in Beijing time (UTC+8, no daylight saving), for `activityStatus`. */
export function beijingToday(nowMs = Date.now()): string {
  return new Date(nowMs + 8 * 3600_000).toISOString().slice(0, 10);
}
