/**
 * Account settings on the platform, on SQLite and PostgreSQL (spec 01 §2.5, §5): the password change (spec
 * messages, every token revoked, a notification) and the extraction code change (the old code stops working).
 */
import { expect, it } from 'vitest';
import { AccountMsg, AccountPaths, type UserInfo } from '../../contract/account.ts';
import { EvidenceMsg, EvidencePaths, type SaveEvidenceData } from '../../contract/evidence.ts';
import { Msg } from '../../contract/messages.ts';
import { type NotificationListData, NotificationPaths } from '../../contract/notification.ts';
import { userFactory } from '../../tests/support/account.ts';
import { forEachDialect, get, login, post, upload } from '../../tests/support/platform.ts';

forEachDialect('account settings', (h) => {
  const newUser = userFactory(h);

  it('changes the password: spec messages, every old token answers 408, the new password logs in', async () => {
    const a = await newUser('oldpass123');
    const second = await login(h.app, a.mobile, 'oldpass123');
    const differ = await post(
      h.app,
      AccountPaths.editPassword,
      { oldPassword: 'oldpass123', password: 'newpass123', confirmPassword: 'newpass124' },
      a.token,
    );
    expect(differ.msg).toBe(AccountMsg.passwordsDiffer);
    const same = await post(
      h.app,
      AccountPaths.editPassword,
      { oldPassword: 'oldpass123', password: 'oldpass123', confirmPassword: 'oldpass123' },
      a.token,
    );
    expect(same.msg).toBe(AccountMsg.newPasswordSameAsOld);
    const rule = await post(
      h.app,
      AccountPaths.editPassword,
      { oldPassword: 'oldpass123', password: 'abcdefgh', confirmPassword: 'abcdefgh' },
      a.token,
    );
    expect(rule.msg).toBe(Msg.passwordRule);
    const wrongOld = await post(
      h.app,
      AccountPaths.editPassword,
      { oldPassword: 'nottheone1', password: 'newpass123', confirmPassword: 'newpass123' },
      a.token,
    );
    expect([wrongOld.code, wrongOld.msg]).toEqual([400, AccountMsg.oldPasswordWrong]);
    const done = await post(
      h.app,
      AccountPaths.editPassword,
      { oldPassword: 'oldpass123', password: 'newpass123', confirmPassword: 'newpass123' },
      a.token,
    );
    expect([done.code, done.msg]).toEqual([200, AccountMsg.passwordChanged]);
    for (const token of [a.token, second]) {
      expect((await post(h.app, AccountPaths.authInfo, {}, token)).code).toBe(408);
    }
    expect((await post(h.app, AccountPaths.login, { mobile: a.mobile, password: 'oldpass123' })).code).toBe(
      400,
    );
    const fresh = await login(h.app, a.mobile, 'newpass123');
    const news = await get<NotificationListData>(h.app, NotificationPaths.newsListing, {}, fresh);
    expect(news.data.list[0]!.str).toBe(AccountMsg.passwordChangedNews);
  });

  it('changes the extraction code: the old code stops working at once', async () => {
    const a = await newUser();
    const info = await post<UserInfo>(h.app, AccountPaths.authInfo, {}, a.token);
    const oldCode = info.data.extractCode;
    const saved = await upload<SaveEvidenceData>(h.app, a.token, Buffer.from('code test'), 'c.txt');
    const baoquan = saved.data.baoquan;
    expect((await post(h.app, EvidencePaths.codeDownload, { code: oldCode, baoquan })).code).toBe(200);
    const tooLong = await post(h.app, AccountPaths.editExtractCode, { extractCode: 'x'.repeat(31) }, a.token);
    expect(tooLong.msg).toBe('提取码不能超过30个字符');
    const special = await post(h.app, AccountPaths.editExtractCode, { extractCode: 'a<b>' }, a.token);
    expect(special.msg).toBe('提取码不能包含特殊字符');
    const r = await post(h.app, AccountPaths.editExtractCode, { extractCode: 'my-new-code-2026' }, a.token);
    expect([r.code, r.msg]).toEqual([200, Msg.modified]);
    expect((await post(h.app, EvidencePaths.codeDownload, { code: oldCode, baoquan })).msg).toBe(
      EvidenceMsg.extractCodeWrong,
    );
    expect((await post(h.app, EvidencePaths.codeDownload, { code: 'my-new-code-2026', baoquan })).code).toBe(
      200,
    );
  });
});
