/**
 * /logout: POST revokes the upstream token, clears the user's session and goes to / (spec 01 §4, spec 02
 * "Session"); an operator session in the same browser stays (decision 013). A GET shows a one-button confirm page,
 * so a stray link never logs anyone out.
 */
import type { Route } from './+types/logout';
import { logoutAction } from '../lib/logout.server.ts';
import { LogoutConfirm } from '../shell/logout-confirm.tsx';

export async function action({ request, context }: Route.ActionArgs) {
  return logoutAction(request, context, 'user');
}

export default function Logout() {
  return <LogoutConfirm title="退出登录" />;
}
