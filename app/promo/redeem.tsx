/**
 * /redeem (兑换码兑换; docs/decisions/062-promotion-codes.md): one field for a promotion code, for any logged-in user
 * (the gate of /buyCredits, spec 02 §2). One plain POST form: the action sends the code as typed (the contract
 * normalises it: blanks, dashes and case do not matter) to `PromoPaths.redeem` and, on success, redirects to
 * `/redeem?redeemed=<points>`, whose notice names the points credited (Post/Redirect/Get); a refusal (unknown,
 * expired, disabled, used up, already redeemed by the user, too many wrong codes) shows the platform's message at
 * the field with what was typed. Linked from /buyCredits and /points; the credit shows on /points as 兑换码.
 */
import { data, Form, Link, redirect } from 'react-router';
import type { Route } from './+types/redeem';
import { isSuccess } from '../../contract/envelope.ts';
import {
  PROMO_CODE_INPUT_MAX,
  PromoMsg,
  PromoPages,
  PromoPaths,
  type RedeemData,
} from '../../contract/promo-codes.ts';
// Schemas only in the action (the page's own JavaScript loads no zod, bench/page-weight.ts).
import { RedeemBody } from '../../contract/promo.ts';
import { authedCall, requireUserInfo } from '../lib/auth.server.ts';
import { validateCsrf } from '../lib/csrf.server.ts';
import { readForm } from '../lib/form-body.server.ts';
import { CsrfInput } from '../shell/csrf-input.tsx';
import { Field, FormNotice } from '../shell/field.tsx';

export const meta: Route.MetaFunction = () => [{ title: '兑换码兑换 - 存证云' }];

/** The `redeemed` of the URL when it is a whole number of points (1–6 digits), else null. */
function redeemedOf(url: URL): number | null {
  const p = url.searchParams.get('redeemed') ?? '';
  return /^[1-9][0-9]{0,5}$/.test(p) ? Number(p) : null;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const info = await requireUserInfo(request, context);
  const redeemed = redeemedOf(new URL(request.url));
  return {
    balance: isSuccess(info.code) ? info.data.points : null,
    notice: redeemed === null ? null : PromoMsg.redeemed(redeemed),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request, context);
  await validateCsrf(formData, request, context);
  const typed = String(formData.get('code') ?? '').slice(0, PROMO_CODE_INPUT_MAX * 2);
  const parsed = RedeemBody.safeParse({ code: typed });
  if (!parsed.success)
    return data(
      { code: typed, error: parsed.error.issues[0]?.message ?? PromoMsg.codeRequired },
      { status: 400 },
    );
  const res = await authedCall<RedeemData>(request, context, PromoPaths.redeem, {
    body: { code: parsed.data.code },
  });
  if (!isSuccess(res.code))
    return data({ code: typed, error: res.msg }, { status: Number(res.code) === 429 ? 429 : 400 });
  return redirect(`${PromoPages.redeem}?redeemed=${res.data.points}`);
}

export default function Redeem({ loaderData, actionData }: Route.ComponentProps) {
  const { balance, notice } = loaderData;
  const error = actionData?.error;
  return (
    <section className="page narrow">
      <h1>兑换码兑换</h1>
      <p className="lead">
        输入兑换码，兑换成功后积分立即到账。每个兑换码每个账号只能使用一次。
        {balance === null ? null : (
          <>
            {' '}
            当前积分：<strong data-testid="redeem-balance">{balance}</strong>
          </>
        )}
      </p>
      <FormNotice text={actionData ? null : notice} />
      <Form method="post" className="card" noValidate>
        <CsrfInput />
        <Field
          label="兑换码"
          id="redeem-code"
          errors={error ? [error] : undefined}
          hint="16位字母和数字，可带空格或短横线，不区分大小写"
        >
          <input
            id="redeem-code"
            name="code"
            type="text"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={PROMO_CODE_INPUT_MAX}
            placeholder="XXXX-XXXX-XXXX-XXXX"
            defaultValue={actionData?.code ?? ''}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'redeem-code-error' : undefined}
          />
        </Field>
        <p>
          <button type="submit" className="button primary">
            立即兑换
          </button>{' '}
          <Link to="/points">积分明细</Link> <Link to="/buyCredits">购买积分</Link>
        </p>
      </Form>
    </section>
  );
}
