/**
 * /buyCredits/pay/{orderNo}: where the browser goes to pay a pending recharge (from /buyCredits and from the orders
 * list's 去支付; spec 02 §4 "Orders": pending orders can be paid). WeChat Pay orders go on to `/weChat/{orderNo}`;
 * an order that can no longer be paid goes to the result page. For Alipay the platform's payment call gives the
 * cashier URL (alipay.trade.page.pay in its GET form) and this page sends the browser there: a meta refresh without
 * JavaScript, `location.replace` with it, and a plain link either way. A redirect straight from the form's POST is
 * blocked by the CSP `form-action 'self'` (decision 019); from this page it is a plain navigation.
 */
import { useEffect } from 'react';
import { data, Link, redirect } from 'react-router';
import type { Route } from './+types/pay';
import {
  BillingPages,
  BillingPaths,
  formatFen,
  OrderTab,
  PayType,
  type OrderDetail,
} from '../../contract/billing.ts';
import { ApiCode, isSuccess } from '../../contract/envelope.ts';
import { authedCall } from '../lib/auth.server.ts';
import { FormErrors } from '../shell/field.tsx';
import { orderNoParam, payCall } from './billing.server.ts';
import { useAppUrl } from '../lib/base-path.ts';

export const meta: Route.MetaFunction = () => [{ title: '前往支付 - 存证云' }];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const orderNo = orderNoParam(params.orderNo);
  const res = await authedCall<OrderDetail>(request, context, BillingPaths.orderDetail, {
    method: 'GET',
    query: { order_no: orderNo },
  });
  if (Number(res.code) === ApiCode.NOT_FOUND || (isSuccess(res.code) && res.data.type !== OrderTab.recharge))
    throw data({ message: res.msg }, { status: 404 });
  if (!isSuccess(res.code)) throw data({ message: res.msg }, { status: 502 });
  const order = res.data;
  if (!order.canPay) throw redirect(`${BillingPages.result}?order_no=${encodeURIComponent(orderNo)}`);
  if (order.pay_type === PayType.wechat) throw redirect(BillingPages.weChat(orderNo));
  const paid = await payCall(request, context, { type: PayType.alipay, order_no: orderNo });
  return {
    orderNo,
    desc: order.desc,
    yuan: formatFen(order.money),
    cashierUrl: paid.ok ? paid.pay.url : null,
    error: paid.ok ? null : paid.msg,
  };
}

export default function PayHandoff({ loaderData }: Route.ComponentProps) {
  const appUrl = useAppUrl();
  const { orderNo, desc, yuan, error } = loaderData;
  const cashierUrl = loaderData.cashierUrl ? appUrl(loaderData.cashierUrl) : null;
  useEffect(() => {
    if (cashierUrl) window.location.replace(cashierUrl);
  }, [cashierUrl]);
  return (
    <section className="page narrow">
      <h1>前往支付宝付款</h1>
      <dl className="facts">
        <dt>订单号</dt>
        <dd className="mono">{orderNo}</dd>
        <dt>商品</dt>
        <dd>{desc}</dd>
        <dt>应付金额</dt>
        <dd>¥{yuan}</dd>
      </dl>
      <FormErrors errors={error ? [error] : undefined} />
      {cashierUrl ? (
        <>
          <noscript>
            <meta httpEquiv="refresh" content={`0;url=${cashierUrl}`} />
          </noscript>
          <p role="status">正在前往支付宝收银台，如未自动跳转，请点击下方按钮。</p>
          <p>
            <a href={cashierUrl} className="button primary" data-testid="cashier-link">
              前往支付宝付款
            </a>
          </p>
        </>
      ) : (
        <p>
          <Link to="/orders">返回我的订单</Link>
        </p>
      )}
    </section>
  );
}
