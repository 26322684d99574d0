/**
 * The sandbox Alipay cashier (docs/decisions/018-billing.md): the billing area's trade methods on the KYC area's
 * sandbox gateway (platform/kyc/alipay-sandbox.ts, same keys and AppID, RSA2 both ways) and the cashier pages.
 * - `alipay.trade.page.pay` (a page method the browser opens, GET or POST): creates the trade once per
 *   out_trade_no (same amount) and 303-redirects to `/cashier/<id>`;
 * - `alipay.trade.query`, `alipay.trade.close` (signed JSON; ACQ.TRADE_NOT_EXIST, ACQ.TRADE_STATUS_ERROR);
 * - `GET /cashier/<id>`: amount, subject, order number and two plain forms, 支付成功 / 支付失败 (no JavaScript);
 *   `POST /cashier/<id>`: 支付成功 marks the trade TRADE_SUCCESS, starts the notification (alipay-cashier-store.ts)
 *   and sends the browser back to the return URL (a 303 to the page, whose meta refresh follows the signed return
 *   URL); 支付失败 keeps the trade waiting, as at Alipay, with a link back.
 */
import { randomBytes } from 'node:crypto';
import formbody from '@fastify/formbody';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';
import type { AlipayClientConfig } from '../kyc/alipay-face.ts';
import {
  SANDBOX_DIR,
  loadOrCreateSandboxKeys,
  requestSignContent,
  rsa2Sign,
} from '../kyc/alipay-sandbox-keys.ts';
import { esc, sendSandboxPage } from '../core/sandbox-page.ts';
import type { AlipaySandboxMethod } from '../kyc/alipay-sandbox.ts';
import type { AlipayAnswer } from '../kyc/alipay-sandbox-protocol.ts';
import { startAlipaySandbox } from '../kyc/alipay-sandbox-server.ts';
import { PAGE_PAY_PRODUCT, TRADE_METHODS } from './alipay-pay.ts';
import {
  alipayTime,
  AlipayNotifier,
  buildAlipayNotification,
  newTradeNo,
  TradeStore,
  type AlipayNotificationOptions,
  type SandboxTrade,
} from './alipay-cashier-store.ts';
import { yuanToFen } from './money.ts';
import { sandboxChoices } from './sandbox-choices.ts';

/** The trades' state file under the data directory. */
export const TRADES_FILE = path.join(SANDBOX_DIR, 'trades.json');
const CASHIER_ID_RE = /^[0-9a-f]{32}$/;
const STATUS_TEXT = { WAIT_BUYER_PAY: '待支付', TRADE_SUCCESS: '支付成功', TRADE_CLOSED: '交易已关闭' };

const business = (subCode: string, subMsg: string): AlipayAnswer => ({
  code: '40004',
  msg: 'Business Failed',
  sub_code: subCode,
  sub_msg: subMsg,
});
const notExist = () => business('ACQ.TRADE_NOT_EXIST', '交易不存在');

function bizOf(params: Record<string, string>): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(params.biz_content ?? '');
    return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** A cashier page (the sandbox page frame); `refreshTo` adds a meta refresh (the way back). */
function cashierPage(reply: FastifyReply, status: number, title: string, main: string, refreshTo?: string) {
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
interface CashierContext {
  keys: { appId: string; alipayPrivateKey: string };
  sellerId: string;
  store: TradeStore;
  notifier: AlipayNotifier;
  now: () => number;
}

/** The three trade methods for the sandbox gateway. */
function tradeMethods(ctx: CashierContext): Record<string, AlipaySandboxMethod> {
  const { store, now } = ctx;
  const pagePay: AlipaySandboxMethod = {
    page: true,
    async handle(params, reply) {
      const biz = bizOf(params);
      const outTradeNo = text(biz.out_trade_no);
      const amount = text(biz.total_amount);
      const subject = text(biz.subject);
      const expire = text(biz.time_expire);
      const bad = (why: string) => cashierPage(reply, 400, '请求无效', `<p>${esc(why)}</p>`);
      if (!/^[A-Za-z0-9_]{1,64}$/.test(outTradeNo)) return bad('out_trade_no 无效');
      if (!(yuanToFen(amount) ?? 0)) return bad('total_amount 无效');
      if (!subject || text(biz.product_code) !== PAGE_PAY_PRODUCT) return bad('subject 或 product_code 无效');
      if (!/^https?:\/\//.test(params.notify_url ?? '') || !/^https?:\/\//.test(params.return_url ?? ''))
        return bad('notify_url 与 return_url 须为 http(s) 地址');
      let trade = store.get(outTradeNo);
      if (trade && trade.totalAmount !== amount) return bad('交易信息被篡改（金额与原交易不一致）');
      if (!trade) {
        const expireMs = expire ? Date.parse(`${expire.replace(' ', 'T')}+08:00`) : Number.NaN;
        trade = {
          cashierId: randomBytes(16).toString('hex'),
          tradeNo: newTradeNo(now()),
          appId: ctx.keys.appId,
          sellerId: ctx.sellerId,
          outTradeNo,
          subject,
          totalAmount: amount,
          notifyUrl: params.notify_url!,
          returnUrl: params.return_url!,
          ...(Number.isNaN(expireMs) ? {} : { timeExpire: expireMs }),
          status: 'WAIT_BUYER_PAY',
          createdAt: now(),
          notifyId: randomBytes(16).toString('hex'),
          notify: { attempts: [], acknowledged: false },
        };
        await store.change(trade, () => undefined);
      }
      return reply.code(303).header('location', `cashier/${trade.cashierId}`).send();
    },
  };
  const query: AlipaySandboxMethod = {
    async handle(params) {
      const t = store.get(text(bizOf(params).out_trade_no));
      if (!t) return notExist();
      return {
        code: '10000',
        msg: 'Success',
        trade_no: t.tradeNo,
        out_trade_no: t.outTradeNo,
        trade_status: t.status,
        total_amount: t.totalAmount,
        buyer_logon_id: 'tes***@sandbox.com',
        ...(t.paidAt ? { send_pay_date: alipayTime(t.paidAt) } : {}),
      };
    },
  };
  const close: AlipaySandboxMethod = {
    async handle(params) {
      const t = store.get(text(bizOf(params).out_trade_no));
      if (!t) return notExist();
      if (t.status === 'TRADE_SUCCESS') return business('ACQ.TRADE_STATUS_ERROR', '交易状态不合法');
      await store.change(t, (x) => {
        x.status = 'TRADE_CLOSED';
      });
      return { code: '10000', msg: 'Success', trade_no: t.tradeNo, out_trade_no: t.outTradeNo };
    },
  };
  return { [TRADE_METHODS.pagePay]: pagePay, [TRADE_METHODS.query]: query, [TRADE_METHODS.close]: close };
}

/** The cashier pages (see the module comment). */
function cashierRoutes(app: FastifyInstance, ctx: CashierContext): void {
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

/** Options of {@link startAlipayCashier}. */
export interface StartAlipayCashierOptions {
  dataDir: string;
  /** Keep trades in memory only (default false: `${dataDir}/alipay-sandbox/trades.json`). */
  memoryOnly?: boolean;
  /** Delays before each notification attempt of a round, ms (default 0, 1000, 3000). */
  notifyRetryDelaysMs?: readonly number[];
  /** Delay before resumed deliveries after a restart, ms (default 5000: the notify URL's server may still start). */
  resumeDelayMs?: number;
  logger?: FastifyBaseLogger;
  now?: () => number;
}

/** A running sandbox gateway with the cashier. */
export interface AlipayCashier {
  url: string;
  /** The SDK client config for it. */
  clientConfig(): AlipayClientConfig;
  /** The seller id (PID) the sandbox puts in notifications. */
  sellerId: string;
  store: TradeStore;
  /** Test hook: sends the trade's notification now (genuine or as `opts` says). @throws Error for an unknown trade */
  sendNotification(
    outTradeNo: string,
    opts?: AlipayNotificationOptions,
    url?: string,
  ): ReturnType<AlipayNotifier['sendOnce']>;
  /** Test hook: the notification's fields, signed now, unsent. @throws Error for an unknown trade */
  buildNotification(outTradeNo: string, opts?: AlipayNotificationOptions): Record<string, string>;
  /** Test hook: resolves when no delivery runs. */
  deliveriesIdle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the sandbox gateway (face and trade methods) with the cashier on loopback; paid trades whose notification
 * was never acknowledged in the last 25 hours are delivered again after `resumeDelayMs`.
 * @throws when the keys or the state file cannot be read, or no port can be bound
 */
export async function startAlipayCashier(opts: StartAlipayCashierOptions): Promise<AlipayCashier> {
  const now = opts.now ?? Date.now;
  const store = await TradeStore.open(opts.memoryOnly ? null : path.join(opts.dataDir, TRADES_FILE), now());
  const keys = await loadOrCreateSandboxKeys(opts.dataDir);
  const sellerId = `2088${keys.appId.slice(-12)}`;
  const notifier = new AlipayNotifier(keys, store, opts.notifyRetryDelaysMs ?? [0, 1000, 3000], now);
  const ctx: CashierContext = { keys, sellerId, store, notifier, now };
  const sandbox = await startAlipaySandbox({
    dataDir: opts.dataDir,
    memoryOnly: true,
    now,
    methods: tradeMethods(ctx),
    routes: async (app) => {
      await app.register(formbody);
      cashierRoutes(app, ctx);
    },
    ...(opts.logger ? { logger: opts.logger } : {}),
  });
  for (const t of store.all()) {
    const recent = t.paidAt !== undefined && now() - t.paidAt < 25 * 3600_000;
    if (t.status === 'TRADE_SUCCESS' && !t.notify.acknowledged && recent)
      notifier.dispatch(t, opts.resumeDelayMs ?? 5000);
  }
  const existing = (no: string) => {
    const t = store.get(no);
    if (!t) throw new Error(`alipay sandbox: no trade ${no}`);
    return t;
  };
  return {
    url: sandbox.url,
    clientConfig: () => sandbox.clientConfig(),
    sellerId,
    store,
    sendNotification: (no, o, url) => notifier.sendOnce(existing(no), o, url),
    buildNotification: (no, o) => buildAlipayNotification(existing(no), keys, now(), o),
    deliveriesIdle: () => notifier.idle(),
    close: async () => {
      await notifier.close();
      await sandbox.close();
    },
  };
}
