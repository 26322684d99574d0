/**
 * The notifications area's contract (spec 01 §2.6, §3 News, §7): the list, marking read, deleting. The top bar's
 * unread badge reads `newsNum` of the user info (capped at 99 by the shell).
 */
import { z } from 'zod';
import './zod-locale.ts';

export const NotificationPaths = {
  /** `GET {page}` → NotificationListData (10 a page). */
  newsListing: '/api/News/listing',
  /** `POST {newsId}` (comma list, or `all`) → msg. */
  newsRead: '/api/News/read',
  /** `POST {newsId}` (comma list) → msg. */
  newsDel: '/api/News/del',
} as const;

/** Messages of the notifications area (our wording; the spec shows none). */
export const NotificationMsg = {
  newsNotFound: '消息不存在',
  newsRequired: '请选择消息',
  allRead: '已全部标记为已读',
  read: '已标记为已读',
  deleted: '删除成功',
} as const;

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

/** A notification (spec 01 §3). `isRead` "0" means unread; `addTime` "YYYY-MM-DD HH:mm:ss" Beijing time. */
export interface Notification {
  newsId: number;
  str: string;
  addTime: string;
  isRead: '0' | '1';
}
export interface NotificationListData {
  list: Notification[];
  count: number;
  /** Unread count of the user (for the badge). */
  unread: number;
}
/** Notifications page size: the spec's pager size 1 is a defect (spec 01 §9); lists elsewhere use 10. */
export const NOTIFICATION_PAGE_SIZE = 10;
