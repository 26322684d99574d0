/**
 * Notification calls (contract `NotificationPaths`; spec 01 §2.6, §7 News): `GET /api/News/listing {page}`,
 * `POST /api/News/read {newsId}` (comma list or `all`), `POST /api/News/del {newsId}` (comma list). A list naming
 * any id that is not the caller's answers 404 消息不存在 and changes nothing (service.ts).
 */
import type { FastifyInstance } from 'fastify';
import { ok } from '../../contract/envelope.ts';
import {
  NewsIdsBody,
  NewsPageQuery,
  type NotificationListData,
  NotificationMsg,
  NotificationPaths,
} from '../../contract/notification.ts';
import { currentUser } from '../account/auth.ts';
import { parseInput } from '../core/errors.ts';
import { deleteNews, listNotifications, readNews } from './service.ts';

/** Registers the notification routes (needs the services and auth plugins). */
export async function notificationRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.pdb;

  app.get(NotificationPaths.newsListing, { preHandler: app.requireUser }, async (request) => {
    const { page } = parseInput(NewsPageQuery, request.query);
    const data: NotificationListData = await listNotifications(db, currentUser(request).id, page);
    return ok(data);
  });

  app.post(NotificationPaths.newsRead, { preHandler: app.requireUser }, async (request) => {
    const { newsId } = parseInput(NewsIdsBody, request.body);
    await readNews(db, currentUser(request).id, newsId);
    return ok(null, newsId === 'all' ? NotificationMsg.allRead : NotificationMsg.read);
  });

  app.post(NotificationPaths.newsDel, { preHandler: app.requireUser }, async (request) => {
    const { newsId } = parseInput(NewsIdsBody, request.body);
    await deleteNews(db, currentUser(request).id, newsId);
    return ok(null, NotificationMsg.deleted);
  });
}
