/**
 * /ops/logout: POST revokes the operator token and ends the operator session (cookie `cz_ops`); the user's login
 * stays (decision 013).
 */
import type { Route } from './+types/logout';
import { logoutAction } from '../lib/logout.server.ts';
import { LogoutConfirm } from '../shell/logout-confirm.tsx';
import { OpsShell } from './ops-ui.tsx';

export const handle = { bare: true };
export const meta: Route.MetaFunction = () => [{ title: '退出运营后台 - 存证云' }];

export async function action({ request, context }: Route.ActionArgs) {
  return logoutAction(request, context, 'ops');
}

export default function OpsLogout() {
  return (
    <OpsShell>
      <LogoutConfirm title="退出运营后台" />
    </OpsShell>
  );
}
