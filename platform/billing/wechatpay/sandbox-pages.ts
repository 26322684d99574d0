/**
 * The WeChat Pay sandbox's cashier: the page a code_url opens (`/pay/<pr id>`; in production the payer scans
 * `weixin://wxpay/bizpayurl?pr=…` with WeChat instead). It shows the order and two plain forms, 支付成功 and
 * 支付失败: no JavaScript (a CSP forbids it), POST then 303 back to the page, which then shows the outcome.
 */
import { esc, sendSandboxPage } from '../../core/sandbox-page.ts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SandboxOrder, SandboxOrderStore } from './sandbox-store.ts';
import { formatRfc3339Beijing } from './v3.ts';
import { sandboxChoices } from '../sandbox-choices.ts';

const PR_ID_RE = /^[0-9a-f]{32}$/;

/** Integer fen as yuan with two decimals, e.g. 5000 → '¥50.00'. */
export function formatFen(fen: number): string {
  return `¥${Math.trunc(fen / 100)}.${String(fen % 100).padStart(2, '0')}`;
}

function page(reply: FastifyReply, status: number, title: string, main: string) {
  return sendSandboxPage(reply, status, title, main, { accent: '#07c160' });
}

const STATE_TEXT: Record<SandboxOrder['tradeState'], string> = {
  NOTPAY: '待支付',
  SUCCESS: '支付成功',
  PAYERROR: '支付失败',
  CLOSED: '订单已关闭',
};

function orderSummary(o: SandboxOrder): string {
  return (
    `<p class="amount">${formatFen(o.amountFen)}</p><dl>` +
    `<dt>商品</dt><dd>${esc(o.description)}</dd>` +
    `<dt>商户订单号</dt><dd>${esc(o.outTradeNo)}</dd>` +
    (o.timeExpire ? `<dt>支付截止</dt><dd>${esc(formatRfc3339Beijing(o.timeExpire))}</dd>` : '') +
    `<dt>状态</dt><dd class="state" data-state="${o.tradeState}">${STATE_TEXT[o.tradeState]}</dd></dl>`
  );
}

const missing = (reply: FastifyReply) => page(reply, 404, '订单不存在', '<p>二维码无效或订单已过期。</p>');

/** Options of {@link cashierRoutes}. */
export interface CashierOptions {
  store: SandboxOrderStore;
  /** The clock, ms. */
  now: () => number;
  /** Called once when the cashier marks an order paid (starts the notification's delivery). */
  onPaid: (order: SandboxOrder) => void;
}

/**
 * Registers `GET /pay/:prId` (the page) and `POST /pay/:prId` (form field `decision`: `success` → SUCCESS with a
 * transaction id, then the notification; `fail` → PAYERROR, no notification, as WeChat Pay notifies successes only).
 * A decision is final: the same one again is a no-op, the other one, a closed order or a time_expire passed answer
 * 409 with a page saying so. Needs a form-body parser on `app`.
 */
export function cashierRoutes(app: FastifyInstance, opts: CashierOptions): void {
  const { store, now } = opts;
  const find = (prId: string) => (PR_ID_RE.test(prId) ? store.byPrId(prId) : undefined);

  app.get<{ Params: { prId: string } }>('/pay/:prId', async (request, reply) => {
    const o = find(request.params.prId);
    if (!o) return missing(reply);
    const expired = o.timeExpire !== undefined && now() > o.timeExpire;
    let actions = '';
    if (o.tradeState === 'NOTPAY' && expired) {
      actions = '<p>订单已超过支付截止时间，无法支付。</p>';
    } else if (o.tradeState === 'NOTPAY') {
      actions = sandboxChoices(o.prId, '微信支付沙箱');
    }
    return page(reply, 200, '微信支付（沙箱）', orderSummary(o) + actions);
  });

  app.post<{ Params: { prId: string } }>('/pay/:prId', async (request, reply) => {
    const decision = ((request.body ?? {}) as Record<string, unknown>).decision;
    if (decision !== 'success' && decision !== 'fail') {
      return page(reply, 400, '请求无效', '<p>请选择“支付成功”或“支付失败”。</p>');
    }
    const o = find(request.params.prId);
    if (!o) return missing(reply);
    const target = decision === 'success' ? 'SUCCESS' : 'PAYERROR';
    const outcome = await store.update(o, (order) => {
      if (order.tradeState === target) return 'same';
      if (order.tradeState !== 'NOTPAY') return 'final';
      if (order.timeExpire !== undefined && now() > order.timeExpire) return 'expired';
      order.tradeState = target;
      order.settledAt = now();
      return 'settled';
    });
    if (outcome === 'final') return page(reply, 409, '订单已结束', orderSummary(o));
    if (outcome === 'expired') return page(reply, 409, '订单已过期', orderSummary(o));
    if (outcome === 'settled' && target === 'SUCCESS') opts.onPaid(o);
    return reply.code(303).header('location', o.prId).send();
  });
}
