/** /forgetpwd (spec 01 §2.1, §7): reset the password with an SMS code sent to the registered mobile. */
import type { Route } from './+types/forgetpwd';
import { requireAnonymous } from '../lib/auth.server.ts';
import { captchaLoader, smsPasswordAction } from './sms-password.server.ts';
import { SmsPasswordForm } from './sms-password-form.tsx';

export const meta: Route.MetaFunction = () => [{ title: '找回密码 - 存证云' }];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAnonymous(request, context);
  return { captcha: await captchaLoader(context, '/forgetpwd') };
}

/** Every answer of the action consumed or replaced the captcha: always load a new one, errors included. */
export const shouldRevalidate = () => true;

export async function action({ request, context }: Route.ActionArgs) {
  return smsPasswordAction(request, context, 'reset');
}

export default function ForgetPassword({ loaderData: { captcha }, actionData }: Route.ComponentProps) {
  return (
    <SmsPasswordForm
      title="找回密码"
      submitLabel="重置密码"
      captcha={captcha}
      lastResult={actionData?.result}
      notice={actionData?.notice}
    />
  );
}
