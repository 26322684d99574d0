/**
 * /notifications (spec 01 §2.6, §4): content and time, 10 a page (the spec's pager size 1 is a defect, §9), unread
 * rows styled differently; opening an unread row marks it read; delete the selected rows; mark all read. One form:
 * the checkboxes and every button are plain form controls, so it all works without JavaScript (PRG after each).
 */
import { data, Form, redirect } from 'react-router';
import type { Route } from './+types/notifications';
import { isSuccess } from '../../contract/envelope.ts';
import {
  NOTIFICATION_PAGE_SIZE,
  type NotificationListData,
  NotificationPaths,
} from '../../contract/notification-codes.ts';
import { Msg } from '../../contract/messages.ts';
import { authedCall } from '../lib/auth.server.ts';
import { validateCsrf } from '../lib/csrf.server.ts';
import { CsrfInput } from '../shell/csrf-input.tsx';
import { FormErrors, FormNotice } from '../shell/field.tsx';
import { Pagination } from '../shell/pagination.tsx';
import { DataTable } from '../shell/data-table.tsx';
import { readForm } from '../lib/form-body.server.ts';

export const meta: Route.MetaFunction = () => [{ title: '消息通知 - 存证云' }];

const DONE: Record<string, string> = { deleted: '已删除所选消息', readAll: '已全部标记为已读' };

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
  const res = await authedCall<NotificationListData>(request, context, NotificationPaths.newsListing, {
    query: { page },
  });
  return {
    page,
    list: isSuccess(res.code) ? res.data.list : [],
    count: isSuccess(res.code) ? res.data.count : 0,
    error: isSuccess(res.code) ? null : res.msg,
    notice: DONE[url.searchParams.get('done') ?? ''] ?? null,
  };
}

/**
 * One form, three kinds of button (spec 01 §2.6): `intent=read:<newsId>` marks that message read and redirects with
 * `?open=<newsId>`; `readAll` marks all read; `del` deletes the ticked `newsId` boxes. Each success redirects back to
 * the same `?page=` (PRG). Answers 400 `{error}`: {@link Msg.badRequest} for a missing or unknown intent or a
 * non-numeric id (nothing is called), 请选择需要删除的消息 when `del` has no ticked box, else the platform's message
 * (e.g. 消息不存在 for an id the user has no message of); 403 from the CSRF check.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request, context);
  await validateCsrf(formData, request, context);
  const intent = String(formData.get('intent') ?? '');
  // Back to the same page of the list. Built from the known path: under single fetch the action's request URL is
  // the data URL, not the page's.
  const page = new URL(request.url).searchParams.get('page');
  const back = (extra: Record<string, string>) =>
    `/notifications?${new URLSearchParams({ ...(page && /^\d+$/.test(page) ? { page } : {}), ...extra })}`;
  if (intent.startsWith('read:')) {
    const newsId = intent.slice(5);
    if (!/^\d{1,15}$/.test(newsId)) return data({ error: Msg.badRequest }, { status: 400 });
    const res = await authedCall(request, context, NotificationPaths.newsRead, { body: { newsId } });
    if (!isSuccess(res.code)) return data({ error: res.msg }, { status: 400 });
    return redirect(back({ open: newsId }));
  }
  if (intent === 'readAll') {
    const res = await authedCall(request, context, NotificationPaths.newsRead, { body: { newsId: 'all' } });
    if (!isSuccess(res.code)) return data({ error: res.msg }, { status: 400 });
    return redirect(back({ done: 'readAll' }));
  }
  // Only the 删除所选 button deletes; anything else (missing, unknown) is refused before the platform is called.
  if (intent !== 'del') return data({ error: Msg.badRequest }, { status: 400 });
  const ids = formData
    .getAll('newsId')
    .map(String)
    .filter((v) => /^\d+$/.test(v));
  if (ids.length === 0) return data({ error: '请选择需要删除的消息' }, { status: 400 });
  const res = await authedCall(request, context, NotificationPaths.newsDel, {
    body: { newsId: ids.join(',') },
  });
  if (!isSuccess(res.code)) return data({ error: res.msg }, { status: 400 });
  return redirect(back({ done: 'deleted' }));
}

export default function Notifications({ loaderData, actionData }: Route.ComponentProps) {
  const { page, list, count, error, notice } = loaderData;
  return (
    <section className="page">
      <h1>消息通知</h1>
      <FormNotice text={notice} />
      <Form method="post">
        <CsrfInput />
        <div className="toolbar">
          <button type="submit" name="intent" value="del" className="button">
            删除所选
          </button>
          <button type="submit" name="intent" value="readAll" className="button">
            全部标记已读
          </button>
        </div>
        <FormErrors errors={[error, actionData?.error].filter((e): e is string => !!e)} />
        <DataTable
          className="table notifications"
          headers={['选择', '消息内容', '时间']}
          items={list}
          empty="暂无消息"
          row={(n) => (
            <tr key={n.newsId} className={n.isRead === '0' ? 'unread' : undefined} data-testid="news-row">
              <td>
                <input type="checkbox" name="newsId" value={n.newsId} aria-label={`选择：${n.str}`} />
              </td>
              <td>
                {n.isRead === '0' ? (
                  <button
                    type="submit"
                    name="intent"
                    value={`read:${n.newsId}`}
                    className="link-button unread-text"
                  >
                    <span className="dot" aria-label="未读" /> {n.str}
                  </button>
                ) : (
                  n.str
                )}
              </td>
              <td>{n.addTime}</td>
            </tr>
          )}
        />
      </Form>
      <Pagination page={page} pageSize={NOTIFICATION_PAGE_SIZE} count={count} href={(n) => `?page=${n}`} />
    </section>
  );
}
