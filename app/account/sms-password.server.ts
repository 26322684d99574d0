/**
 * Server side of the two SMS-confirmed password forms, /register and /forgetpwd (spec 01 §7 Register calls):
 * the loader issues an image captcha; the action handles three intents of one form:
 * `captcha` (new image), `sendSms` (captcha-guarded SMS code) and `submit` (register or reset the password).
 * Without JavaScript each intent is a submit button and the page re-renders with the typed values kept.
 */
import { parseWithZod } from '@conform-to/zod/v4';
import { data, redirect, type AppLoadContext } from 'react-router';
import { AccountMsg, AccountPaths, type ImgCodeData, SendSmsBody } from '../../contract/account.ts';
import { isSuccess } from '../../contract/envelope.ts';
import { apiCall } from '../lib/api.server.ts';
import { schemaFor } from './sms-password.schema.ts';
import { validateCsrf } from '../lib/csrf.server.ts';
import { readForm } from '../lib/form-body.server.ts';

export type SmsPasswordMode = 'register' | 'reset';

const PATHS = {
  register: {
    sms: AccountPaths.sendSms,
    submit: AccountPaths.register,
    page: '/register',
    done: 'registered',
  },
  reset: {
    sms: AccountPaths.sendResetSms,
    submit: AccountPaths.resetPassword,
    page: '/forgetpwd',
    done: 'reset',
  },
} as const;

/** Loader: a fresh image captcha `{ key, img }` (img is an SVG data URI). */
export async function captchaLoader(context: AppLoadContext, page: string): Promise<ImgCodeData> {
  const res = await apiCall<ImgCodeData>(context, AccountPaths.imgCode, { method: 'POST', urlPath: page });
  if (!isSuccess(res.code)) throw data({ message: res.msg }, { status: 502 });
  return res.data;
}

/** Action for both pages. Returns `{ result, notice }` for a re-render, or redirects to /login on success. */
export async function smsPasswordAction(request: Request, context: AppLoadContext, mode: SmsPasswordMode) {
  const paths = PATHS[mode];
  const formData = await readForm(request, context);
  await validateCsrf(formData, request, context);
  const intent = formData.get('intent');
  const hideFields = ['password', 'confirmPassword', 'imgCode'];
  if (intent === 'captcha') {
    // A new image: the loader issues it when the page re-renders; keep what was typed.
    return {
      result: parseWithZod(formData, { schema: SendSmsBody.partial() }).reply({ hideFields }),
      notice: null,
    };
  }
  const submission = parseWithZod(formData, { schema: schemaFor(intent) });
  if (submission.status !== 'success') {
    return data({ result: submission.reply({ hideFields }), notice: null }, { status: 400 });
  }
  if (intent === 'sendSms') {
    const res = await apiCall(context, paths.sms, {
      body: submission.value as SendSmsBody,
      urlPath: paths.page,
    });
    if (!isSuccess(res.code)) {
      return data(
        { result: submission.reply({ formErrors: [res.msg], hideFields }), notice: null },
        { status: 400 },
      );
    }
    return { result: submission.reply({ hideFields }), notice: `${AccountMsg.smsSent}，10分钟内有效` };
  }
  const { mobile, password, smsCode } = submission.value as {
    mobile: string;
    password: string;
    smsCode: string;
  };
  const res = await apiCall(context, paths.submit, {
    body: { mobile, password, smsCode },
    urlPath: paths.page,
  });
  if (!isSuccess(res.code)) {
    return data(
      { result: submission.reply({ formErrors: [res.msg], hideFields }), notice: null },
      { status: 400 },
    );
  }
  return redirect(`/login?notice=${paths.done}`);
}
