/**
 * The public home area's contract (spec 01 §2.1 /appDownload and /activity, §7 `POST /api/home/getAppVersion`): the
 * app versions offered for download and the events page, both driven by the platform's configuration
 * (APP_VERSIONS / APP_VERSIONS_FILE, ACTIVITIES / ACTIVITIES_FILE; docs/decisions/027-spec-remainders.md).
 * The item schemas validate the configuration at start-up; the pages only read the answers, and take their messages
 * and the activity status label from the zod-free `contract/home-codes.ts`.
 */
import { z } from 'zod';
import './zod-locale.ts';

export const HomePaths = {
  /** `POST` (no body) → AppVersion[] (spec 01 §7; the payload and result are ours). */
  appVersion: '/api/home/getAppVersion',
  /** `GET` → Activity[] newest first (ours: the spec lists /activity but shows no call for it). */
  activities: '/api/home/getActivityList',
} as const;

/** "YYYY-MM-DD" (a calendar day, Beijing time). */
const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a day YYYY-MM-DD');
/** An absolute http(s) URL or a same-site path starting with one `/` (never `javascript:` or `//host`). */
const Link = z
  .string()
  .trim()
  .max(2000)
  .refine(
    (s) => /^https?:\/\/[^\s]+$/i.test(s) || /^\/(?![/\\])[^\s]*$/.test(s),
    'must be an http(s) URL or a /path',
  );

/** One downloadable app version (configuration APP_VERSIONS). `size` in bytes when given. */
export const AppVersion = z.object({
  /** The platform it runs on, as shown: e.g. "Android", "iOS", "Windows". */
  platform: z.string().trim().min(1).max(30),
  /** The app's name, e.g. "存证云取证". */
  name: z.string().trim().min(1).max(50),
  /** The version, e.g. "3.2.1". */
  version: z.string().trim().min(1).max(30),
  /** Where the installer or the store page is. */
  url: Link,
  releasedAt: Day.optional(),
  /** Size of the installer, bytes. */
  size: z.number().int().min(0).optional(),
  notes: z.string().trim().max(500).optional(),
});
export type AppVersion = z.infer<typeof AppVersion>;
export const AppVersionList = z.array(AppVersion).max(100);

/** One event of the /activity page (configuration ACTIVITIES). Days are inclusive, Beijing time. */
export const Activity = z
  .object({
    title: z.string().trim().min(1).max(100),
    summary: z.string().trim().max(1000).optional(),
    startAt: Day,
    endAt: Day,
    location: z.string().trim().max(100).optional(),
    /** Where to read more or sign up. */
    url: Link.optional(),
  })
  .refine((a) => a.startAt <= a.endAt, { message: 'endAt must not be before startAt', path: ['endAt'] });
export type Activity = z.infer<typeof Activity>;
export const ActivityList = z.array(Activity).max(200);
