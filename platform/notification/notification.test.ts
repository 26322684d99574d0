/**
 * Notifications on the platform, on SQLite and PostgreSQL (spec 01 §2.6, §7): saving evidence writes one, the unread
 * count of getAuthInfo follows reading and deleting, and the list pages 10 at a time (decision 009).
 */
import { expect, it } from 'vitest';
import { AccountPaths, type UserInfo } from '../../contract/account.ts';
import type { SaveEvidenceData } from '../../contract/evidence.ts';
import { type NotificationListData, NotificationPaths } from '../../contract/notification.ts';
import { userFactory } from '../../tests/support/account.ts';
import { forEachDialect, get, post, upload } from '../../tests/support/platform.ts';

forEachDialect('notifications', (h) => {
  const newUser = userFactory(h);

  it('writes a notification when evidence is saved, counts unread in getAuthInfo, reads and deletes', async () => {
    const a = await newUser();
    for (const i of [1, 2, 3]) {
      const r = await upload<SaveEvidenceData>(h.app, a.token, Buffer.from(`news ${i}`), `n${i}.txt`, {
        title: `通知${i}`,
      });
      expect(r.code).toBe(200);
    }
    const info = await post<UserInfo>(h.app, AccountPaths.authInfo, {}, a.token);
    expect(info.data.newsNum).toBe(3);
    const list = await get<NotificationListData>(h.app, NotificationPaths.newsListing, { page: 1 }, a.token);
    expect(list.data.count).toBe(3);
    expect(list.data.unread).toBe(3);
    expect(list.data.list[0]!.str).toContain('通知3');
    expect(list.data.list.every((n) => n.isRead === '0')).toBe(true);
    const [n3, n2, n1] = list.data.list.map((n) => n.newsId);
    expect((await post(h.app, NotificationPaths.newsRead, { newsId: String(n3) }, a.token)).code).toBe(200);
    expect((await post<UserInfo>(h.app, AccountPaths.authInfo, {}, a.token)).data.newsNum).toBe(2);
    expect((await post(h.app, NotificationPaths.newsDel, { newsId: `${n2},${n1}` }, a.token)).code).toBe(200);
    const after = await get<NotificationListData>(h.app, NotificationPaths.newsListing, {}, a.token);
    expect(after.data.list.map((n) => [n.newsId, n.isRead])).toEqual([[n3, '1']]);
    expect(after.data.unread).toBe(0);
  });

  it('pages notifications 10 at a time', async () => {
    const a = await newUser();
    for (let i = 0; i < 12; i++) await upload(h.app, a.token, Buffer.from(`p ${i}`), `p${i}.txt`);
    const p1 = await get<NotificationListData>(h.app, NotificationPaths.newsListing, { page: 1 }, a.token);
    const p2 = await get<NotificationListData>(h.app, NotificationPaths.newsListing, { page: 2 }, a.token);
    expect(p1.data.count).toBe(12);
    expect(p1.data.list).toHaveLength(10);
    expect(p2.data.list).toHaveLength(2);
    await post(h.app, NotificationPaths.newsRead, { newsId: 'all' }, a.token);
    expect((await post<UserInfo>(h.app, AccountPaths.authInfo, {}, a.token)).data.newsNum).toBe(0);
  });
});
