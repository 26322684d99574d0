/**
 * /ops/login: the operator console's own login (issue 5 item 5; operator accounts are made by the CLI
 * `platform/ops/cli.ts create`). The operator token goes into its own cookie session (`cz_ops`), apart from any
 * user login in the same browser.
 */
import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { data, Form, redirect, useActionData, useLoaderData } from 'react-router';
import type { Route } from './+types/login';
import { isSuccess, OpsLoginBody, OpsMsg, OpsPaths, type OpsLoginData } from '../../contract/index.ts';
import { apiCall } from '../lib/api.server.ts';
import { validateCsrf } from '../lib/csrf.server.ts';
import { getOpsSession, opsSessionStorageFor } from '../lib/session.server.ts';
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

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  await validateCsrf(formData, request, context);
  const submission = parseWithZod(formData, { schema: OpsLoginBody });
  if (submission.status !== 'success') {
    return data({ result: submission.reply({ hideFields: ['password'] }) }, { status: 400 });
  }
  const res = await apiCall<OpsLoginData>(context, OpsPaths.login, {
    body: submission.value,
    urlPath: '/ops/login',
  });
  if (!isSuccess(res.code)) {
    return data(
      { result: submission.reply({ formErrors: [res.msg || OpsMsg.loginFailed], hideFields: ['password'] }) },
      { status: 400 },
    );
  }
  const session = await getOpsSession(request, context);
  session.set('opsToken', res.data.token);
  session.set('opsName', res.data.operator?.username ?? submission.value.username);
  session.set('expiresAt', Math.floor(Date.now() / 1000) + res.data.expiresIn);
  return redirect(opsTarget(formData.get('redirect')), {
    headers: { 'Set-Cookie': await opsSessionStorageFor(context).commitSession(session) },
  });
}

export default function OpsLogin() {
  const { redirectTo, expired, loggedOut } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm({
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
            登录已过期，请重新登录
          </div>
        ) : null}
        <FormNotice text={loggedOut ? '已退出运营后台' : null} />
        <Form method="post" {...getFormProps(form)} noValidate>
          <CsrfInput />
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
