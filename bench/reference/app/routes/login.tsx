/**
 * The product's `/login` document (app/account/login.tsx in the app/root.tsx frame) as a bare React Router page: the
 * same elements, attributes and texts, and a loader returning data of the same shape as the product's two loaders
 * (the root's and the page's), from constants — no session, CSRF cookie, Conform, user info, headers or logging.
 * What the product pays beyond this is what the page rows of `npm run bench` count (decision 032).
 */
import { Form, Link, useLoaderData } from 'react-router';
import stylesheet from '../styles.css?url';

export const handle = { frame: true };

export const links = () => [{ rel: 'stylesheet', href: stylesheet }];

/** A constant token of the product's token shape (43 base64url characters, a dot, a 44-character signature). */
const TOKEN = `${'A'.repeat(43)}.${'B'.repeat(43)}=`;

export function loader() {
  return {
    expired: false,
    notice: null,
    user: null,
    verifyLinks: null,
    csrf: TOKEN,
    nonce: '00000000000000000000000000000000',
    oldIe: false,
    noDetails: false,
    announcement: null,
    notaryOffice: '合作公证机构',
  };
}

export function meta() {
  return [{ title: '登录 - 存证云' }];
}

export default function Login() {
  const { csrf } = useLoaderData<typeof loader>();
  return (
    <section className="auth-card">
      <h1>账号登录</h1>
      <Form method="post" id="login-form" noValidate>
        <input type="hidden" name="csrf" value={csrf} />
        <input type="hidden" name="redirect" value="" />
        <div className="field">
          <label htmlFor="login-form-mobile">手机号</label>
          <input
            id="login-form-mobile"
            form="login-form"
            type="tel"
            placeholder="请输入手机号"
            autoComplete="username"
            name="mobile"
          />
        </div>
        <div className="field">
          <label htmlFor="login-form-password">密码</label>
          <input
            id="login-form-password"
            form="login-form"
            type="password"
            placeholder="请输入密码"
            autoComplete="current-password"
            name="password"
          />
        </div>
        <button type="submit" className="button primary block">
          登录
        </button>
      </Form>
      <p className="auth-links">
        <Link to="/forgetpwd">忘记密码？</Link>
        <span>
          还没有账号？<Link to="/register">立即注册</Link>
        </span>
      </p>
    </section>
  );
}
