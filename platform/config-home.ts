/**
 * The public home pages' content (spec 01 §2.1 /appDownload, /activity; docs/decisions/027), composed into
 * platform/config.ts: read and validated once at start; unset → empty lists (the pages show their empty state).
 */
import { ActivityList, AppVersionList } from '../contract/home.ts';
import { envGroup, envVar } from '../lib/config-schema.ts';
import { jsonList, notBoth } from '../lib/config-types.ts';

const versions = jsonList('APP_VERSIONS', AppVersionList);
const activities = jsonList('ACTIVITIES', ActivityList);

/** APP_VERSIONS / ACTIVITIES, inline JSON or a file each. */
export const HomeVars = envGroup({
  id: 'home',
  title: 'Home pages',
  summary:
    'The apps on /appDownload and the events on /activity, as JSON arrays given inline or in a file, validated at start.',
  vars: {
    APP_VERSIONS: envVar(versions.inline, {
      description:
        'JSON array of {"platform","name","version","url","releasedAt"?,"size"? (bytes),"notes"?}: the apps on /appDownload',
      showValue: false,
      defaultText: 'none (暂无可下载的应用)',
    }),
    APP_VERSIONS_FILE: envVar(versions.file, { description: 'a file holding APP_VERSIONS, instead of it' }),
    ACTIVITIES: envVar(activities.inline, {
      description:
        'JSON array of {"title","startAt","endAt" (YYYY-MM-DD),"summary"?,"location"?,"url"?}: the events on /activity',
      showValue: false,
      defaultText: 'none (暂无活动)',
    }),
    ACTIVITIES_FILE: envVar(activities.file, { description: 'a file holding ACTIVITIES, instead of it' }),
  },
  checks: [
    { vars: [], problems: (_v, given) => notBoth('APP_VERSIONS', 'APP_VERSIONS_FILE', given) },
    { vars: [], problems: (_v, given) => notBoth('ACTIVITIES', 'ACTIVITIES_FILE', given) },
  ],
});
