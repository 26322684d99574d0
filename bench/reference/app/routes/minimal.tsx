/** A minimal login form: a loader, a title and a form, no frame (top bar, footer), session, CSRF or layout. */
import { Form, useLoaderData } from 'react-router';

export function loader() {
  return { title: '登录' };
}

export function meta() {
  return [{ title: '登录 - 存证' }];
}

export default function Login() {
  const { title } = useLoaderData<typeof loader>();
  return (
    <main>
      <h1>{title}</h1>
      <Form method="post">
        <label>
          手机号
          <input name="mobile" type="tel" autoComplete="username" required />
        </label>
        <label>
          密码
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <button type="submit">登录</button>
      </Form>
    </main>
  );
}
