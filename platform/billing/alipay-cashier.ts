/**
 * The sandbox Alipay cashier (docs/decisions/018-billing.md): the billing area's trade methods on the KYC area's
 * sandbox gateway (platform/kyc/alipay-sandbox.ts, same keys and AppID, RSA2 both ways) and the cashier pages.
 * - `alipay.trade.page.pay` (a page method the browser opens, GET or POST): creates the trade once per
 *   out_trade_no (same amount) and 303-redirects to `/cashier/<id>`;
 * - `alipay.trade.query`, `alipay.trade.close` (signed JSON; ACQ.TRADE_NOT_EXIST, ACQ.TRADE_STATUS_ERROR);
 * - `GET|POST /cashier/<id>`: the cashier pages (alipay-cashier-pages.ts); a payment starts the notification
 *   (alipay-cashier-store.ts).
 */
import { randomBytes } from 'node:crypto';
import formbody from '@fastify/formbody';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { AlipayClientConfig } from '../kyc/alipay-face.ts';
import { SANDBOX_DIR, loadOrCreateSandboxKeys } from '../kyc/alipay-sandbox-keys.ts';
import { esc } from '../core/sandbox-page.ts';
import type { AlipaySandboxMethod } from '../kyc/alipay-sandbox.ts';
import { failure, str, type AlipayAnswer } from '../kyc/alipay-sandbox-protocol.ts';
import { startAlipaySandbox } from '../kyc/alipay-sandbox-server.ts';
import { PAGE_PAY_PRODUCT, TRADE_METHODS } from './alipay-pay.ts';
import {
  alipayTime,
  AlipayNotifier,
  buildAlipayNotification,
  newTradeNo,
  TradeStore,
  type AlipayNotificationOptions,
} from './alipay-cashier-store.ts';
import { yuanToFen } from './money.ts';
import { cashierPage, type CashierContext, cashierRoutes } from './alipay-cashier-pages.ts';

/** The trades' state file under the data directory. */
export const TRADES_FILE = path.join(SANDBOX_DIR, 'trades.json');

const business = (subCode: string, subMsg: string): AlipayAnswer => failure('business', subCode, subMsg);
const notExist = () => business('ACQ.TRADE_NOT_EXIST', '交易不存在');

function bizOf(params: Record<string, string>): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(params.biz_content ?? '');
    return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The three trade methods for the sandbox gateway. */
function tradeMethods(ctx: CashierContext): Record<string, AlipaySandboxMethod> {
  const { store, now } = ctx;
  const pagePay: AlipaySandboxMethod = {
    page: true,
    async handle(params, reply) {
      const biz = bizOf(params);
      const outTradeNo = str(biz.out_trade_no);
      const amount = str(biz.total_amount);
      const subject = str(biz.subject);
      const expire = str(biz.time_expire);
      const bad = (why: string) => cashierPage(reply, 400, '请求无效', `<p>${esc(why)}</p>`);
      if (!/^[A-Za-z0-9_]{1,64}$/.test(outTradeNo)) return bad('out_trade_no 无效');
      if (!(yuanToFen(amount) ?? 0)) return bad('total_amount 无效');
      if (!subject || str(biz.product_code) !== PAGE_PAY_PRODUCT) return bad('subject 或 product_code 无效');
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
      const t = store.get(str(bizOf(params).out_trade_no));
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
      const t = store.get(str(bizOf(params).out_trade_no));
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
