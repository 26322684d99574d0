/**
 * The reference app's document: what every React Router 7 framework-mode page has. Pages that set `handle.frame`
 * (the same-document `/login`) get the product's frame around them — skip link, the product's own top bar and footer
 * components (app/shell, plain markup and links for a visitor), scroll restoration, the stylesheet link and the
 * scripts' nonce — from constants, without a session, CSRF token, user info or notices.
 */
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches } from 'react-router';
import { Footer } from '../../../app/shell/footer.tsx';
import { TopBar } from '../../../app/shell/top-bar.tsx';
import { LegalPaths } from '../../../app/legal/paths.ts';

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
        <TopBar user={null} verifyLinks={null} />
        <main className="main" id="main" tabIndex={-1}>
          {children}
        </main>
        <Footer notaryOffice="合作公证机构" legal={LegalPaths} />
        <ScrollRestoration nonce={NONCE} />
        <Scripts nonce={NONCE} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}
