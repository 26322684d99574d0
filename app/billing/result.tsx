/**
 * /buyCredits/result?order_no=… — the payment result page (the Alipay return URL; the WeChat page moves on to it):
 * the order's state as the platform has it after checking with the provider (`doPay`: a pending order is queried
 * and applied exactly once), never as the return URL's query says. It shows 支付成功 / 待支付 / 支付失败 / 已取消,
 * the order and the new balance. Alipay appends its own signed query: the first visit confirms the order and then
 * redirects to the bare `?order_no=` address, so that the page (and the top bar's points, from the root loader that
 * runs beside this one) is rendered after the credit.
 */
import { data, Link, redirect } from 'react-router';
import type { Route } from './+types/result';
import {
  BillingPages,
  BillingPaths,
  formatFen,
  ORDER_NO_RE,
  PAY_TYPE_TEXT,
  PayStatus,
  type OrderDetail,
  type OrderStatusData,
  type PayStatusCode,
} from '../../contract/billing.ts';
import { ApiCode, isSuccess } from '../../contract/envelope.ts';
import { authedCall } from '../lib/auth.server.ts';
import { payPageOf } from './billing.server.ts';

export const meta: Route.MetaFunction = () => [{ title: '支付结果 - 存证云' }];

/** The headline of each state (spec 02 §4 "Orders": pending, paid, cancelled, payment failed). */
const HEADLINES: Record<PayStatusCode, string> = {
  [PayStatus.pending]: '待支付',
  [PayStatus.paid]: '支付成功',
  [PayStatus.cancelled]: '已取消',
  [PayStatus.failed]: '支付失败',
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const orderNo = url.searchParams.get('order_no') ?? '';
  if (!ORDER_NO_RE.test(orderNo)) throw data({ message: '' }, { status: 404 });
  const state = await authedCall<OrderStatusData>(request, context, BillingPaths.doPay, {
    body: { order_no: orderNo },
  });
  if (Number(state.code) === ApiCode.NOT_FOUND) throw data({ message: state.msg }, { status: 404 });
  if (!isSuccess(state.code)) throw data({ message: state.msg }, { status: 502 });
  const bare = `${BillingPages.result}?order_no=${encodeURIComponent(orderNo)}`;
  if ([...url.searchParams.keys()].some((k) => k !== 'order_no')) throw redirect(bare);
  const detail = await authedCall<OrderDetail>(request, context, BillingPaths.orderDetail, {
    method: 'GET',
    query: { order_no: orderNo },
  });
  if (!isSuccess(detail.code)) throw data({ message: detail.msg }, { status: 502 });
  const order = detail.data;
  // Labels and flags are worked out here: the page's own JavaScript then needs no value of the contract module.
  return {
    orderNo,
    headline: HEADLINES[state.data.status],
    paid: state.data.status === PayStatus.paid,
    pending: state.data.status === PayStatus.pending,
    points: state.data.points ?? null,
    desc: order.desc,
    integral: order.balance,
    yuan: formatFen(order.money),
    payType: PAY_TYPE_TEXT[order.pay_type],
    createTime: order.create_time,
    payAgain: order.canPay ? payPageOf(orderNo, order.pay_type) : null,
  };
}

export default function PaymentResult({ loaderData }: Route.ComponentProps) {
  const { orderNo, headline, paid, pending, points, desc, integral, yuan, payType, createTime, payAgain } =
    loaderData;
  return (
    <section className="page narrow">
      <h1 data-testid="pay-result">{headline}</h1>
      {paid ? (
        <p className="form-notice" role="status">
          已成功充值 {integral} 积分。
        </p>
      ) : null}
      {pending ? (
        <p role="status">
          尚未收到该订单的付款。如已付款，请稍后 <Link to={`?order_no=${orderNo}`}>刷新</Link> 查看。
        </p>
      ) : null}
      <dl className="facts">
        <dt>订单号</dt>
        <dd className="mono">{orderNo}</dd>
        <dt>商品</dt>
        <dd>{desc}</dd>
        <dt>金额</dt>
        <dd>¥{yuan}</dd>
        <dt>支付方式</dt>
        <dd>{payType}</dd>
        <dt>下单时间</dt>
        <dd>{createTime}</dd>
        {points === null ? null : (
          <>
            <dt>积分余额</dt>
            <dd data-testid="balance">{points}</dd>
          </>
        )}
      </dl>
      <p>
        {payAgain ? (
          <>
            <Link to={payAgain} className="button primary">
              继续支付
            </Link>{' '}
          </>
        ) : null}
        <Link to="/orders" className="button">
          我的订单
        </Link>{' '}
        <Link to="/buyCredits">继续购买</Link>
      </p>
    </section>
  );
}
