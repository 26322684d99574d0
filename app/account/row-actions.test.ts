/**
 * The row actions of /signature (spec 01 §2.7) and /notifications (§2.6) against a fake upstream that records every
 * call: only the pages' own button intents act; a missing or unknown intent answers 400 in Chinese and calls nothing
 * (before, anything but `setDefault` deleted the seal, and anything but `read:`/`readAll` deleted the ticked
 * messages); marking an unknown message read shows the platform's message instead of redirecting; /setting acts
 * only on its two forms' intents and names the new password when it is empty.
 */
import { describe, expect, it } from 'vitest';
import { Msg } from '../../contract/messages.ts';
import { NotificationMsg, NotificationPaths } from '../../contract/notification-codes.ts';
import { SignaturePaths } from '../../contract/signature.ts';
import { perRequest, recordingUpstreamForSuite, signedInRequest } from '../../tests/support/route-actions.ts';
import { action as notificationsAction } from './notifications.tsx';
import { action as signatureAction } from './signature.tsx';
import { action as settingAction } from './setting.tsx';
import { AccountPaths, EditPasswordBody } from '../../contract/account.ts';

/** The message id the fake platform knows; reading any other answers 404 消息不存在, as the platform does. */
const KNOWN_NEWS_ID = '5';

const suite = recordingUpstreamForSuite(({ path, body }) =>
  path === NotificationPaths.newsRead && body.newsId !== 'all' && body.newsId !== KNOWN_NEWS_ID
    ? { code: 404, msg: NotificationMsg.newsNotFound, data: null }
    : undefined,
);
const { calls } = suite;

/** What the platform was asked, by path and form body. */
const asked = () => calls.map(({ path, body }) => ({ path, body }));

/** The route action's arguments for a signed-in POST of `form` to `path`, on a fresh per-request context. */
async function post(path: string, form: [string, string][]) {
  return {
    request: await signedInRequest(suite.ctx, path, form),
    context: perRequest(suite.ctx),
    params: {},
  } as never;
}

const refused = { data: { error: Msg.badRequest }, init: { status: 400 } };

describe('/signature row actions', () => {
  const act = async (form: [string, string][]) => signatureAction(await post('/signature', form));

  it('refuses a missing or unknown intent with 400 and deletes nothing', async () => {
    for (const intent of [null, '', 'delete', 'remove', 'setdefault']) {
      const form: [string, string][] = [['id', '3']];
      if (intent !== null) form.push(['intent', intent]);
      expect(await act(form), String(intent)).toMatchObject(refused);
    }
    expect(calls).toEqual([]);
  });

  it('sets the default on intent=setDefault and deletes on the page’s intent=del', async () => {
    const def = (await act([
      ['id', '3'],
      ['intent', 'setDefault'],
    ])) as Response;
    expect(def.headers.get('location')).toBe('/signature?done=default');
    const del = (await act([
      ['id', '4'],
      ['intent', 'del'],
    ])) as Response;
    expect(del.headers.get('location')).toBe('/signature?done=deleted');
    expect(asked()).toEqual([
      { path: SignaturePaths.signatureSetDefault, body: { id: '3' } },
      { path: SignaturePaths.signatureDel, body: { id: '4' } },
    ]);
  });
});

describe('/notifications actions', () => {
  const act = async (form: [string, string][]) =>
    notificationsAction(await post('/notifications?page=2', form));

  it('refuses a missing or unknown intent with ticked messages: 400, nothing deleted', async () => {
    for (const intent of [null, '', 'delete', 'readall', 'read']) {
      const form: [string, string][] = [
        ['newsId', '5'],
        ['newsId', '6'],
      ];
      if (intent !== null) form.push(['intent', intent]);
      expect(await act(form), String(intent)).toMatchObject(refused);
    }
    expect(calls).toEqual([]);
  });

  it('deletes the ticked messages on the page’s intent=del, and asks for a tick without one', async () => {
    const del = (await act([
      ['intent', 'del'],
      ['newsId', '5'],
      ['newsId', '6'],
    ])) as Response;
    expect(del.headers.get('location')).toBe('/notifications?page=2&done=deleted');
    expect(asked()).toEqual([{ path: NotificationPaths.newsDel, body: { newsId: '5,6' } }]);
    expect(await act([['intent', 'del']])).toMatchObject({
      data: { error: '请选择需要删除的消息' },
      init: { status: 400 },
    });
    expect(calls).toHaveLength(1);
  });

  it('marks a message read and opens it; an unknown id shows the platform’s message, a bad one calls nothing', async () => {
    const read = (await act([['intent', `read:${KNOWN_NEWS_ID}`]])) as Response;
    expect(read.headers.get('location')).toBe(`/notifications?page=2&open=${KNOWN_NEWS_ID}`);
    expect(await act([['intent', 'read:999']])).toMatchObject({
      data: { error: NotificationMsg.newsNotFound },
      init: { status: 400 },
    });
    expect(calls.map((c) => c.body.newsId)).toEqual([KNOWN_NEWS_ID, '999']);
    for (const intent of ['read:', 'read:abc', 'read:all', 'read:1,2']) {
      expect(await act([['intent', intent]]), intent).toMatchObject(refused);
    }
    expect(calls).toHaveLength(2);
  });
});

describe('/setting actions', () => {
  const act = async (form: [string, string][]) => settingAction(await post('/setting', form));
  const passwords: [string, string][] = [
    ['oldPassword', 'old12345'],
    ['password', 'new12345'],
    ['confirmPassword', 'new12345'],
  ];

  it('changes nothing for a missing or unknown intent, even with a valid password change in the form', async () => {
    for (const intent of [null, '', 'pwd', 'extractcode']) {
      const form = [...passwords];
      if (intent !== null) form.push(['intent', intent]);
      expect(await act(form), String(intent)).toMatchObject({
        data: { result: { status: 'error', error: { '': [Msg.badRequest] } } },
        init: { status: 400 },
      });
    }
    expect(calls).toEqual([]);
    const changed = (await act([...passwords, ['intent', 'password']])) as Response;
    expect(changed.headers.get('location')).toBe('/login?notice=passwordChanged');
    expect(calls.map((c) => c.path)).toEqual([AccountPaths.editPassword]);
  });

  it('names the new password field when it is empty (新密码不能为空)', () => {
    const r = EditPasswordBody.safeParse({ oldPassword: 'old12345', password: '', confirmPassword: 'x' });
    expect(r.error?.issues.find((i) => i.path[0] === 'password')?.message).toBe('新密码不能为空');
  });
});
