/**
 * /setting (spec 01 §2.5, §4, §5): tab one changes the password (all required; 两次新密码不一致; 新密码不能与旧密码相同;
 * the password rule) and, on success (修改密码成功), ends every session of the user and lands on /login; tab two shows
 * the extraction code as selectable text with a copy button (JavaScript: 复制成功) and lets the user change it.
 * Tabs are links (`?tab=`), so both work without JavaScript.
 */
import { getFormProps, getInputProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { useState } from 'react';
import { data, Form, Link, redirect } from 'react-router';
import { useHydrated } from 'remix-utils/use-hydrated';
import type { Route } from './+types/setting';
import { AccountPaths, EditPasswordBody, ExtractCodeBody } from '../../contract/account.ts';
import { isSuccess } from '../../contract/envelope.ts';
import { Msg } from '../../contract/messages.ts';
import { authedCall, requireUserInfo } from '../lib/auth.server.ts';
import { validateCsrf } from '../lib/csrf.server.ts';
import { getSession, sessionStorageFor } from '../lib/session.server.ts';
import { ErrorSummary } from '../shell/error-summary.tsx';
import { useLazyValidation } from '../shell/lazy-validation.ts';
import { CsrfInput } from '../shell/csrf-input.tsx';
import { Field, FormErrors, FormNotice } from '../shell/field.tsx';
import { readForm } from '../lib/form-body.server.ts';
import { formErrorResult } from '../lib/form-result.ts';

export const meta: Route.MetaFunction = () => [{ title: '账户设置 - 存证云' }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const info = await requireUserInfo(request, context);
  return {
    tab: url.searchParams.get('tab') === 'extractCode' ? 'extractCode' : 'password',
    extractCode: isSuccess(info.code) ? info.data.extractCode : '',
    notice: url.searchParams.get('done') === 'code' ? Msg.modified : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request, context);
  await validateCsrf(formData, request, context);
  const intent = formData.get('intent');
  // The two forms' own intents (hidden fields); anything else, missing included, is refused before any call.
  if (intent !== 'extractCode' && intent !== 'password') {
    return data({ intent: 'password', result: formErrorResult(Msg.badRequest) }, { status: 400 });
  }
  if (intent === 'extractCode') {
    const submission = parseWithZod(formData, { schema: ExtractCodeBody });
    if (submission.status !== 'success')
      return data({ intent: 'extractCode', result: submission.reply() }, { status: 400 });
    const res = await authedCall(request, context, AccountPaths.editExtractCode, {
      body: submission.value,
    });
    if (!isSuccess(res.code)) {
      return data(
        { intent: 'extractCode', result: submission.reply({ formErrors: [res.msg] }) },
        { status: 400 },
      );
    }
    return redirect('/setting?tab=extractCode&done=code');
  }
  const submission = parseWithZod(formData, { schema: EditPasswordBody });
  const hideFields = ['oldPassword', 'password', 'confirmPassword'];
  if (submission.status !== 'success') {
    return data({ intent: 'password', result: submission.reply({ hideFields }) }, { status: 400 });
  }
  const res = await authedCall(request, context, AccountPaths.editPassword, { body: submission.value });
  if (!isSuccess(res.code)) {
    return data(
      { intent: 'password', result: submission.reply({ formErrors: [res.msg], hideFields }) },
      { status: 400 },
    );
  }
  // Every token of the user is revoked upstream: forget this one and log in again (spec 01 §4).
  const storage = sessionStorageFor(context);
  return redirect('/login?notice=passwordChanged', {
    headers: { 'Set-Cookie': await storage.destroySession(await getSession(request, context)) },
  });
}

type ActionData = Route.ComponentProps['actionData'];

function PasswordForm({ actionData }: { actionData: ActionData }) {
  const validation = useLazyValidation(() =>
    import('./setting-validation.ts').then((m) => m.validatePassword),
  );
  const [form, fields] = useForm({
    id: 'password-form',
    lastResult: actionData?.intent === 'password' ? actionData.result : undefined,
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  return (
    <Form
      method="post"
      {...getFormProps(form)}
      onFocus={validation.onFocus}
      className="card narrow-card"
      noValidate
    >
      <CsrfInput />
      <ErrorSummary form={form} />
      <input type="hidden" name="intent" value="password" />
      <Field label="原密码" id={fields.oldPassword.id} errors={fields.oldPassword.errors}>
        <input {...getInputProps(fields.oldPassword, { type: 'password' })} autoComplete="current-password" />
      </Field>
      <Field
        label="新密码"
        id={fields.password.id}
        errors={fields.password.errors}
        hint="6-18位，须同时包含字母和数字"
      >
        <input {...getInputProps(fields.password, { type: 'password' })} autoComplete="new-password" />
      </Field>
      <Field label="确认新密码" id={fields.confirmPassword.id} errors={fields.confirmPassword.errors}>
        <input {...getInputProps(fields.confirmPassword, { type: 'password' })} autoComplete="new-password" />
      </Field>
      <FormErrors errors={form.errors} />
      <button type="submit" className="button primary">
        修改密码
      </button>
    </Form>
  );
}

function ExtractCodeTab({
  code,
  notice,
  actionData,
}: {
  code: string;
  notice: string | null;
  actionData: ActionData;
}) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  const validation = useLazyValidation(() =>
    import('./setting-validation.ts').then((m) => m.validateExtractCode),
  );
  const [form, fields] = useForm({
    id: 'extract-form',
    lastResult: actionData?.intent === 'extractCode' ? actionData.result : undefined,
    defaultValue: { extractCode: code },
    onValidate: validation.onValidate,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  return (
    <div className="card narrow-card">
      <FormNotice text={notice} />
      <p>
        当前提取码：
        <span className="mono extract-code" data-testid="extract-code">
          {code}
        </span>
        {hydrated ? (
          <button
            type="button"
            className="button small"
            onClick={() => void navigator.clipboard.writeText(code).then(() => setCopied(true))}
          >
            复制
          </button>
        ) : null}
      </p>
      {copied ? (
        <p className="form-notice" role="status">
          {Msg.copied}
        </p>
      ) : null}
      <p className="muted">
        把证书链接和提取码一起发给对方，对方即可在证书页下载证据包。修改后旧提取码立即失效。
      </p>
      <Form method="post" {...getFormProps(form)} onFocus={validation.onFocus} noValidate>
        <CsrfInput />
        <ErrorSummary form={form} />
        <input type="hidden" name="intent" value="extractCode" />
        <Field label="新提取码" id={fields.extractCode.id} errors={fields.extractCode.errors}>
          <input {...getInputProps(fields.extractCode, { type: 'text' })} autoComplete="off" />
        </Field>
        <FormErrors errors={form.errors} />
        <button type="submit" className="button primary">
          保存提取码
        </button>
      </Form>
    </div>
  );
}

export default function Setting({ loaderData, actionData }: Route.ComponentProps) {
  const { tab, extractCode, notice } = loaderData;
  return (
    <section className="page">
      <h1>账户设置</h1>
      <nav className="tabs" aria-label="设置">
        <Link to="/setting" aria-current={tab === 'password' ? 'page' : undefined}>
          修改密码
        </Link>
        <Link to="/setting?tab=extractCode" aria-current={tab === 'extractCode' ? 'page' : undefined}>
          提取码
        </Link>
      </nav>
      {tab === 'password' ? (
        <PasswordForm actionData={actionData} />
      ) : (
        <ExtractCodeTab code={extractCode} notice={notice} actionData={actionData} />
      )}
    </section>
  );
}
