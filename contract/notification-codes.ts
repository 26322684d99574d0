/**
 * The notifications area's paths, messages, shapes and page size without zod (spec 01 §2.6, §3 News, §7), for the
 * page that shows them without loading the area's schemas (decision 031: first-load JS). contract/notification.ts
 * re-exports them beside the request schemas. No I/O.
 */
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
