/**
 * /logout: POST revokes the upstream token, clears the session and goes to / (spec 01 §4, spec 02 "Session").
 * A GET shows a one-button confirm page, so a stray link never logs anyone out.
 */
import { Form, redirect } from 'react-router';
import type { Route } from './+types/logout';
import { AccountPaths } from '../../contract/index.ts';
import { apiCall } from '../lib/api.server.ts';
import { validateCsrf } from '../lib/csrf.server.ts';
import { getSession, sessionStorageFor } from '../lib/session.server.ts';
import { CsrfInput } from '../shell/csrf-input.tsx';

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  await validateCsrf(formData, request, context);
  const session = await getSession(request, context);
  const token = session.get('token');
  if (token) {
    // Best effort: an upstream that is down must not keep the user logged in on this browser.
    await apiCall(context, AccountPaths.logout, { method: 'POST', token, urlPath: '/logout' }).catch(
      () => null,
    );
  }
  return redirect('/', {
    headers: { 'Set-Cookie': await sessionStorageFor(context).destroySession(session) },
  });
}

export default function Logout() {
  return (
    <section className="auth-card">
      <h1>退出登录</h1>
      <Form method="post">
        <CsrfInput />
        <button type="submit" className="button primary block">
          确认退出
        </button>
      </Form>
    </section>
  );
}
