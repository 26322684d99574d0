/**
 * The notifications area's contract (spec 01 §2.6, §3 News, §7): the list, marking read, deleting. The top bar's
 * unread badge reads `newsNum` of the user info (capped at 99 by the shell).
 */
import { z } from 'zod';
import './zod-locale.ts';
import { NotificationMsg } from './notification-codes.ts';

// The paths, messages, shapes and page size live without zod in contract/notification-codes.ts (the page imports them
// from there).
export {
  NOTIFICATION_PAGE_SIZE,
  NotificationMsg,
  NotificationPaths,
  type Notification,
  type NotificationListData,
} from './notification-codes.ts';

/** `GET /api/News/listing?page=`: 1-based, default 1. */
export const NewsPageQuery = z.object({
  page: z.preprocess(
    (v) => (v === undefined || v === '' ? 1 : v),
    z.coerce.number().int().min(1).max(100000),
  ),
});

/** `{newsId}`: a comma list of up to 100 ids, or `all` (read only). */
export const NewsIdsBody = z.object({
  newsId: z.preprocess(
    (v) => (typeof v === 'number' ? String(v) : v),
    z
      .string({ error: NotificationMsg.newsRequired })
      .trim()
      .regex(/^(all|\d{1,15}(,\d{1,15}){0,99})$/, NotificationMsg.newsRequired),
  ),
});
