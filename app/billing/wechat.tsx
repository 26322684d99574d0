/**
 * /weChat/{orderNo} (spec 01 §2.1 and spec 02 §2 "Notary order payment": the WeChat payment page, public): the
 * order, the amount and the QR code of the WeChat Pay Native `code_url`, drawn on the server as SVG. The page asks
 * the platform for the order's state (`wxIsPay`, which checks with WeChat Pay at most every 5 s) every 5 seconds:
 * a `<noscript>` meta refresh without JavaScript, revalidation with it; once paid it moves on to the result page.
 * In the sandbox the `code_url` is an http page of the sandbox cashier, also shown as a link for testers.
 */
import { useEffect } from 'react';
import { data, Link, redirect, useRevalidator } from 'react-router';
import type { Route } from './+types/wechat';
import {
  BillingPages,
  BillingPaths,
  formatFen,
  PayStatus,
  type OrderStatusData,
  type PayPageData,
} from '../../contract/billing.ts';
import { apiCall } from '../lib/api.server.ts';
import { ApiCode, isSuccess, type ApiEnvelope } from '../../contract/envelope.ts';
import { orderNoParam } from './billing.server.ts';
import { qrDataUri } from '../lib/qr.server.ts';
import { useAppUrl } from '../lib/base-path.ts';

export const meta: Route.MetaFunction = () => [{ title: '微信支付 - 存证云' }];

/** Seconds between two looks at the order's state (the platform asks WeChat Pay at most this often). */
const POLL_SECONDS = 5;

function check<T>(res: ApiEnvelope<T>): T {
  if (Number(res.code) === ApiCode.NOT_FOUND) throw data({ message: res.msg }, { status: 404 });
  if (!isSuccess(res.code)) throw data({ message: res.msg }, { status: 502 });
  return res.data;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const orderNo = orderNoParam(params.orderNo);
  const urlPath = new URL(request.url).pathname;
  const state = check(
    await apiCall<OrderStatusData>(context, BillingPaths.wxIsPay, { body: { order_no: orderNo }, urlPath }),
  );
  if (state.status === PayStatus.paid)
    throw redirect(`${BillingPages.result}?order_no=${encodeURIComponent(orderNo)}`);
  const order = check(
    await apiCall<PayPageData>(context, BillingPaths.wxOrder, { query: { order_no: orderNo }, urlPath }),
  );
  const pending = order.status === PayStatus.pending && order.codeUrl !== '';
  return {
    orderNo,
    desc: order.desc,
    integral: order.integral,
    yuan: formatFen(order.amountFen),
    statusText: order.pay_status,
    // Still 待支付 but past its time: the QR code is gone (the platform closes it at WeChat Pay).
    expired: order.status === PayStatus.pending && !pending,
    pending,
    qr: pending ? await qrDataUri(order.codeUrl) : null,
    // Only the sandbox's code_url is a page a browser can open (WeChat Pay's own is weixin://…).
    testLink: pending && /^https?:\/\//.test(order.codeUrl) ? order.codeUrl : null,
    expiresAt: order.expiresAt,
  };
}

/** HH:mm in Beijing time. */
function clock(unixSeconds: number): string {
  return new Date(unixSeconds * 1000 + 8 * 3600_000).toISOString().slice(11, 16);
}

export default function WeChatPay({ loaderData }: Route.ComponentProps) {
  const appUrl = useAppUrl();
  const { orderNo, desc, integral, yuan, statusText, expired, pending, qr, testLink, expiresAt } = loaderData;
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(() => {
      if (revalidator.state === 'idle') void revalidator.revalidate();
    }, POLL_SECONDS * 1000);
    return () => clearInterval(timer);
  }, [pending, revalidator]);
  return (
    <section className="page narrow">
      <h1>微信支付</h1>
      <dl className="facts">
        <dt>订单号</dt>
        <dd className="mono">{orderNo}</dd>
        <dt>商品</dt>
        <dd>
          {desc}（{integral} 积分）
        </dd>
        <dt>应付金额</dt>
        <dd>
          <strong>¥{yuan}</strong>
        </dd>
        <dt>订单状态</dt>
        <dd data-testid="order-state">{statusText}</dd>
      </dl>
      {pending ? (
        <>
          <noscript>
            <meta httpEquiv="refresh" content={String(POLL_SECONDS)} />
          </noscript>
          <figure className="qr">
            {qr ? <img src={qr} alt="微信支付二维码" width={220} height={220} /> : null}
            <figcaption>请使用微信扫一扫完成支付</figcaption>
          </figure>
          {expiresAt ? <p className="muted">请在 {clock(expiresAt)}（北京时间）前完成支付。</p> : null}
          <p role="status" aria-live="polite">
            支付完成后页面将自动跳转（每{POLL_SECONDS}秒刷新一次状态）。
          </p>
          {testLink ? (
            <p>
              <a href={appUrl(testLink)} target="_blank" rel="noreferrer" data-testid="wechat-test-link">
                在浏览器中打开支付页面（测试环境）
              </a>
            </p>
          ) : null}
        </>
      ) : (
        <p role="status">
          {expired ? '订单已超时，无法继续支付。' : `该订单${statusText}。`}{' '}
          <Link to="/buyCredits">重新下单</Link> · <Link to="/orders">我的订单</Link>
        </p>
      )}
    </section>
  );
}
