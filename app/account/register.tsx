/** /register (spec 01 §2.1, §7): mobile, image captcha, SMS code, password (spec 02 §5 validators). */
import { Link } from 'react-router';
import type { Route } from './+types/register';
import { requireAnonymous } from '../lib/auth.server.ts';
import { captchaLoader, smsPasswordAction } from './sms-password.server.ts';
import { SmsPasswordForm } from './sms-password-form.tsx';
import { LegalPaths } from '../legal/paths.ts';

export const meta: Route.MetaFunction = () => [{ title: '注册 - 存证云' }];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAnonymous(request, context);
  return { captcha: await captchaLoader(context, '/register') };
}

/** Every answer of the action consumed or replaced the captcha: always load a new one, errors included. */
export const shouldRevalidate = () => true;

export async function action({ request, context }: Route.ActionArgs) {
  return smsPasswordAction(request, context, 'register');
}

export default function Register({ loaderData: { captcha }, actionData }: Route.ComponentProps) {
  return (
    <SmsPasswordForm
      title="注册账号"
      submitLabel="注册"
      captcha={captcha}
      lastResult={actionData?.result}
      notice={actionData?.notice}
      footnote={
        <p className="muted small">
          注册即表示您已阅读并同意
          <Link to={LegalPaths.userAgreement} target="_blank" rel="noopener">
            《用户协议》
          </Link>
          <Link to={LegalPaths.privacy} target="_blank" rel="noopener">
            《隐私政策》
          </Link>
        </p>
      }
    />
  );
}
