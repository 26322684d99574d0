/**
 * The frame of the English pages (spec 01 §2.1: /English/attestation/{id}, /English/safekeeping): an English top bar
 * and footer in place of the Chinese ones, so those pages read in English throughout (decision 028). They are
 * public pages for readers abroad: no account menu, a link back to the Chinese site.
 */
import { Link } from 'react-router';
import type { LegalLinks } from './footer.tsx';

export function EnglishTopBar() {
  return (
    <header className="topbar">
      <div className="topbar-inner">
        <Link to="/" className="logo" hrefLang="zh-CN">
          <span className="logo-mark" aria-hidden="true" lang="zh-CN">
            证
          </span>
          <span>Cunzheng</span>
          <span className="visually-hidden"> home</span>
        </Link>
        <nav className="menu" aria-label="Main menu">
          <Link to="/English/safekeeping">Verify a preservation number</Link>
        </nav>
        <div className="topbar-right">
          <Link to="/" lang="zh-CN" hrefLang="zh-CN">
            中文
          </Link>
        </div>
      </div>
    </header>
  );
}

/** The English footer; the legal documents themselves are Chinese (marked hreflang). */
export function EnglishFooter({ legal }: { legal: LegalLinks }) {
  return (
    <footer className="footer">
      <nav aria-label="Footer">
        <Link to={legal.userAgreement} hrefLang="zh-CN">
          User agreement (Chinese)
        </Link>
        <Link to={legal.privacy} hrefLang="zh-CN">
          Privacy policy (Chinese)
        </Link>
        <Link to="/English/safekeeping">Verify evidence</Link>
      </nav>
      <p>Cunzheng — electronic data preservation and online notarisation</p>
    </footer>
  );
}
