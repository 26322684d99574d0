/**
 * /login (spec 01 §2.1, §4, §6): mobile + password, checked by the remix-auth Authenticator's `user` strategy
 * (app/lib/auth.server.ts); on success the upstream token goes into the encrypted session and the user returns to
 * `redirect` (same-site paths only). `expired=1` shows the spec's "log in again" message.
 */
import { getFormProps, useForm } from '@conform-to/react';
import { Form, Link, useSearchParams } from 'react-router';
import type { Route } from './+types/login';
import { AccountMsg } from '../../contract/account-codes.ts';
import { Msg } from '../../contract/messages.ts';
import { loginAction, requireAnonymous, safeTarget } from '../lib/auth.server.ts';
import { ErrorSummary } from '../shell/error-summary.tsx';
import { useLazyValidation } from '../shell/lazy-validation.ts';
import { CsrfInput } from '../shell/csrf-input.tsx';
import { FormErrors, FormNotice } from '../shell/field.tsx';
import { InputField } from '../shell/input-field.tsx';

export const meta: Route.MetaFunction = () => [{ title: '登录 - 存证云' }];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAnonymous(request, context);
  const url = new URL(request.url);
  return {
    expired: url.searchParams.get('expired') === '1',
    notice: url.searchParams.get('notice'),
  };
}

/** Logs in through the Authenticator's `user` form strategy; on success the token goes into `cz_session`. */
export async function action({ request, context }: Route.ActionArgs) {
  return loginAction(request, context, 'user', safeTarget);
}

const NOTICES: Record<string, string> = {
  registered: `${AccountMsg.registered}，请登录`,
  reset: AccountMsg.passwordReset,
  passwordChanged: AccountMsg.passwordChanged,
};

export default function Login({ loaderData: { expired, notice }, actionData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const validation = useLazyValidation(() => import('./login-validation.ts').then((m) => m.validateLogin));
  const [form, fields] = useForm({
    id: 'login-form',
    lastResult: actionData?.result,
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  return (
    <section className="auth-card">
      <h1>账号登录</h1>
      {expired ? (
        <div className="form-error" role="alert">
          {Msg.sessionExpired}
        </div>
      ) : null}
      <FormNotice text={notice ? NOTICES[notice] : null} />
      <Form method="post" {...getFormProps(form)} onFocus={validation.onFocus} noValidate>
        <CsrfInput />
        <ErrorSummary form={form} />
        <input type="hidden" name="redirect" value={params.get('redirect') ?? ''} />
        <InputField meta={fields.mobile} label="手机号" type="tel" autoComplete="username" />
        <InputField meta={fields.password} label="密码" type="password" autoComplete="current-password" />
        <FormErrors errors={form.errors} />
        <button type="submit" className="button primary block">
          登录
        </button>
      </Form>
      <p className="auth-links">
        <Link to="/forgetpwd">忘记密码？</Link>
        <span>
          还没有账号？
          <Link
            to={`/register${params.get('redirect') ? `?redirect=${encodeURIComponent(params.get('redirect')!)}` : ''}`}
          >
            立即注册
          </Link>
        </span>
      </p>
    </section>
  );
}
