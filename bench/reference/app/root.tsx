/**
 * The reference app's document: what every React Router 7 framework-mode page has. Pages that set `handle.frame`
 * (the same-document `/login`) get the product's frame around them — skip link, top bar, footer, scroll restoration,
 * the stylesheet link and the scripts' nonce — rendered from constants by the same React Router components the
 * product uses (Link, NavLink), without a session, CSRF token, user info or notices.
 */
import { Link, Links, Meta, NavLink, Outlet, Scripts, ScrollRestoration, useMatches } from 'react-router';

/** A fixed nonce: the reference sends no CSP, but the product's script tags carry one, so these do too. */
const NONCE = '00000000000000000000000000000000';

export function Layout({ children }: { children: React.ReactNode }) {
  const framed = useMatches().some((m) => (m.handle as { frame?: boolean } | undefined)?.frame);
  if (!framed) {
    return (
      <html lang="zh-CN">
        <head>
          <meta charSet="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <Meta />
          <Links />
        </head>
        <body>
          {children}
          <Scripts />
        </body>
      </html>
    );
  }
  return (
    <html lang="zh-CN">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="renderer" content="webkit" />
        <Meta />
        <Links />
      </head>
      <body>
        <a className="skip-link" href="#main">
          跳到主要内容
        </a>
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
              <Link to="/login">登录</Link>
              <Link to="/register" className="button small">
                注册
              </Link>
            </div>
          </div>
        </header>
        <main className="main" id="main" tabIndex={-1}>
          {children}
        </main>
        <footer className="footer">
          <nav aria-label="页脚">
            <Link to="/helpCenter">帮助中心</Link>
            <Link to="/user-agreement">用户协议</Link>
            <Link to="/privacy">隐私政策</Link>
            <Link to="/clause">服务规则</Link>
            <Link to="/queryAuthentication">证据核验</Link>
          </nav>
          <p>公证服务由{'合作公证机构'}提供 · 电子数据保全与在线公证平台</p>
        </footer>
        <ScrollRestoration nonce={NONCE} />
        <Scripts nonce={NONCE} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}
