/**
 * The form shared by /register and /forgetpwd: mobile, image captcha, SMS code, password twice.
 * Three submit buttons carry the intent (`captcha`, `sendSms`, `submit`), so it all works without JavaScript.
 */
import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react';
import { Form, Link } from 'react-router';
import { ErrorSummary } from '../shell/error-summary.tsx';
import { useLazyValidation } from '../shell/lazy-validation.ts';
import { CsrfInput } from '../shell/csrf-input.tsx';
import { DefaultSubmit } from '../shell/default-submit.tsx';
import { Field, FormErrors, FormNotice } from '../shell/field.tsx';
import { InputField } from '../shell/input-field.tsx';

export function SmsPasswordForm({
  title,
  submitLabel,
  captcha,
  lastResult,
  notice,
  footnote,
}: {
  title: string;
  submitLabel: string;
  captcha: { key: string; img: string };
  lastResult: SubmissionResult<string[]> | undefined;
  notice: string | null | undefined;
  /** Shown under the submit button (the register page's agreement note). */
  footnote?: React.ReactNode;
}) {
  const validation = useLazyValidation(() =>
    import('./sms-password-validation.ts').then((m) => m.validateSmsPassword),
  );
  const [form, fields] = useForm({
    id: 'sms-password-form',
    lastResult,
    onValidate: validation.onValidate,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
  });
  return (
    <section className="auth-card">
      <h1>{title}</h1>
      <FormNotice text={notice} />
      <Form method="post" {...getFormProps(form)} onFocus={validation.onFocus} noValidate>
        <DefaultSubmit intent="submit" label={submitLabel} />
        <CsrfInput />
        <ErrorSummary form={form} />
        <Field label="手机号" id={fields.mobile.id} errors={fields.mobile.errors}>
          <input
            {...getInputProps(fields.mobile, { type: 'tel' })}
            autoComplete="tel"
            placeholder="请输入手机号"
          />
        </Field>
        <Field
          label="图形验证码"
          id={fields.imgCode.id}
          errors={fields.imgCode.errors ?? fields.imgKey.errors}
        >
          <div className="captcha-row">
            <input
              {...getInputProps(fields.imgCode, { type: 'text' })}
              autoComplete="off"
              maxLength={4}
              placeholder="请输入图形验证码"
            />
            <img src={captcha.img} alt="图形验证码" width={120} height={40} />
            <button type="submit" name="intent" value="captcha" className="link-button" formNoValidate>
              换一张
            </button>
          </div>
          <input key={captcha.key} type="hidden" name="imgKey" value={captcha.key} />
        </Field>
        <Field label="短信验证码" id={fields.smsCode.id} errors={fields.smsCode.errors}>
          <div className="captcha-row">
            <input
              {...getInputProps(fields.smsCode, { type: 'text' })}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              placeholder="请输入短信验证码"
            />
            <button type="submit" name="intent" value="sendSms" className="button">
              获取验证码
            </button>
          </div>
        </Field>
        <InputField
          meta={fields.password}
          label="密码"
          type="password"
          hint="6-18位，须同时包含字母和数字"
          autoComplete="new-password"
        />
        <InputField
          meta={fields.confirmPassword}
          label="确认密码"
          type="password"
          autoComplete="new-password"
          placeholder="请再次输入密码"
        />
        <FormErrors errors={form.errors} />
        <button type="submit" name="intent" value="submit" className="button primary block">
          {submitLabel}
        </button>
        {footnote}
      </Form>
      <p className="auth-links">
        <span>
          已有账号？<Link to="/login">立即登录</Link>
        </span>
      </p>
    </section>
  );
}
