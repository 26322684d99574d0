/**
 * The public home pages' content (spec 01 §2.1 /appDownload, /activity, §7 getAppVersion; decision 027): the lists
 * come from the platform configuration (`config.home`, validated at start), so the service only orders them.
 */
import type { Activity, AppVersion } from '../../contract/home.ts';

/** The app versions in the configured order (the operator lists the preferred one first). */
export function appVersions(home: { appVersions: AppVersion[] }): AppVersion[] {
  return home.appVersions.map((v) => ({ ...v }));
}

/** The activities, latest start first (ties: latest end first). */
export function activities(home: { activities: Activity[] }): Activity[] {
  return [...home.activities].sort(
    (a, b) => b.startAt.localeCompare(a.startAt) || b.endAt.localeCompare(a.endAt),
  );
}
