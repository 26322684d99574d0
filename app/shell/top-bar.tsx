/**
 * The top bar (spec 02 "Top bar"): logo and menu, help, notification badge (capped at 99), points (the figure links
 * to the points history /points, decision 057) with a buy link, the account menu (a <details> disclosure, so it
 * opens without JavaScript) and logout; login/register for visitors.
 * Also the verification tip for userStatus 1, 2 and 4 (spec 02 §4) with its link: 1 去认证 → the form of the account
 * type or /no-type, 2 认证中 → the info page, 4 重新认证 → the form. Where those links lead is the KYC area's rule:
 * the root loader works them out and hands them in ({@link VerifyLinks}); the shell imports no area.
 */
import { Form, Link, NavLink } from 'react-router';
import type { UserInfo } from '../../contract/account.ts';
import { CsrfInput } from './csrf-input.tsx';

/** Where the logged-in user's verification links lead (spec 02 "Top bar", §4), from the root loader. */
export interface VerifyLinks {
  /** The tip's link (去认证, 认证中, 重新认证): a path such as `/personage-kyc` or `/kyc-info`. */
  tip: string;
  /** The account menu's 认证信息 entry, or null when the menu shows none. */
  authInfo: string | null;
}

/** Badge text: the unread count, "99+" above 99 (spec 01 §9, spec 02 §9). */
export function badgeText(n: number): string {
  return n > 99 ? '99+' : String(n);
}

const TIPS: Record<string, { text: string; link: string }> = {
  '1': { text: '您的账号尚未实名认证，暂无法使用数据保全和公证服务', link: '去认证' },
  '2': { text: '实名认证审核中，审核结果将在1-2个工作日内以短信通知', link: '认证中' },
  '4': { text: '实名认证审核未通过，请调整资料后重新提交', link: '重新认证' },
};

/** The account menu's entries before 认证信息 and 退出登录 (spec 02 "Top bar"): path and label. */
const ACCOUNT_MENU: [string, string][] = [
  ['/setting', '账户设置'],
  ['/notifications', '消息通知'],
  ['/signature', '签章管理'],
  ['/orders', '我的订单'],
  ['/invoice', '我的发票'],
  ['/address', '地址管理'],
];

/** The top bar; `verifyLinks` is null for a visitor (and ignored then). */
export function TopBar({ user, verifyLinks }: { user: UserInfo | null; verifyLinks: VerifyLinks | null }) {
  const tip = user ? TIPS[user.userStatus] : undefined;
  const authInfo = verifyLinks?.authInfo ?? null;
  return (
    <header className="topbar">
      <div className="topbar-inner">
        <Link to="/" className="logo">
          <span className="logo-mark" aria-hidden="true">
            证
          </span>
          <span>存证云</span>
          <span className="visually-hidden">首页</span>
        </Link>
        <nav className="menu" aria-label="主菜单">
          <NavLink to="/attestation-list">数据保全</NavLink>
          <NavLink to="/evidences-all">在线取证</NavLink>
          <NavLink to="/notary">我的公证</NavLink>
        </nav>
        <div className="topbar-right">
          <Link to="/helpCenter">帮助中心</Link>
          {user ? (
            <>
              <Link to="/notifications" className="bell">
                消息
                {user.newsNum > 0 ? (
                  <span className="badge" aria-hidden="true">
                    {badgeText(user.newsNum)}
                  </span>
                ) : null}
                <span className="visually-hidden">（{user.newsNum}条未读）</span>
              </Link>
              <span className="points">
                <Link to="/points" title="积分明细">
                  积分 <strong>{user.points}</strong>
                </Link>{' '}
                <Link to="/buyCredits">购买</Link>
              </span>
              <details className="account-menu">
                <summary>{user.userName || maskMobile(user.mobile)}</summary>
                <ul>
                  {ACCOUNT_MENU.map(([to, label]) => (
                    <li key={to}>
                      <Link to={to}>{label}</Link>
                    </li>
                  ))}
                  {authInfo ? (
                    <li>
                      <Link to={authInfo}>认证信息</Link>
                    </li>
                  ) : null}
                  <li>
                    <Form method="post" action="/logout">
                      <CsrfInput />
                      <button type="submit" className="link-button">
                        退出登录
                      </button>
                    </Form>
                  </li>
                </ul>
              </details>
            </>
          ) : (
            <>
              <Link to="/login">登录</Link>
              <Link to="/register" className="button small">
                注册
              </Link>
            </>
          )}
        </div>
      </div>
      {user && tip && verifyLinks ? (
        <div className="verify-tip" role="status">
          {tip.text} <Link to={verifyLinks.tip}>{tip.link}</Link>
        </div>
      ) : null}
    </header>
  );
}

/** 13800138000 → 138****8000. */
export function maskMobile(mobile: string): string {
  return mobile.length === 11 ? `${mobile.slice(0, 3)}****${mobile.slice(7)}` : mobile;
}
