/**
 * Notifications as every area writes them (spec 01 §3 News, §2.6): {@link notify}, called inside the event's own
 * transaction (evidence saved, password changed, KYC decisions; later payment and invoice events), and the unread
 * count of the top-bar badge. The owner's list, read and delete are in service.ts.
 */
import type { Kysely } from 'kysely';
import { nowSeconds } from '../core/time.ts';
import type { Database } from '../db/schema.ts';
import { preparedQuery } from '../db/prepared.ts';

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
  const [r] = await unreadCountQuery(db, { userId });
  return Number(r!.n);
}

/** The count of {@link unreadCount}, prepared once (platform/db/prepared.ts): every signed-in page asks it. */
const unreadCountQuery = preparedQuery<{ userId: number }, { n: number }>((db, param) =>
  db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', param('userId'))
    .where('is_read', '=', 0),
);
