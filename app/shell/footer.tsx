/** Site footer: legal links and the credit to the notary office (spec 02 §1). */
import { Link } from 'react-router';
import { LegalPaths } from '../legal/paths.ts';

export function Footer({ notaryOffice }: { notaryOffice: string }) {
  return (
    <footer className="footer">
      <nav aria-label="页脚">
        <Link to="/helpCenter">帮助中心</Link>
        <Link to={LegalPaths.userAgreement}>用户协议</Link>
        <Link to={LegalPaths.privacy}>隐私政策</Link>
        <Link to={LegalPaths.clause}>服务规则</Link>
        <Link to="/queryAuthentication">证据核验</Link>
      </nav>
      <p>公证服务由{notaryOffice}提供 · 电子数据保全与在线公证平台</p>
    </footer>
  );
}
