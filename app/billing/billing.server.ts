/**
 * Server-only helpers the billing screens share (spec 02 §2 "Orders" and "Notary order payment", §7 "Orders, payment
 * and invoices"; docs/decisions/019-billing-screens.md): the payment call, where the browser goes to pay an order,
 * the order number of a URL and the QR code of a WeChat Pay `code_url`.
 */
import { data, type AppLoadContext } from 'react-router';
import {
  BillingMsg,
  BillingPages,
  BillingPaths,
  ORDER_NO_RE,
  PayType,
  type PayData,
  type ProviderPayType,
} from '../../contract/billing.ts';
import { isSuccess } from '../../contract/envelope.ts';
import { authedCall } from '../lib/auth.server.ts';

/** The same-origin page that sends the browser on to the Alipay cashier (see {@link payPageOf}). */
export function alipayHandoffPath(orderNo: string): string {
  return `${BillingPages.buyCredits}/pay/${encodeURIComponent(orderNo)}`;
}

/**
 * Where the browser goes to pay `orderNo`: WeChat Pay → `/weChat/{orderNo}` (spec 02 §2); Alipay → the handoff page
 * `/buyCredits/pay/{orderNo}`, which renders the cashier URL as a refresh and a link. A form's POST cannot answer
 * with a redirect to the cashier: the gateway's CSP `form-action 'self'` also covers the redirects that follow a
 * form submission, so Chromium blocks them (decision 019).
 */
export function payPageOf(orderNo: string, payType: number): string {
  return payType === PayType.wechat ? BillingPages.weChat(orderNo) : alipayHandoffPath(orderNo);
}

/**
 * The payment call (`POST /api/alipay/pay {integral, type, order_no?}`): a new recharge of `integral` points, or the
 * pending `order_no` paid again with its own provider.
 * @returns the platform's answer, or its message when it refused (400/404/500 envelope)
 * @throws a redirect to /login when the session ended; a 502 response when the platform cannot be reached
 */
export async function payCall(
  request: Request,
  ctx: AppLoadContext,
  body: { integral?: number; type: ProviderPayType; order_no?: string },
): Promise<{ ok: true; pay: PayData } | { ok: false; msg: string }> {
  const res = await authedCall<PayData>(request, ctx, BillingPaths.pay, { body });
  if (isSuccess(res.code)) return { ok: true, pay: res.data };
  return { ok: false, msg: res.msg || BillingMsg.providerUnavailable };
}

/** The `:orderNo` route parameter when it is an order number. @throws a 404 response (订单不存在) otherwise */
export function orderNoParam(value: string | undefined): string {
  if (!value || !ORDER_NO_RE.test(value)) throw data({ message: BillingMsg.orderNotFound }, { status: 404 });
  return value;
}
