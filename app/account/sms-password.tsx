/**
 * /register and /forgetpwd (spec 01 §2.1, §7; spec 02 §5 validators): one form of mobile, image captcha, SMS code and
 * password, which registers a new account or resets the password of a registered one. The path chooses which; the
 * server side is sms-password.server.ts.
 */
import { Link } from 'react-router';
import type { Route } from './+types/sms-password';
import { requireAnonymous } from '../lib/auth.server.ts';
import { captchaLoader, smsPasswordAction, type SmsPasswordMode } from './sms-password.server.ts';
import { SmsPasswordForm } from './sms-password-form.tsx';
import { LegalPaths } from '../legal/paths.ts';

const PAGES = {
  register: { path: '/register', title: '注册账号', tab: '注册', submitLabel: '注册' },
  reset: { path: '/forgetpwd', title: '找回密码', tab: '找回密码', submitLabel: '重置密码' },
} as const satisfies Record<SmsPasswordMode, unknown>;

const modeOf = (request: Request): SmsPasswordMode =>
  new URL(request.url).pathname === PAGES.reset.path ? 'reset' : 'register';

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `${PAGES[data?.mode ?? 'register'].tab} - 存证云` },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAnonymous(request, context);
  const mode = modeOf(request);
  return { mode, captcha: await captchaLoader(context, PAGES[mode].path) };
}

/** Every answer of the action consumed or replaced the captcha: always load a new one, errors included. */
export const shouldRevalidate = () => true;

export async function action({ request, context }: Route.ActionArgs) {
  return smsPasswordAction(request, context, modeOf(request));
}

export default function SmsPasswordPage({ loaderData: { mode, captcha }, actionData }: Route.ComponentProps) {
  const page = PAGES[mode];
  return (
    <SmsPasswordForm
      title={page.title}
      submitLabel={page.submitLabel}
      captcha={captcha}
      lastResult={actionData?.result}
      notice={actionData?.notice}
      footnote={
        mode === 'register' ? (
          <p className="muted small">
            注册即表示您已阅读并同意
            <Link to={LegalPaths.userAgreement} target="_blank" rel="noopener">
              《用户协议》
            </Link>
            <Link to={LegalPaths.privacy} target="_blank" rel="noopener">
              《隐私政策》
            </Link>
          </p>
        ) : undefined
      }
    />
  );
}
