import { describe, expect, it } from 'vitest';
import { AccountMsg, AccountPaths, type LoginData, type UserInfo } from '../../contract/account.ts';
import { Msg } from '../../contract/messages.ts';
import { forEachDialect, get, lastSmsCode, login, post, registerUser } from '../../tests/support/platform.ts';
import { DEMO_MOBILE } from './users.ts';

forEachDialect('account', (h) => {
  it('seeds the verified demo account', async () => {
    const r = await post<LoginData>(h.app, AccountPaths.login, { mobile: DEMO_MOBILE, password: 'demo1234' });
    expect(r.status).toBe(200);
    expect(r.code).toBe(200);
    expect(r.msg).toBe(AccountMsg.loggedIn);
    expect(r.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(r.data.expiresIn).toBe(86400);
    expect(r.data.userInfo).toMatchObject({ mobile: DEMO_MOBILE, userStatus: '3', status: 1, authType: 1 });
    expect(r.data.userInfo.extractCode).toMatch(/^[A-Z0-9]{8}$/);
  });

  it('register → login → getAuthInfo → logout → 408', async () => {
    const mobile = '13900000001';
    await registerUser(h.app, h.dataDir, mobile, 'abc12345', false);
    const token = await login(h.app, mobile, 'abc12345');
    const info = await post<UserInfo>(h.app, AccountPaths.authInfo, {}, token);
    expect(info.code).toBe(200);
    expect(info.data).toMatchObject({
      mobile,
      userStatus: '1',
      status: 0,
      authType: 0,
      points: 0,
      newsNum: 0,
    });
    expect(info.data.extractCode).toHaveLength(8);
    const out = await post(h.app, AccountPaths.logout, {}, token);
    expect(out).toMatchObject({ code: 200, msg: AccountMsg.loggedOut });
    const after = await post(h.app, AccountPaths.authInfo, {}, token);
    expect(after).toMatchObject({ status: 200, code: 408, msg: Msg.sessionExpired, data: null });
  });

  it('accepts form-encoded bodies', async () => {
    const r = await post<LoginData>(
      h.app,
      AccountPaths.login,
      { mobile: DEMO_MOBILE, password: 'demo1234' },
      undefined,
      true,
    );
    expect(r.code).toBe(200);
  });

  it('answers 408 for a missing, unknown or expired token', async () => {
    expect((await post(h.app, AccountPaths.authInfo)).code).toBe(408);
    expect((await post(h.app, AccountPaths.authInfo, {}, 'x'.repeat(43))).code).toBe(408);
    const token = await login(h.app, DEMO_MOBILE, 'demo1234');
    expect((await post(h.app, AccountPaths.authInfo, {}, token)).code).toBe(200);
    const hook = await post<{ expired: number }>(h.app, '/api/__test/expireTokens', { mobile: DEMO_MOBILE });
    expect(hook.data.expired).toBeGreaterThan(0);
    expect(await post(h.app, AccountPaths.authInfo, {}, token)).toMatchObject({
      code: 408,
      msg: Msg.sessionExpired,
    });
  });

  it('rejects wrong credentials with 400 and the login message', async () => {
    const wrong = await post(h.app, AccountPaths.login, { mobile: DEMO_MOBILE, password: 'nope12345' });
    expect(wrong).toMatchObject({ status: 200, code: 400, msg: AccountMsg.loginFailed, data: null });
    const unknown = await post(h.app, AccountPaths.login, { mobile: '13700000000', password: 'nope12345' });
    expect(unknown).toMatchObject({ code: 400, msg: AccountMsg.loginFailed });
    const invalid = await post(h.app, AccountPaths.login, { mobile: '123', password: 'x' });
    expect(invalid).toMatchObject({ code: 400, msg: Msg.mobileInvalid });
  });

  it('throttles repeated failed logins per mobile and IP', async () => {
    const mobile = '13900000009';
    await registerUser(h.app, h.dataDir, mobile, 'abc12345');
    for (let i = 0; i < 10; i++) {
      expect((await post(h.app, AccountPaths.login, { mobile, password: 'wrong1234' })).msg).toBe(
        AccountMsg.loginFailed,
      );
    }
    const blocked = await post(h.app, AccountPaths.login, { mobile, password: 'abc12345' });
    // The lock says when to try again: the whole 15-minute window is left right after the 10th failure.
    expect(blocked).toMatchObject({ code: 429, msg: AccountMsg.loginLocked(15) });
    expect(blocked.msg).toBe('登录失败次数过多，请15分钟后再试');
  });

  it('captcha: a data URI, single use, wrong answer message', async () => {
    const img = await post<{ key: string; img: string }>(h.app, AccountPaths.imgCode);
    expect(img.code).toBe(200);
    expect(img.data.img).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(img.data.img.split(',')[1]!, 'base64').toString()).toContain('<svg');
    const answer = (await get<{ code: string }>(h.app, '/api/__test/captcha', { key: img.data.key })).data
      .code;
    expect(answer).toMatch(/^[a-z0-9]{4}$/);
    const wrongAnswer = answer === 'aaaa' ? 'bbbb' : 'aaaa';
    const wrong = await post(h.app, AccountPaths.sendSms, {
      mobile: '13900000002',
      imgKey: img.data.key,
      imgCode: wrongAnswer,
    });
    expect(wrong).toMatchObject({ code: 400, msg: Msg.imgCodeInvalid });
    // the right answer no longer works: the wrong attempt consumed the captcha
    const reused = await post(h.app, AccountPaths.sendSms, {
      mobile: '13900000002',
      imgKey: img.data.key,
      imgCode: answer,
    });
    expect(reused).toMatchObject({ code: 400, msg: Msg.imgCodeInvalid });

    const img2 = await post<{ key: string }>(h.app, AccountPaths.imgCode);
    const answer2 = (await get<{ code: string }>(h.app, '/api/__test/captcha', { key: img2.data.key })).data
      .code;
    const okSend = await post(h.app, AccountPaths.sendSms, {
      mobile: '13900000002',
      imgKey: img2.data.key,
      imgCode: answer2.toUpperCase(),
    });
    expect(okSend).toMatchObject({ code: 200, msg: AccountMsg.smsSent });
    const again = await post(h.app, AccountPaths.sendSms, {
      mobile: '13900000002',
      imgKey: img2.data.key,
      imgCode: answer2,
    });
    expect(again).toMatchObject({ code: 400, msg: Msg.imgCodeInvalid });
  });

  async function freshCaptcha() {
    const img = await post<{ key: string }>(h.app, AccountPaths.imgCode);
    const code = (await get<{ code: string }>(h.app, '/api/__test/captcha', { key: img.data.key })).data.code;
    return { imgKey: img.data.key, imgCode: code };
  }

  it('SMS: at most once a minute per mobile; registered/unregistered checks; outbox line', async () => {
    const mobile = '13900000003';
    expect((await post(h.app, AccountPaths.sendSms, { mobile, ...(await freshCaptcha()) })).code).toBe(200);
    const code = await lastSmsCode(h.dataDir, mobile);
    expect(code).toMatch(/^\d{6}$/);
    const second = await post(h.app, AccountPaths.sendSms, { mobile, ...(await freshCaptcha()) });
    expect(second).toMatchObject({ code: 429, msg: AccountMsg.smsTooFrequent });
    const reg = await post(h.app, AccountPaths.sendSms, { mobile: DEMO_MOBILE, ...(await freshCaptcha()) });
    expect(reg).toMatchObject({ code: 400, msg: AccountMsg.mobileRegistered });
    const reset = await post(h.app, AccountPaths.sendResetSms, {
      mobile: '13900000004',
      ...(await freshCaptcha()),
    });
    expect(reset).toMatchObject({ code: 400, msg: AccountMsg.mobileNotRegistered });
  });

  it('SMS code: wrong code refused, five wrong attempts kill it', async () => {
    const mobile = '13900000005';
    await post(h.app, AccountPaths.sendSms, { mobile, ...(await freshCaptcha()) });
    const code = await lastSmsCode(h.dataDir, mobile);
    const wrongCode = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const r = await post(h.app, AccountPaths.register, {
        mobile,
        password: 'abc12345',
        smsCode: wrongCode,
      });
      expect(r).toMatchObject({ code: 400, msg: Msg.smsCodeInvalid });
    }
    const late = await post(h.app, AccountPaths.register, { mobile, password: 'abc12345', smsCode: code });
    expect(late).toMatchObject({ code: 400, msg: Msg.smsCodeInvalid });
    const rule = await post(h.app, AccountPaths.register, { mobile, password: 'short', smsCode: code });
    expect(rule).toMatchObject({ code: 400, msg: Msg.passwordRule });
  });

  it('reset password revokes every token and changes the password', async () => {
    const mobile = '13900000006';
    await registerUser(h.app, h.dataDir, mobile, 'abc12345');
    const t1 = await login(h.app, mobile, 'abc12345');
    const t2 = await login(h.app, mobile, 'abc12345');
    // the register SMS was sent less than a minute ago: the reset SMS waits for the per-minute window
    await h.app.pdb.db.updateTable('sms_codes').set({ sent_at: 0 }).where('mobile', '=', mobile).execute();
    const send = await post(h.app, AccountPaths.sendResetSms, { mobile, ...(await freshCaptcha()) });
    expect(send.code).toBe(200);
    const smsCode = await lastSmsCode(h.dataDir, mobile);
    const reset = await post(h.app, AccountPaths.resetPassword, { mobile, password: 'xyz98765', smsCode });
    expect(reset).toMatchObject({ code: 200, msg: AccountMsg.passwordReset });
    expect((await post(h.app, AccountPaths.authInfo, {}, t1)).code).toBe(408);
    expect((await post(h.app, AccountPaths.authInfo, {}, t2)).code).toBe(408);
    expect((await post(h.app, AccountPaths.login, { mobile, password: 'abc12345' })).code).toBe(400);
    await login(h.app, mobile, 'xyz98765');
    // the SMS code is spent
    const again = await post(h.app, AccountPaths.resetPassword, { mobile, password: 'qwe12345', smsCode });
    expect(again).toMatchObject({ code: 400, msg: Msg.smsCodeInvalid });
  });

  it('refuses a second registration of the same mobile', async () => {
    const r = await post(h.app, AccountPaths.register, {
      mobile: DEMO_MOBILE,
      password: 'abc12345',
      smsCode: '123456',
    });
    expect(r).toMatchObject({ code: 400, msg: AccountMsg.mobileRegistered });
  });

  it('stores only the SHA-256 of tokens', async () => {
    const token = await login(h.app, DEMO_MOBILE, 'demo1234');
    const rows = await h.app.pdb.db.selectFrom('tokens').select('token_hash').execute();
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash))).toBe(true);
  });

  it('unknown paths answer 404 envelopes', async () => {
    const r = await get(h.app, '/api/nope');
    expect(r).toMatchObject({ status: 404, code: 404 });
  });
});

describe('test hooks off', () => {
  forEachDialect(
    'without TEST_HOOKS',
    (h) => {
      it('the __test routes do not exist', async () => {
        expect((await get(h.app, '/api/__test/captcha', { key: 'x' })).status).toBe(404);
        expect((await post(h.app, '/api/__test/expireTokens', { mobile: DEMO_MOBILE })).status).toBe(404);
      });
    },
    { TEST_HOOKS: '0' },
  );
});

forEachDialect('health', (h) => {
  it('answers the readiness probe when the database is up', async () => {
    expect(await get(h.app, '/api/healthz')).toEqual({
      status: 200,
      code: 200,
      msg: '操作成功',
      data: { db: 'ok' },
    });
  });
});
