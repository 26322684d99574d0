/**
 * /no-type (spec 02 "No-type screen"): an account that has not chosen personal or enterprise verification yet;
 * buttons to the personal (/personage-kyc) and the enterprise (/organization-kyc) form.
 */
import { Link } from 'react-router';
import type { Route } from './+types/no-type';
import { requireToken } from '../lib/auth.server.ts';
import { KycText } from './kyc-text.ts';

export const meta: Route.MetaFunction = () => [{ title: '实名认证 - 存证云' }];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireToken(request, context);
  return null;
}

export default function NoType() {
  return (
    <section className="page narrow no-type">
      <h1>{KycText.notVerified}</h1>
      <p className="lead">完成实名认证后即可使用数据保全和在线公证服务。请选择认证类型：</p>
      <div className="kyc-type-choice">
        <Link to="/personage-kyc" className="button primary">
          个人认证
        </Link>
        <Link to="/organization-kyc" className="button primary">
          企业认证
        </Link>
      </div>
    </section>
  );
}
