/**
 * Public home calls (contract `HomePaths`; spec 01 §2.1, §7): `POST /api/home/getAppVersion` → AppVersion[] for
 * /appDownload and `GET /api/home/getActivityList` → Activity[] for /activity. No login; both answer [] when
 * nothing is configured (APP_VERSIONS / ACTIVITIES, decision 027). The answers are public configuration, so they
 * may be cached briefly.
 */
import type { FastifyInstance } from 'fastify';
import { ok } from '../../contract/envelope.ts';
import { HomePaths } from '../../contract/home.ts';
import { activities, appVersions } from './service.ts';

/** Registers the home calls (reads `app.config.home`). */
export async function homeRoutes(app: FastifyInstance): Promise<void> {
  const { home } = app.config;
  app.post(HomePaths.appVersion, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=60');
    return ok(appVersions(home));
  });
  app.get(HomePaths.activities, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=60');
    return ok(activities(home));
  });
}
