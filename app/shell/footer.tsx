/** Site footer: legal links and the credit to the notary office (spec 02 §1). */
import { Link } from 'react-router';

/** The paths of the legal documents the footer links to (spec 01 §2), handed in by the root route. */
export interface LegalLinks {
  userAgreement: string;
  privacy: string;
  clause: string;
}

/** The footer; `legal` comes from the root route (the shell imports no area), `notaryOffice` from NOTARY_OFFICE. */
export function Footer({ notaryOffice, legal }: { notaryOffice: string; legal: LegalLinks }) {
  return (
    <footer className="footer">
      <nav aria-label="页脚">
        <Link to="/helpCenter">帮助中心</Link>
        <Link to={legal.userAgreement}>用户协议</Link>
        <Link to={legal.privacy}>隐私政策</Link>
        <Link to={legal.clause}>服务规则</Link>
        <Link to="/queryAuthentication">证据核验</Link>
      </nav>
      <p>公证服务由{notaryOffice}提供 · 电子数据保全与在线公证平台</p>
    </footer>
  );
}
