/**
 * The notifications area's table as Kysely sees it (migration 0004; spec 01 §3 News). It joins the platform's
 * `Database` by interface merging (decision 060). Times are unix seconds.
 */
import type { Generated, Selectable } from 'kysely';
import type { Defaulted } from '../db/schema.ts';

/** A notification of the account area (migration 0004; spec 01 §3 News). */
export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  /** The message text shown in the list (zh-CN), at most 500 characters. */
  content: string;
  /** 0 unread, 1 read. */
  is_read: Defaulted<number>;
  created_at: number;
}

declare module '../db/schema.ts' {
  interface Database {
    notifications: NotificationsTable;
  }
}

export type NotificationRow = Selectable<NotificationsTable>;
