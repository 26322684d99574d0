/** /ops/logout: POST revokes the operator token and ends the operator session (cookie `cz_ops`); the user's
 * login stays. */
import { Form, redirect } from 'react-router';
import type { Route } from './+types/logout';
import { OpsPaths } from '../../contract/index.ts';
import { apiCall } from '../lib/api.server.ts';
import { validateCsrf } from '../lib/csrf.server.ts';
import { getOpsSession, opsSessionStorageFor } from '../lib/session.server.ts';
import { CsrfInput } from '../shell/csrf-input.tsx';
import { OpsShell } from './ops-ui.tsx';

export const handle = { bare: true };
export const meta: Route.MetaFunction = () => [{ title: '退出运营后台 - 存证云' }];

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  await validateCsrf(formData, request, context);
  const session = await getOpsSession(request, context);
  const token = session.get('opsToken');
  if (token) {
    // Best effort: a platform that is down must not keep the operator logged in on this browser.
    await apiCall(context, OpsPaths.logout, { method: 'POST', token, urlPath: '/ops/logout' }).catch(
      () => null,
    );
  }
  return redirect('/ops/login?done=logout', {
    headers: { 'Set-Cookie': await opsSessionStorageFor(context).destroySession(session) },
  });
}

export default function OpsLogout() {
  return (
    <OpsShell>
      <section className="auth-card">
        <h1>退出运营后台</h1>
        <Form method="post">
          <CsrfInput />
          <button type="submit" className="button primary block">
            确认退出
          </button>
        </Form>
      </section>
    </OpsShell>
  );
}
