/** The one-button confirm page of a logout route (a GET never logs anyone out; the button POSTs with CSRF). */
import { Form } from 'react-router';
import { CsrfInput } from './csrf-input.tsx';

export function LogoutConfirm({ title }: { title: string }) {
  return (
    <section className="auth-card">
      <h1>{title}</h1>
      <Form method="post">
        <CsrfInput />
        <button type="submit" className="button primary block">
          确认退出
        </button>
      </Form>
    </section>
  );
}
