/**
 * The owner's notification inbox (spec 01 §2.6, §3 News, §7): one page of 10, newest first; marking read (some, or
 * all) and deleting. Every query is scoped by `user_id`, and a list naming any id that is not the caller's changes
 * nothing and answers 404 消息不存在.
 */
import type { Kysely } from 'kysely';
import { ApiCode } from '../../contract/envelope.ts';
import {
  NOTIFICATION_PAGE_SIZE,
  type NotificationListData,
  NotificationMsg,
} from '../../contract/notification.ts';
import { ApiError } from '../core/errors.ts';
import { formatBeijing } from '../core/time.ts';
import type { Database } from '../db/schema.ts';
import { unreadCount } from './notifications.ts';

/**
 * One page of `userId`'s notifications, newest first, 10 a page (contract NOTIFICATION_PAGE_SIZE).
 * @param page 1-based; pages past the end are empty
 */
export async function listNotifications(
  db: Kysely<Database>,
  userId: number,
  page: number,
): Promise<NotificationListData> {
  const base = db.selectFrom('notifications').where('user_id', '=', userId);
  const [rows, total, unread] = await Promise.all([
    base
      .select(['id', 'content', 'is_read', 'created_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(NOTIFICATION_PAGE_SIZE)
      .offset((page - 1) * NOTIFICATION_PAGE_SIZE)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    unreadCount(db, userId),
  ]);
  return {
    list: rows.map((r) => ({
      newsId: Number(r.id),
      str: r.content,
      addTime: formatBeijing(Number(r.created_at)),
      isRead: r.is_read ? '1' : '0',
    })),
    count: Number(total.n),
    unread,
  };
}

/**
 * Counts how many of `ids` belong to `userId` (used to answer "not found" for any foreign or unknown id before
 * changing anything).
 */
export async function countOwned(db: Kysely<Database>, userId: number, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const r = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('id', 'in', ids)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Marks `ids` (or every notification, `'all'`) of `userId` read. @returns rows changed */
export async function markRead(db: Kysely<Database>, userId: number, ids: number[] | 'all'): Promise<number> {
  let q = db
    .updateTable('notifications')
    .set({ is_read: 1 })
    .where('user_id', '=', userId)
    .where('is_read', '=', 0);
  if (ids !== 'all') q = q.where('id', 'in', ids);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Deletes `ids` of `userId`. @returns rows deleted */
export async function deleteNotifications(
  db: Kysely<Database>,
  userId: number,
  ids: number[],
): Promise<number> {
  const r = await db
    .deleteFrom('notifications')
    .where('user_id', '=', userId)
    .where('id', 'in', ids)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Distinct ids of a comma list (`NewsIdsBody` has checked its shape). */
function idList(v: string): number[] {
  return [...new Set(v.split(',').map(Number))];
}

/**
 * Runs `change` on the ids of the comma list `list` in one transaction, after checking that every id is `userId`'s.
 * @throws ApiError 404 `newsNotFound` (nothing changed) when any is not
 */
async function onOwned(
  db: Kysely<Database>,
  userId: number,
  list: string,
  change: (trx: Kysely<Database>, ids: number[]) => Promise<unknown>,
): Promise<void> {
  const ids = idList(list);
  await db.transaction().execute(async (trx) => {
    if ((await countOwned(trx, userId, ids)) !== ids.length)
      throw new ApiError(ApiCode.NOT_FOUND, NotificationMsg.newsNotFound);
    await change(trx, ids);
  });
}

/** Marks the notifications of the comma list `newsId` of `userId` read, or all of them for `'all'`. */
export async function readNews(db: Kysely<Database>, userId: number, newsId: string): Promise<void> {
  if (newsId === 'all') await markRead(db, userId, 'all');
  else await onOwned(db, userId, newsId, (trx, ids) => markRead(trx, userId, ids));
}

/** Deletes the notifications of the comma list `newsId` of `userId`. @throws ApiError 400 for `'all'` */
export async function deleteNews(db: Kysely<Database>, userId: number, newsId: string): Promise<void> {
  if (newsId === 'all') throw new ApiError(ApiCode.BAD_REQUEST, NotificationMsg.newsRequired);
  await onOwned(db, userId, newsId, (trx, ids) => deleteNotifications(trx, userId, ids));
}
