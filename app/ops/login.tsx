/**
 * /ops/login: the operator console's own login (operator accounts are made by the CLI `platform/ops/cli.ts
 * create`), checked by the remix-auth Authenticator's `ops` strategy (app/lib/auth.server.ts). The operator token
 * goes into its own cookie session (`cz_ops`), apart from any user login in the same browser (decision 013).
 */
import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { Form, redirect } from 'react-router';
import type { Route } from './+types/login';
import { OpsLoginBody, OpsMsg } from '../../contract/ops.ts';
import { loginAction } from '../lib/auth.server.ts';
import { getOpsSession } from '../lib/session.server.ts';
import { ErrorSummary } from '../shell/error-summary.tsx';
import { CsrfInput } from '../shell/csrf-input.tsx';
import { Field, FormErrors, FormNotice } from '../shell/field.tsx';
import { opsTarget } from './ops.server.ts';
import { OpsShell } from './ops-ui.tsx';

export const handle = { bare: true };
export const meta: Route.MetaFunction = () => [{ title: '运营后台登录 - 存证云' }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const session = await getOpsSession(request, context);
  if (session.get('opsToken')) throw redirect(opsTarget(url.searchParams.get('redirect')));
  return {
    redirectTo: url.searchParams.get('redirect') ?? '',
    expired: url.searchParams.get('expired') === '1',
    loggedOut: url.searchParams.get('done') === 'logout',
  };
}

/** Logs in through the Authenticator's `ops` form strategy; on success the token goes into `cz_ops`. */
export async function action({ request, context }: Route.ActionArgs) {
  return loginAction(request, context, 'ops', opsTarget);
}

export default function OpsLogin({ loaderData, actionData }: Route.ComponentProps) {
  const { redirectTo, expired, loggedOut } = loaderData;
  const [form, fields] = useForm({
    id: 'ops-login-form',
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: OpsLoginBody }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  return (
    <OpsShell>
      <section className="auth-card">
        <h1>运营后台登录</h1>
        {expired ? (
          <div className="form-error" role="alert">
            {OpsMsg.sessionExpired}
          </div>
        ) : null}
        <FormNotice text={loggedOut ? OpsMsg.loggedOut : null} />
        <Form method="post" {...getFormProps(form)} noValidate>
          <CsrfInput />
          <ErrorSummary form={form} />
          <input type="hidden" name="redirect" value={redirectTo} />
          <Field label="用户名" id={fields.username.id} errors={fields.username.errors}>
            <input {...getInputProps(fields.username, { type: 'text' })} autoComplete="username" />
          </Field>
          <Field label="密码" id={fields.password.id} errors={fields.password.errors}>
            <input
              {...getInputProps(fields.password, { type: 'password' })}
              autoComplete="current-password"
            />
          </Field>
          <FormErrors errors={form.errors} />
          <button type="submit" className="button primary block">
            登录
          </button>
        </Form>
      </section>
    </OpsShell>
  );
}
