/**
 * Notifications (issue 4; spec 01 §3 News, §2.6): one function, {@link notify}, that every area calls inside its own
 * transaction (evidence saved, password changed; later KYC, payment and invoice events), and the owner's list,
 * read and delete. Every query is scoped by `user_id`: another user's ids are never touched.
 */
import type { Kysely } from 'kysely';
import { NOTIFICATION_PAGE_SIZE, type NotificationListData } from '../../contract/index.ts';
import { formatBeijing, nowSeconds } from '../core/time.ts';
import type { Database } from '../db/schema.ts';

/** Longest notification text stored (characters; the column is varchar(500)). */
const MAX_CONTENT = 500;

/**
 * Writes an unread notification for `userId`. Pass the transaction of the event so both commit together.
 * @param content zh-CN text, cut to 500 characters
 * @param now unix seconds (default now)
 */
export async function notify(
  db: Kysely<Database>,
  userId: number,
  content: string,
  now = nowSeconds(),
): Promise<void> {
  await db
    .insertInto('notifications')
    .values({ user_id: userId, content: content.slice(0, MAX_CONTENT), is_read: 0, created_at: now })
    .execute();
}

/** The number of unread notifications of `userId` (the top-bar badge; the UI caps the display at 99). */
export async function unreadCount(db: Kysely<Database>, userId: number): Promise<number> {
  const r = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('is_read', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

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
