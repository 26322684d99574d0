/**
 * /buyCredits (spec 02 §1, §2 "Top bar": points with a buy link; §7 the payment call `{integral, type, order_no}`):
 * buy points with a preset package or a custom integer amount (the contract's bounds), priced by the platform
 * (`pointPriceFen` fen a point), paid with Alipay or WeChat Pay. One plain POST form: the action creates the pending
 * recharge and sends the browser to pay it (Post/Redirect/Get): WeChat Pay to `/weChat/{orderNo}`, Alipay to the
 * handoff page that opens the cashier (decision 019). With JavaScript the amount due follows the choice. The custom
 * amount is decimal digits only (`1e3` or `0x10` answer 400 with the contract's message; decision 057). Links to
 * the orders and to the points history (/points).
 */
import { useState, type ReactNode } from 'react';
import { data, Form, Link, redirect } from 'react-router';
import { useHydrated } from 'remix-utils/use-hydrated';
import type { Route } from './+types/buy-credits';
import {
  BillingPaths,
  BuyCreditsForm,
  formatFen,
  PAY_TYPE_TEXT,
  type RechargeOptions,
} from '../../contract/billing.ts';
import { isSuccess } from '../../contract/envelope.ts';
import { authedCall } from '../lib/auth.server.ts';
import { validateCsrf } from '../lib/csrf.server.ts';
import { CsrfInput } from '../shell/csrf-input.tsx';
import { Field, FormErrors } from '../shell/field.tsx';
import { payCall, payPageOf } from './billing.server.ts';
import { readForm } from '../lib/form-body.server.ts';

export const meta: Route.MetaFunction = () => [{ title: '购买积分 - 存证云' }];

/** What the form posts back when it is shown again. */
interface Values {
  package: string;
  custom: string;
  type: string;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const res = await authedCall<RechargeOptions>(request, context, BillingPaths.options, { method: 'GET' });
  if (!isSuccess(res.code)) throw data({ message: res.msg }, { status: 502 });
  const o = res.data;
  // Labels and prices are worked out here: the page's own JavaScript then needs no value of the contract module
  // (which would bring its zod schemas along, bench/page-weight.ts).
  return {
    priceFen: o.pointPriceFen,
    priceYuan: formatFen(o.pointPriceFen),
    packages: o.packages.map((points) => ({ points, yuan: formatFen(points * o.pointPriceFen) })),
    payTypes: o.payTypes.map((value) => ({ value, label: PAY_TYPE_TEXT[value] })),
    min: o.min,
    max: o.max,
    timeoutMinutes: o.timeoutMinutes,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request, context);
  await validateCsrf(formData, request, context);
  const values: Values = {
    package: String(formData.get('package') ?? ''),
    custom: String(formData.get('custom') ?? '').trim(),
    type: String(formData.get('type') ?? ''),
  };
  // A filled custom amount wins over the package (contract BuyCreditsForm).
  const parsed = BuyCreditsForm.safeParse({ integral: values.custom || values.package, type: values.type });
  if (!parsed.success) {
    const errorOf = (field: string) => parsed.error.issues.find((i) => i.path[0] === field)?.message;
    return data(
      { values, errors: { integral: errorOf('integral'), type: errorOf('type') }, formError: null },
      { status: 400 },
    );
  }
  const paid = await payCall(request, context, parsed.data);
  if (!paid.ok) return data({ values, errors: {}, formError: paid.msg }, { status: 400 });
  return redirect(payPageOf(paid.pay.order_no, paid.pay.type));
}

/**
 * The points the form's current choice buys: the custom amount when it is decimal digits of a positive integer (as
 * the platform reads it: `1e3` or `0x10` buy nothing, decision 057), else the package.
 */
function chosenPoints(v: Values): number | null {
  const text = v.custom || v.package;
  const n = /^[0-9]+$/.test(text) ? Number(text) : Number.NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** Fen as yuan with two decimals, in integers (what contract `formatFen` does, without loading the contract). */
function yuanText(fen: number): string {
  return `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
}

export default function BuyCredits({ loaderData, actionData }: Route.ComponentProps) {
  const { priceFen, priceYuan, packages, payTypes, min, max, timeoutMinutes } = loaderData;
  const [values, setValues] = useState<Values>(
    actionData?.values ?? {
      package: String(packages[0]?.points ?? ''),
      custom: '',
      type: String(payTypes[0]?.value ?? ''),
    },
  );
  const errors: { integral?: string | undefined; type?: string | undefined } = actionData?.errors ?? {};
  const points = chosenPoints(values);
  // The amount due follows the choice only with JavaScript; without it each package shows its own price.
  const live = useHydrated();
  return (
    <section className="page narrow">
      <h1>购买积分</h1>
      <p className="lead">
        积分用于在线公证等服务，每积分 ¥{priceYuan}。订单创建后请在 {timeoutMinutes}{' '}
        分钟内完成支付，超时自动关闭。
      </p>
      <FormErrors errors={actionData?.formError ? [actionData.formError] : undefined} />
      <Form
        method="post"
        className="card"
        noValidate
        onChange={(e) => {
          const form = new FormData(e.currentTarget);
          setValues({
            package: String(form.get('package') ?? ''),
            custom: String(form.get('custom') ?? '').trim(),
            type: String(form.get('type') ?? ''),
          });
        }}
      >
        <CsrfInput />
        <RadioGroup
          legend="选择套餐"
          name="package"
          checked={values.package}
          invalid={!!errors.integral}
          options={packages.map((p) => ({
            value: String(p.points),
            label: (
              <>
                {p.points} 积分 <span className="muted">¥{p.yuan}</span>
              </>
            ),
          }))}
        />
        <Field
          label="自定义积分"
          id="buy-custom"
          errors={errors.integral ? [errors.integral] : undefined}
          hint={`填写后以自定义积分为准，可填 ${min}-${max} 的整数（只填数字0-9）`}
        >
          <input
            id="buy-custom"
            name="custom"
            type="text"
            inputMode="numeric"
            autoComplete="off"
            maxLength={9}
            defaultValue={values.custom}
            aria-invalid={errors.integral ? true : undefined}
          />
        </Field>
        <RadioGroup
          legend="支付方式"
          name="type"
          checked={values.type}
          invalid={!!errors.type}
          options={payTypes.map((t) => ({ value: String(t.value), label: t.label }))}
        >
          {errors.type ? (
            <div className="field-error" role="alert">
              {errors.type}
            </div>
          ) : null}
        </RadioGroup>
        {live ? (
          <p data-testid="buy-total">
            应付金额：<strong>{points === null ? '—' : `¥${yuanText(points * priceFen)}`}</strong>
            {points === null ? null : <span className="muted">（{points} 积分）</span>}
          </p>
        ) : null}
        <p>
          <button type="submit" className="button primary">
            立即支付
          </button>{' '}
          <Link to="/orders">我的订单</Link> <Link to="/points">积分明细</Link>{' '}
          <Link to="/redeem">兑换码兑换</Link>
        </p>
      </Form>
    </section>
  );
}

/** A group of radio buttons in a `fieldset.field`; `children` follow the options (e.g. the group's error). */
function RadioGroup({
  legend,
  name,
  options,
  checked,
  invalid,
  children,
}: {
  legend: string;
  name: string;
  options: { value: string; label: ReactNode }[];
  checked: string;
  invalid: boolean;
  children?: ReactNode;
}) {
  return (
    <fieldset className={invalid ? 'field field-invalid' : 'field'}>
      <legend>{legend}</legend>
      {options.map((o) => (
        <label key={o.value} className="radio">
          <input type="radio" name={name} value={o.value} defaultChecked={o.value === checked} /> {o.label}
        </label>
      ))}
      {children}
    </fieldset>
  );
}
