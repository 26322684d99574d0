/**
 * The document shell: top bar, notices, footer, the error pages (404, connection failed), and the root loader that
 * refreshes the user's info on every page ("with a token, user info is refreshed before the route opens",
 * spec 02 "Route guard") and issues the CSRF token. The shell components (app/shell) import no business area: this
 * module hands them the areas' links — the user's verification links (worked out by the loader from the user's
 * KYC state, spec 02 "Top bar") and the legal documents' paths (constants, so the footer keeps them on error pages
 * rendered without loader data).
 */
import {
  data,
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useRouteLoaderData,
} from 'react-router';
import type { Route } from './+types/root';
import { Msg } from '../contract/messages.ts';
import { optionalUser } from './lib/auth.server.ts';
import { commitCsrfToken } from './lib/csrf.server.ts';
import { sessionStorageFor } from './lib/session.server.ts';
import { authInfoMenuHref, tipHref } from './kyc/kyc-links.ts';
import { LegalPaths } from './legal/paths.ts';
import { TopBar } from './shell/top-bar.tsx';
import { Footer } from './shell/footer.tsx';
import { EnglishFooter, EnglishTopBar } from './shell/english-frame.tsx';
import { pageLang } from './shell/page-lang.ts';
import { DocumentRoot } from './shell/document-root.tsx';
import { AnnouncementBanner, IeNotice, announcementActive, isOldIe, lacksDetails } from './shell/notices.tsx';
import { NoDetailsContext } from './shell/engine.ts';
// a side-effect import: React Router lists it in the root route's manifest entry, whose URLs the gateway puts under
// BASE_PATH (a `?url` import would bake `/assets/…` into the server bundle)
import './styles.css';
import { useSubmitBusy } from './shell/submit-busy.tsx';

export async function loader({ request, context }: Route.LoaderArgs) {
  const [{ user, ended }, [csrf, csrfCookie]] = await Promise.all([
    optionalUser(request, context),
    commitCsrfToken(request, context),
  ]);
  const headers = new Headers();
  if (csrfCookie) headers.append('Set-Cookie', csrfCookie);
  if (ended) {
    // A dead upstream token on a public page: forget it quietly (login-required pages redirect on their own).
    const storage = sessionStorageFor(context);
    headers.append(
      'Set-Cookie',
      await storage.destroySession(await storage.getSession(request.headers.get('Cookie'))),
    );
  }
  return data(
    {
      user,
      verifyLinks: user ? { tip: tipHref(user), authInfo: authInfoMenuHref(user) } : null,
      csrf,
      nonce: context.cspNonce,
      oldIe: isOldIe(request.headers.get('User-Agent')),
      noDetails: lacksDetails(request.headers.get('User-Agent')),
      announcement: announcementActive(context.announcement) ? context.announcement!.text : null,
      notaryOffice: context.site.issuer.notaryOffice,
      requestId: context.requestId,
    },
    { headers },
  );
}

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRouteLoaderData<typeof loader>('root');
  const matches = useMatches();
  // Print views (handle.bare) render the page alone: no top bar, notices or footer.
  const bare = matches.some((m) => (m.handle as { bare?: boolean } | undefined)?.bare);
  // <html lang> comes from the matched route (handle.lang or loader `lang`); English pages get an English frame.
  const lang = pageLang(matches);
  const english = lang === 'en';
  if (bare) {
    return (
      <DocumentRoot lang={lang}>
        <head>
          <meta charSet="utf-8" />
          <Meta />
          <Links />
        </head>
        <body className="bare-body">
          <main>{children}</main>
        </body>
      </DocumentRoot>
    );
  }
  return (
    <DocumentRoot lang={lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="renderer" content="webkit" />
        <Meta />
        <Links />
      </head>
      <body>
        <a className="skip-link" href="#main">
          {english ? 'Skip to main content' : '跳到主要内容'}
        </a>
        {root?.oldIe ? (
          <div lang="zh-CN">
            <IeNotice />
          </div>
        ) : null}
        {english ? (
          <EnglishTopBar />
        ) : (
          <TopBar user={root?.user ?? null} verifyLinks={root?.verifyLinks ?? null} />
        )}
        {root?.announcement ? (
          <div lang="zh-CN">
            <AnnouncementBanner text={root.announcement} />
          </div>
        ) : null}
        <main className="main" id="main" tabIndex={-1}>
          <NoDetailsContext.Provider value={root?.noDetails ?? false}>{children}</NoDetailsContext.Provider>
        </main>
        {english ? (
          <EnglishFooter legal={LegalPaths} />
        ) : (
          <Footer notaryOffice={root?.notaryOffice ?? '合作公证机构'} legal={LegalPaths} />
        )}
        <ScrollRestoration nonce={root?.nonce} />
        <Scripts nonce={root?.nonce} />
      </body>
    </DocumentRoot>
  );
}

export const meta: Route.MetaFunction = () => [{ title: '存证云 - 电子数据保全与在线公证平台' }];

export default function App() {
  useSubmitBusy();
  return <Outlet />;
}

/** Error pages: 404 per spec 01 §2.8, connection failure per spec 01 §8, anything else a calm generic page. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const english = pageLang(useMatches()) === 'en';
  // 重试 loads the page the visitor was on again (a GET, also after a failed form post); `to="."` would resolve
  // against the root route, i.e. the home page.
  const location = useLocation();
  const retryHref = `${location.pathname}${location.search}`;
  // the id of the request whose page failed (when the root's own loader ran), for support and the logs
  const requestId = useRouteLoaderData<typeof loader>('root')?.requestId;
  if (isRouteErrorResponse(error) && error.status === 404) {
    return english ? <EnglishNotFound /> : <NotFound />;
  }
  if (english) return <EnglishError status={isRouteErrorResponse(error) ? error.status : 500} />;
  let message: string = Msg.serverError;
  if (isRouteErrorResponse(error)) {
    const body = error.data as { message?: string } | string | undefined;
    // 429: the gateway's front-line limit (server/http/rate-limit.ts) refused a data request of the enhanced page; its
    // answer is the no-JavaScript page's HTML, so the message comes from the status
    message =
      (typeof body === 'object' && body?.message) ||
      (error.status === 502 ? Msg.connectionFailed : error.status === 429 ? Msg.tooManyRequests : message);
  }
  return (
    <section className="error-page">
      <h1>{message}</h1>
      {requestId ? (
        <p className="muted" data-testid="request-id">
          如需联系客服，请提供请求编号：<span className="mono">{requestId}</span>
        </p>
      ) : null}
      <p>
        <Link to={retryHref} reloadDocument className="button">
          重试
        </Link>{' '}
        <Link to="/">返回首页</Link>
      </p>
    </section>
  );
}

export function NotFound() {
  return (
    <section className="error-page">
      <h1>{Msg.notFoundPage}</h1>
      <p>
        <Link to="/" className="button">
          返回首页
        </Link>
      </p>
    </section>
  );
}

/** The 404 of an English page (an unknown number on /English/attestation/{id}). */
function EnglishNotFound() {
  return (
    <section className="error-page">
      <h1>Sorry, the page you are looking for does not exist.</h1>
      <p>
        <Link to="/English/safekeeping" className="button">
          Verify a preservation number
        </Link>
      </p>
    </section>
  );
}

/** Any other failure of an English page: 502 when the platform is unreachable, else a calm generic text. */
function EnglishError({ status }: { status: number }) {
  return (
    <section className="error-page">
      <h1>
        {status === 502
          ? 'Connection failed. Please check your network or try again later.'
          : 'Something went wrong. Please try again later.'}
      </h1>
      <p>
        <Link to="." reloadDocument className="button">
          Try again
        </Link>
      </p>
    </section>
  );
}
