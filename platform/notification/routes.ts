/**
 * Notification calls (issue 4; contract `AccountAreaPaths`; spec 01 §7 News): `GET /api/News/listing {page}`,
 * `POST /api/News/read {newsId}` (comma list or `all`), `POST /api/News/del {newsId}` (comma list). A list naming
 * any id that is not the caller's answers 404 消息不存在 and changes nothing.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import {
  AccountAreaMsg,
  AccountAreaPaths,
  ApiCode,
  NewsIdsBody,
  ok,
  type NotificationListData,
} from '../../contract/index.ts';
import { currentUser } from '../account/auth.ts';
import { ApiError, parseInput } from '../core/errors.ts';
import type { Database } from '../db/schema.ts';
import { countOwned, deleteNotifications, listNotifications, markRead } from './notifications.ts';

const PageQuery = z.object({
  page: z.preprocess(
    (v) => (v === undefined || v === '' ? 1 : v),
    z.coerce.number().int().min(1).max(100000),
  ),
});

/** Parses a comma list into distinct ids. */
function idList(v: string): number[] {
  return [...new Set(v.split(',').map(Number))];
}

/** Registers the notification routes (needs the services and auth plugins). */
export async function notificationRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.pdb;

  /**
   * Runs `change` on the ids of the comma list in one transaction, after checking that every id is the user's:
   * otherwise 404 消息不存在 and nothing changes.
   */
  async function onOwned(
    userId: number,
    list: string,
    change: (trx: Kysely<Database>, ids: number[]) => Promise<unknown>,
  ): Promise<void> {
    const ids = idList(list);
    await db.transaction().execute(async (trx) => {
      if ((await countOwned(trx, userId, ids)) !== ids.length)
        throw new ApiError(ApiCode.NOT_FOUND, AccountAreaMsg.newsNotFound);
      await change(trx, ids);
    });
  }

  app.get(AccountAreaPaths.newsListing, { preHandler: app.requireUser }, async (request) => {
    const { page } = parseInput(PageQuery, request.query);
    const data: NotificationListData = await listNotifications(db, currentUser(request).id, page);
    return ok(data);
  });

  app.post(AccountAreaPaths.newsRead, { preHandler: app.requireUser }, async (request) => {
    const user = currentUser(request);
    const { newsId } = parseInput(NewsIdsBody, request.body);
    if (newsId === 'all') {
      await markRead(db, user.id, 'all');
      return ok(null, '已全部标记为已读');
    }
    await onOwned(user.id, newsId, (trx, ids) => markRead(trx, user.id, ids));
    return ok(null, '已标记为已读');
  });

  app.post(AccountAreaPaths.newsDel, { preHandler: app.requireUser }, async (request) => {
    const user = currentUser(request);
    const { newsId } = parseInput(NewsIdsBody, request.body);
    if (newsId === 'all') throw new ApiError(ApiCode.BAD_REQUEST, AccountAreaMsg.newsRequired);
    await onOwned(user.id, newsId, (trx, ids) => deleteNotifications(trx, user.id, ids));
    return ok(null, '删除成功');
  });
}
