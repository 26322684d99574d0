/**
 * Where the verification links lead (spec 02 "Top bar", §4): the top-bar tips, the account menu's 认证信息 entry and
 * the gate notice on the evidence pages all use these, so one account goes to one place.
 */
import type { UserInfo } from '../../contract/account.ts';

type Who = Pick<UserInfo, 'userStatus' | 'status' | 'authType'>;

/** The form to fill in: by account type, or the type chooser (/no-type) when none is set yet. */
export function verifyHref(user: Who): string {
  const type = Number(user.status);
  if (type === 2) return '/organization-kyc';
  if (type === 1)
    return user.authType !== undefined && Number(user.authType) === 3
      ? '/personage-kyc?method=face'
      : '/personage-kyc';
  return '/no-type';
}

/** The read-only info page of the account's type (enterprise /kyc-info, otherwise /person-info). */
export function infoHref(user: Who): string {
  return Number(user.status) === 2 ? '/kyc-info' : '/person-info';
}

/**
 * The top-bar tip's link by userStatus (spec 02 §4): 1 去认证 → the form (or /no-type), 2 认证中 → the info page
 * with the "under review" banner, 4 重新认证 → the form again.
 */
export function tipHref(user: Who): string {
  if (user.userStatus === '2') return infoHref(user);
  return verifyHref(user);
}

/**
 * The account menu's 认证信息 entry (spec 02 "Top bar"): for a verified user the info page of the account type; for
 * an unverified user without an account type /no-type; otherwise none (the tip links to the form).
 */
export function authInfoMenuHref(user: Who): string | null {
  if (user.userStatus === '3') return infoHref(user);
  if (Number(user.status) === 0) return '/no-type';
  return null;
}
