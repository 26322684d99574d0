/**
 * The sandbox Alipay cashier's pages (docs/decisions/018-billing.md): `GET /cashier/<id>` shows the amount, subject,
 * order number and two plain forms, 支付成功 / 支付失败 (no JavaScript); `POST /cashier/<id>` with 支付成功 marks the
 * trade TRADE_SUCCESS, starts the notification and sends the browser back to the signed return URL (a 303 to the page,
 * whose meta refresh follows it); 支付失败 keeps the trade waiting, as at Alipay, with a link back.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { requestSignContent, rsa2Sign } from '../kyc/alipay-sandbox-keys.ts';
import { esc, sendSandboxPage } from '../core/sandbox-page.ts';
import type { AlipayNotifier, TradeStore } from './alipay-cashier-store.ts';
import { alipayTime, type SandboxTrade } from './alipay-cashier-store.ts';
import { sandboxChoices } from './sandbox-choices.ts';

const CASHIER_ID_RE = /^[0-9a-f]{32}$/;
const STATUS_TEXT = { WAIT_BUYER_PAY: '待支付', TRADE_SUCCESS: '支付成功', TRADE_CLOSED: '交易已关闭' };

/** A cashier page (the sandbox page frame); `refreshTo` adds a meta refresh (the way back). */
export function cashierPage(
  reply: FastifyReply,
  status: number,
  title: string,
  main: string,
  refreshTo?: string,
) {
  return sendSandboxPage(reply, status, title, main, {
    accent: '#1677ff',
    ...(refreshTo ? { refreshTo } : {}),
  });
}

function summary(t: SandboxTrade): string {
  return (
    `<p class="amount">¥${esc(t.totalAmount)}</p><dl><dt>商品</dt><dd>${esc(t.subject)}</dd>` +
    `<dt>商户订单号</dt><dd>${esc(t.outTradeNo)}</dd>` +
    `<dt>状态</dt><dd class="state" data-state="${t.status}">${STATUS_TEXT[t.status]}</dd></dl>`
  );
}

/** The signed return URL Alipay sends the browser to after a payment (同步返回参数). */
function returnUrlOf(t: SandboxTrade, alipayPrivateKey: string, now: number): string {
  const fields: Record<string, string> = {
    charset: 'utf-8',
    out_trade_no: t.outTradeNo,
    method: 'alipay.trade.page.pay.return',
    total_amount: t.totalAmount,
    trade_no: t.tradeNo,
    auth_app_id: t.appId,
    version: '1.0',
    app_id: t.appId,
    seller_id: t.sellerId,
    timestamp: alipayTime(now),
  };
  const sign = rsa2Sign(requestSignContent(fields), alipayPrivateKey);
  const url = new URL(t.returnUrl);
  for (const [k, v] of Object.entries({ ...fields, sign, sign_type: 'RSA2' })) url.searchParams.set(k, v);
  return url.toString();
}

/** What the trade methods and pages share. */
export interface CashierContext {
  keys: { appId: string; alipayPrivateKey: string };
  sellerId: string;
  store: TradeStore;
  notifier: AlipayNotifier;
  now: () => number;
}

/** The cashier pages (see the module comment). */
export function cashierRoutes(app: FastifyInstance, ctx: CashierContext): void {
  const { store, now } = ctx;
  const find = (id: string) => (CASHIER_ID_RE.test(id) ? store.byCashierId(id) : undefined);
  const missing = (reply: FastifyReply) =>
    cashierPage(reply, 404, '交易不存在', '<p>链接无效或交易已过期。</p>');

  app.get<{ Params: { id: string } }>('/cashier/:id', async (request, reply) => {
    const t = find(request.params.id);
    if (!t) return missing(reply);
    if (t.status === 'TRADE_SUCCESS') {
      const back = returnUrlOf(t, ctx.keys.alipayPrivateKey, now());
      const link = `<p><a href="${esc(back)}">返回商户页面</a></p>`;
      return cashierPage(reply, 200, '支付成功', summary(t) + link, back);
    }
    let actions = '';
    if (t.status === 'WAIT_BUYER_PAY' && t.timeExpire !== undefined && now() > t.timeExpire) {
      actions = '<p>交易已超过支付截止时间，无法支付。</p>';
    } else if (t.status === 'WAIT_BUYER_PAY') {
      actions = sandboxChoices(t.cashierId, '支付宝沙箱收银台');
    }
    return cashierPage(reply, 200, '支付宝收银台（沙箱）', summary(t) + actions);
  });

  app.post<{ Params: { id: string } }>('/cashier/:id', async (request, reply) => {
    const decision = ((request.body ?? {}) as Record<string, unknown>).decision;
    const t = find(request.params.id);
    if (!t) return missing(reply);
    if (decision === 'fail') {
      const back = `<p><a href="${esc(t.returnUrl)}">返回商户页面</a></p>`;
      return cashierPage(
        reply,
        200,
        '支付失败',
        `${summary(t)}<p>本次支付未完成，可返回重新支付。</p>${back}`,
      );
    }
    if (decision !== 'success') return cashierPage(reply, 400, '请求无效', '<p>请选择支付结果。</p>');
    const outcome = await store.change(t, (x) => {
      if (x.status !== 'WAIT_BUYER_PAY') return x.status === 'TRADE_SUCCESS' ? 'same' : 'closed';
      if (x.timeExpire !== undefined && now() > x.timeExpire) return 'expired';
      x.status = 'TRADE_SUCCESS';
      x.paidAt = now();
      return 'paid';
    });
    if (outcome === 'closed' || outcome === 'expired')
      return cashierPage(reply, 409, '交易已关闭', summary(t));
    if (outcome === 'paid') ctx.notifier.dispatch(t);
    return reply.code(303).header('location', t.cashierId).send();
  });
}
