/**
 * The home page's notices after a user's logout, by the `notice` key app/lib/logout.server.ts puts in the URL
 * (spec 01 §4: the logout call's message when its code is 200, 400 or 408). Shared by the action and the page.
 */
import { AccountMsg } from '../../contract/account-codes.ts';
import { Msg } from '../../contract/messages.ts';

const LOGOUT_NOTICES: Readonly<Record<string, string>> = {
  loggedOut: AccountMsg.loggedOut,
  expired: Msg.sessionExpired,
};

/** The notice of `key` (`loggedOut` → 退出成功, `expired` → 长时间未操作，请重新登录), or null for any other value. */
export function logoutNotice(key: string | null): string | null {
  return key !== null && Object.hasOwn(LOGOUT_NOTICES, key) ? LOGOUT_NOTICES[key]! : null;
}
