/**
 * A user's logout lands on `/` with the logout call's message (spec 01 §4: when the code is 200, 400 or 408), as a
 * fixed key the home page maps to its text; nothing when the call failed; the operator's logout keeps its own page.
 */
import type { AppLoadContext } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AccountPaths } from '../../contract/account.ts';
import type { PlatformCallRequest } from '../../contract/platform-call.ts';
import { commitCsrfToken } from './csrf.server.ts';
import { logoutNotice } from './logout-notices.ts';
import { logoutAction } from './logout.server.ts';
import { sessionStorageFor } from './session.server.ts';
import { routeContext } from '../../tests/support/route-actions.ts';

/** A context whose platform answers every call with `answer` (or fails), recording the calls. */
function contextAnswering(answer: { code: number | string; msg: string } | Error) {
  const seen: PlatformCallRequest[] = [];
  const context = routeContext('http://127.0.0.1:9', {
    platformCall: (request: PlatformCallRequest) => {
      seen.push(request);
      if (answer instanceof Error) return Promise.reject(answer);
      return Promise.resolve({
        status: 200,
        contentType: 'application/json; charset=utf-8',
        body: JSON.stringify({ ...answer, data: null }),
      });
    },
  });
  return { context, seen };
}

/** A logout POST of a signed-in user (or of a visitor without a session token). */
async function logoutRequest(context: AppLoadContext, signedIn = true): Promise<Request> {
  const [csrf, csrfCookie] = await commitCsrfToken(new Request('http://x/'), context);
  const storage = sessionStorageFor(context);
  const session = await storage.getSession(null);
  if (signedIn) session.set('token', 'upstream-token');
  const cookie = [csrfCookie!.split(';')[0], (await storage.commitSession(session)).split(';')[0]].join('; ');
  return new Request('http://x/logout', {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf }).toString(),
  });
}

describe('logoutAction', () => {
  it.each([
    [200, '/?notice=loggedOut', '退出成功'],
    ['200', '/?notice=loggedOut', '退出成功'],
    [408, '/?notice=expired', '长时间未操作，请重新登录'],
    [400, '/?notice=expired', '长时间未操作，请重新登录'],
  ])('code %j of the logout call lands on %s (%s)', async (code, location, text) => {
    const { context, seen } = contextAnswering({ code, msg: '' });
    const res = await logoutAction(await logoutRequest(context), context, 'user');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(location);
    expect(res.headers.get('set-cookie')).toMatch(/cz_session=;/);
    expect(seen.map((r) => [r.method, r.url, r.headers.authorization ?? r.headers.Authorization])).toEqual([
      ['POST', AccountPaths.logout, 'Bearer upstream-token'],
    ]);
    expect(logoutNotice(new URL(location, 'http://x').searchParams.get('notice'))).toBe(text);
  });

  it('says nothing when the call failed, answered another code, or there was no token to revoke', async () => {
    for (const answer of [new Error('down'), { code: 500, msg: '服务器开小差了' }]) {
      const { context } = contextAnswering(answer);
      const res = await logoutAction(await logoutRequest(context), context, 'user');
      expect(res.headers.get('location')).toBe('/');
    }
    const { context, seen } = contextAnswering({ code: 200, msg: '退出成功' });
    const res = await logoutAction(await logoutRequest(context, false), context, 'user');
    expect(res.headers.get('location')).toBe('/');
    expect(seen).toEqual([]);
  });

  it('maps only its own keys to text', () => {
    for (const key of [null, '', 'constructor', 'toString', '__proto__', '<script>', '退出成功']) {
      expect(logoutNotice(key)).toBeNull();
    }
  });
});
