/**
 * /attestation-list/readingMaterial/pay/{orderId}/{type} — step 4 of a notarisation order (spec 02 §2 "Notary order
 * payment"; decision 034): the price in points and the user's balance (`paysmsnews`), and payment with points
 * (`POST /api/Evidences/pay {orderId, payType: 1}`: one consumption order, the balance never below 0, a second
 * payment refused; too few points: the page says so and links /buyCredits; success goes to the order's detail,
 * Post/Redirect/Get), or Alipay / WeChat Pay: the platform opens a recharge of exactly the price bought for the order
 * and the browser goes on to the billing area's own payment pages (the Alipay hand-off, `/weChat/{orderNo}`); once
 * the payment is confirmed the points pay the order (docs/decisions/034-notary.md), and Alipay returns the browser to
 * the order's detail, which confirms it.
 */
import { data, Form, Link, redirect } from 'react-router';
import type { Route } from './+types/pay';
import { isSuccess } from '../../contract/envelope.ts';
import { NotaryPaths, type NotaryPayNews } from '../../contract/notary.ts';
import { NotaryMsg, NotaryPay, NotaryStep } from '../../contract/notary-codes.ts';
import type { PayData } from '../../contract/billing.ts';
import { PayType } from '../../contract/billing-codes.ts';
import { payPageOf } from '../billing/billing.server.ts';
import { authedCall } from '../lib/auth.server.ts';
import { validateCsrf } from '../lib/csrf.server.ts';
import { readForm } from '../lib/form-body.server.ts';
import { CsrfInput } from '../shell/csrf-input.tsx';
import { FormErrors } from '../shell/field.tsx';
import { loadStep } from './notary.server.ts';
import { Facts, StepsBar } from './notary-ui.tsx';
import { stepPath } from './step-path.ts';

export const meta: Route.MetaFunction = () => [{ title: '支付 - 我的公证 - 存证云' }];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const order = await loadStep(request, context, params, NotaryStep.pay);
  const news = await authedCall<NotaryPayNews>(request, context, NotaryPaths.paysmsnews, {
    query: { orderId: order.orderId },
  });
  if (!isSuccess(news.code)) throw data({ message: news.msg }, { status: 400 });
  return { orderId: order.orderId, info: order.info, count: order.count, news: news.data };
}

/** The ways to pay a form may name (contract PayType: points, Alipay, WeChat Pay), as form values. */
const PAY_TYPES: ReadonlySet<string> = new Set(Object.values(PayType).map(String));

export async function action({ request, params, context }: Route.ActionArgs) {
  const formData = await readForm(request, context);
  await validateCsrf(formData, request, context);
  // The chosen way to pay, never a default: a missing or unknown one spends nothing and calls nothing.
  const payType = formData.get('payType');
  if (typeof payType !== 'string' || !PAY_TYPES.has(payType))
    return data({ error: NotaryMsg.payTypeRequired }, { status: 400 });
  const order = await loadStep(request, context, params, NotaryStep.pay);
  const res = await authedCall<PayData | { balance: number }>(request, context, NotaryPaths.pay, {
    method: 'POST',
    body: { orderId: order.orderId, payType },
  });
  if (!isSuccess(res.code)) return data({ error: res.msg }, { status: 400 });
  if ('order_no' in res.data) return redirect(payPageOf(res.data.order_no, res.data.type));
  return redirect(`${stepPath(NotaryStep.done, order.orderId, order.info.type)}&done=paid`);
}

export default function Pay({ loaderData, actionData }: Route.ComponentProps) {
  const { orderId, info, count, news } = loaderData;
  const paid = news.pay === NotaryPay.paid;
  const short = news.balance < news.money;
  return (
    <section className="page">
      <p className="breadcrumb">
        <Link to="/notary">我的公证</Link> / 支付
      </p>
      <h1>支付</h1>
      <StepsBar current={4} reached={info.step} orderId={orderId} type={info.type} />
      <FormErrors errors={actionData?.error ? [actionData.error] : undefined} />
      <Facts
        testId="notary-pay-facts"
        rows={[
          ['订单编号', <span className="mono">{news.orderNo}</span>],
          ['证据数量', `${count}`],
          ['应付积分', <strong>{news.money} 积分</strong>],
          ['账户余额', `${news.balance} 积分`],
        ]}
      />
      {paid ? (
        <p>
          订单已支付。<Link to={stepPath(NotaryStep.done, orderId, info.type)}>查看订单详情</Link>
        </p>
      ) : (
        <Form method="post" className="card">
          <CsrfInput />
          <fieldset className="field">
            <legend>支付方式</legend>
            <label className="checkbox">
              <input type="radio" name="payType" value="1" defaultChecked /> 积分支付
            </label>
            <label className="checkbox">
              <input type="radio" name="payType" value="2" /> 支付宝
            </label>
            <label className="checkbox">
              <input type="radio" name="payType" value="3" /> 微信支付
            </label>
            <p className="field-hint">选择支付宝或微信支付时，将按应付积分充值并自动支付本订单。</p>
          </fieldset>
          {short ? (
            <p className="form-notice" role="status" data-testid="points-short">
              积分余额不足，还差 {news.money - news.balance} 积分，可选择支付宝或微信支付，或
              <Link to="/buyCredits">购买积分</Link>。
            </p>
          ) : null}
          <button type="submit" className="button primary">
            确认支付
          </button>
        </Form>
      )}
    </section>
  );
}
