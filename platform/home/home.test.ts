/**
 * The public home calls on SQLite and PostgreSQL (spec 01 §2.1, §7; decision 027): getAppVersion and the activity
 * list answer the configured APP_VERSIONS / ACTIVITIES (inline JSON or a file), [] when unset; a bad configuration
 * fails the start with a message naming the variable.
 */
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Activity, type AppVersion, HomePaths } from '../../contract/home.ts';
import { ConfigError, loadPlatformConfig } from '../config.ts';
import { call, forEachDialect, get, post } from '../../tests/support/platform.ts';

const VERSIONS: AppVersion[] = [
  {
    platform: 'Android',
    name: '存证云取证',
    version: '3.2.1',
    url: 'https://example.com/app.apk',
    size: 31_457_280,
  },
  {
    platform: 'iOS',
    name: '存证云取证',
    version: '3.2.0',
    url: 'https://apps.apple.com/app/id1',
    releasedAt: '2026-10-01',
  },
];
const ACTIVITIES: Activity[] = [
  { title: '旧活动', startAt: '2025-01-01', endAt: '2025-01-02' },
  { title: '新活动', startAt: '2026-12-01', endAt: '2026-12-31', location: '线上', url: '/helpCenter' },
];

forEachDialect(
  'home calls, configured',
  (h) => {
    it('getAppVersion answers the configured versions in order; the activities newest first', async () => {
      const v = await post<AppVersion[]>(h.app, HomePaths.appVersion);
      expect(v).toMatchObject({ code: 200, data: VERSIONS });
      const a = await get<Activity[]>(h.app, HomePaths.activities);
      expect(a.code).toBe(200);
      expect(a.data.map((x) => x.title)).toEqual(['新活动', '旧活动']);
      expect(a.data[0]).toEqual(ACTIVITIES[1]);
    });
  },
  { APP_VERSIONS: JSON.stringify(VERSIONS), ACTIVITIES: JSON.stringify(ACTIVITIES) },
);

forEachDialect('home calls, nothing configured', (h) => {
  it('both answer an empty list', async () => {
    expect(await post(h.app, HomePaths.appVersion)).toMatchObject({ code: 200, data: [] });
    expect(await get(h.app, HomePaths.activities)).toMatchObject({ code: 200, data: [] });
    // the call takes no body; a GET of the POST call is an unknown route, not a 500
    const wrong = await call(h.app, { method: 'GET', url: HomePaths.appVersion });
    expect(wrong.code).toBe(404);
  });
});

describe('home configuration', () => {
  const base = { APP_ENV: 'test', DATA_DIR: os.tmpdir() };
  it('reads APP_VERSIONS_FILE and ACTIVITIES_FILE', async () => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'home-config-'));
    const vf = path.join(dir, 'versions.json');
    const af = path.join(dir, 'activities.json');
    await fsp.writeFile(vf, JSON.stringify(VERSIONS));
    await fsp.writeFile(af, JSON.stringify(ACTIVITIES));
    const c = loadPlatformConfig({ ...base, APP_VERSIONS_FILE: vf, ACTIVITIES_FILE: af });
    expect(c.home).toEqual({ appVersions: VERSIONS, activities: ACTIVITIES });
    await fsp.rm(dir, { recursive: true });
  });

  it('refuses bad JSON, bad items, unsafe links, both forms, and a missing file', () => {
    const bad: [Record<string, string>, RegExp][] = [
      [{ APP_VERSIONS: '[{' }, /APP_VERSIONS is not valid JSON/],
      [{ APP_VERSIONS: '{}' }, /APP_VERSIONS must be a JSON array/],
      [
        { APP_VERSIONS: JSON.stringify([{ ...VERSIONS[0], url: 'javascript:alert(1)' }]) },
        /APP_VERSIONS\[0\.url\]/,
      ],
      [
        { APP_VERSIONS: JSON.stringify([{ ...VERSIONS[0], url: '//evil.example/x' }]) },
        /APP_VERSIONS\[0\.url\]/,
      ],
      [
        { ACTIVITIES: JSON.stringify([{ title: 'x', startAt: '2026-02-01', endAt: '2026-01-01' }]) },
        /ACTIVITIES\[0\.endAt\]/,
      ],
      [
        { ACTIVITIES: JSON.stringify([{ title: '', startAt: '2026-01-01', endAt: '2026-01-01' }]) },
        /ACTIVITIES\[0\.title\]/,
      ],
      [{ ACTIVITIES: '[]', ACTIVITIES_FILE: '/x.json' }, /set ACTIVITIES or ACTIVITIES_FILE, not both/],
      [{ ACTIVITIES_FILE: '/nonexistent/activities.json' }, /ACTIVITIES_FILE cannot be read \(ENOENT\)/],
    ];
    for (const [env, message] of bad) {
      expect(() => loadPlatformConfig({ ...base, ...env })).toThrow(ConfigError);
      expect(() => loadPlatformConfig({ ...base, ...env })).toThrow(message);
    }
  });
});
