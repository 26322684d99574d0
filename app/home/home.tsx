/**
 * / and /home: what the platform does, and the ways in (spec 01 §1); after a logout, the logout call's message
 * (`?notice=`, app/lib/logout.server.ts).
 */
import { Link, useSearchParams } from 'react-router';
import type { Route } from './+types/home';
import { logoutNotice } from '../lib/logout-notices.ts';
import { FormNotice } from '../shell/field.tsx';

export const meta: Route.MetaFunction = () => [
  { title: '存证云 - 电子数据保全与在线公证平台' },
  { name: 'description', content: '电子数据保全：文件哈希上链存证，在线出具保全证书，一键申请公证。' },
];

export default function Home({ matches }: Route.ComponentProps) {
  // matches[0] is the root route: its loader's data carries the logged-in user (or null).
  const user = matches[0].loaderData.user;
  const [params] = useSearchParams();
  return (
    <>
      <FormNotice text={logoutNotice(params.get('notice'))} />
      <section className="hero">
        <h1>电子数据保全 · 在线公证</h1>
        <p>
          文件、网页、数据在保全时即计算 SHA-256
          哈希并写入防篡改账本，随时出具电子数据保全证书；持证书链接即可查验， 凭提取码即可下载原件。
        </p>
        <p className="hero-actions">
          {user ? (
            <>
              <Link to="/newAccessCard" className="button primary">
                立即保全
              </Link>
              <Link to="/attestation-list/file" className="button">
                我的保全
              </Link>
            </>
          ) : (
            <>
              <Link to="/register" className="button primary">
                免费注册
              </Link>
              <Link to="/login" className="button">
                登录
              </Link>
            </>
          )}
        </p>
      </section>
      <section className="features">
        <article>
          <h2>数据保全</h2>
          <p>上传文件即刻固化，系统记录文件哈希、保全时间与保全人，生成唯一保全编号。</p>
        </article>
        <article>
          <h2>可验证账本</h2>
          <p>每条保全记录追加到只增不改的哈希链账本，任何改动都会被发现。</p>
        </article>
        <article>
          <h2>保全证书</h2>
          <p>证书链接可公开查阅；证据所有人或持提取码者可下载原始文件。</p>
        </article>
        <article>
          <h2>在线公证</h2>
          <p>实名认证后可对已保全的证据申请公证，在线支付、在线出证。</p>
        </article>
      </section>
    </>
  );
}
